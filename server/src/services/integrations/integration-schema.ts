import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { format } from '@atendimento/schemas';
import { AJV_OPTIONS, configureAjv, type RegisterSchema } from '@atendimento/schemas/registers/index';
import { INTEGRATION_MESSAGES } from '@atendimento/schemas/integrations/index';

/**
 * An integration's JSON Schema compiled with the same ajv options and keywords as the
 * registers (register-validator.ts), cached by content: definitions change live, so a changed
 * schema is simply a new cache entry.
 */
const MAX_CACHED = 500;
const cache = new Map<string, ValidateFunction>();

function newAjv(): Ajv {
  const ajv = configureAjv(new Ajv({ ...AJV_OPTIONS }));
  addFormats(ajv);
  return ajv;
}

/** The compiled validator of a schema; throws ajv's error when the schema does not compile. */
export function compileIntegrationSchema(schema: RegisterSchema): ValidateFunction {
  const key = JSON.stringify(schema);
  const hit = cache.get(key);
  if (hit) return hit;
  // One ajv per schema: ajv keeps every compiled schema (and rejects a second one with the same $id).
  const validate = newAjv().compile(schema);
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
  cache.set(key, validate);
  return validate;
}

/** Why a schema cannot be used (pt-BR), or null when ajv compiles it. */
export function schemaProblem(schema: unknown): string | null {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return INTEGRATION_MESSAGES.schemaNotObject;
  try {
    compileIntegrationSchema(schema as RegisterSchema);
    return null;
  } catch (error) {
    const detail = String((error as Error).message ?? error).split('\n')[0]!.slice(0, 300);
    return format(INTEGRATION_MESSAGES.schemaInvalid, { detail });
  }
}
