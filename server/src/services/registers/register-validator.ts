import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { AJV_OPTIONS, configureAjv, fieldErrors, type FieldError, type RegisterDefinition, type RegisterSchema } from '@atendimento/schemas/registers/index';

/**
 * The server half of "one definition validates both sides": the register's schema.json
 * compiled once with ajv (the form compiles the same file with @rjsf/validator-ajv8), errors
 * turned into the seed's pt-BR texts by the shared messageForError.
 */
export function createRegisterValidator(definitions: Iterable<RegisterDefinition>) {
  const ajv = configureAjv(new Ajv({ ...AJV_OPTIONS }));
  addFormats(ajv);
  const compiled = new Map<string, { schema: RegisterSchema; validate: ValidateFunction }>();
  for (const definition of definitions) {
    try {
      compiled.set(definition.name, { schema: definition.schema, validate: ajv.compile(definition.schema) });
    } catch (error) {
      throw new Error(`registerValidator: schema.json of register "${definition.name}" does not compile (${(error as Error).message}). Fix schemas/registers/${definition.name}/schema.json.`);
    }
  }
  return {
    /** Failing fields of a (compacted) record, each with its pt-BR message; [] when valid. */
    validate(name: string, record: Record<string, unknown>): FieldError[] {
      const entry = compiled.get(name);
      if (!entry) throw new Error(`registerValidator: unknown register "${name}". Add schemas/registers/${name}/.`);
      if (entry.validate(record)) return [];
      return fieldErrors(entry.schema, entry.validate.errors ?? []);
    },
  };
}

export type RegisterValidator = ReturnType<typeof createRegisterValidator>;
