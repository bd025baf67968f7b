import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { chatSchemas, messages as texts } from '@atendimento/schemas';
import { validationError } from '../../errors';

/**
 * Validates chat bodies with the JSON Schemas of schemas/src/chat/api.ts (the same ones the
 * console may use), answering 400 with one pt-BR message per failing field.
 */
const ajv = new Ajv({ allErrors: true, strict: false });
const compiled = new Map<string, ValidateFunction>();

function messageOf(error: ErrorObject): string {
  if (error.keyword === 'required') return texts.validation.requiredField;
  if (error.keyword === 'maxLength' && /text$/.test(error.instancePath)) return texts.chat.messageTooLong;
  if (error.keyword === 'minLength' && /text$/.test(error.instancePath)) return texts.validation.requiredField;
  return texts.validation.invalidValue;
}

function fieldOf(error: ErrorObject): string {
  const path = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (error.keyword === 'required') return [path, (error.params as { missingProperty: string }).missingProperty].filter(Boolean).join('.');
  if (error.keyword === 'additionalProperties') return [path, (error.params as { additionalProperty: string }).additionalProperty].filter(Boolean).join('.');
  return path || '(body)';
}

/** Returns the body typed as T, or throws 400 `validation_failed` listing the fields. */
export function validateChat<T>(schema: keyof typeof chatSchemas, body: unknown): T {
  return validateWith<T>(`chat.${schema}`, chatSchemas[schema] as object, body);
}

/** The same for another domain's schema (mail, internal chats), compiled once under `name`. */
export function validateWith<T>(name: string, schema: object, body: unknown): T {
  let validate = compiled.get(name);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(name, validate);
  }
  const value = body ?? {};
  if (!validate(value)) {
    const seen = new Set<string>();
    const fields = (validate.errors ?? [])
      .map((e) => ({ field: fieldOf(e), message: messageOf(e) }))
      .filter((f) => (seen.has(f.field) ? false : (seen.add(f.field), true)));
    throw validationError(fields);
  }
  return value as T;
}
