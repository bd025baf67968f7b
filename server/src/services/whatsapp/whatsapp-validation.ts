import { Ajv, type ValidateFunction } from 'ajv';
import { messages as texts } from '@atendimento/schemas';
import { whatsappSchemas } from '@atendimento/schemas/chat/whatsapp';
import { badRequest } from '../../errors';

/** Bodies of the WhatsApp calls, checked with the JSON Schemas of schemas/src/chat/whatsapp.ts. */
const ajv = new Ajv({ allErrors: true, strict: false });
const compiled = new Map<string, ValidateFunction>();

/** Validates a body against `whatsappSchemas[name]`; 400 with pt-BR field messages. */
export function validateWhatsapp<T>(name: keyof typeof whatsappSchemas, body: unknown, invalid: string = texts.validation.invalidValue): T {
  let validate = compiled.get(name);
  if (!validate) {
    validate = ajv.compile(whatsappSchemas[name] as object);
    compiled.set(name, validate);
  }
  if (!validate(body ?? {})) {
    const seen = new Set<string>();
    const fields = (validate.errors ?? [])
      .map((e) => {
        const path = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
        const missing = e.keyword === 'required' ? (e.params as { missingProperty: string }).missingProperty : null;
        return { field: [path, missing].filter(Boolean).join('.') || '(body)', message: missing ? texts.validation.requiredField : invalid };
      })
      .filter((f) => (seen.has(f.field) ? false : (seen.add(f.field), true)));
    // One readable sentence: the caller's own message when given, else the first field's.
    throw badRequest('validation_failed', invalid === texts.validation.invalidValue ? fields[0]?.message ?? invalid : invalid, fields);
  }
  return body as T;
}
