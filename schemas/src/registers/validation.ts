import { messages } from '../messages';
import type { FieldError, RegisterSchema } from './types';

/**
 * One definition validates both sides: the server compiles schema.json with ajv, the form
 * uses @rjsf/validator-ajv8 with the same schema, and both turn ajv's errors into the seed's
 * pt-BR texts with {@link messageForError}, reading `errorMessage` beside the failing keyword.
 */

/** What both ajv (server) and rjsf (form) report about a failing keyword. */
export interface SchemaError {
  keyword?: string;
  /** rjsf calls the keyword `name`. */
  name?: string;
  schemaPath?: string;
  params?: Record<string, unknown> | unknown;
  /** ajv: '/cgc/0'. */
  instancePath?: string;
  /** rjsf: '.cgc.0'. */
  property?: string;
}

/** Registers our annotation keyword so ajv in strict mode accepts register schemas. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function configureAjv<T extends { addKeyword: (...args: any[]) => unknown }>(ajv: T): T {
  ajv.addKeyword({ keyword: 'errorMessage', schemaType: ['string', 'object'] });
  return ajv;
}

/** The ajv options both sides use: every error at once, so each field gets its message. */
export const AJV_OPTIONS = { allErrors: true, strict: false } as const;

function decode(segment: string): string {
  return decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The subschema a schemaPath points into, minus the trailing keyword. */
function schemaAt(root: RegisterSchema, schemaPath: string): RegisterSchema | undefined {
  const segments = schemaPath.replace(/^#\/?/, '').split('/').filter(Boolean).map(decode);
  segments.pop();
  let node: unknown = root;
  for (const segment of segments) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node && typeof node === 'object' ? (node as RegisterSchema) : undefined;
}

function paramsOf(error: SchemaError): Record<string, unknown> {
  return error.params && typeof error.params === 'object' ? (error.params as Record<string, unknown>) : {};
}

function fallback(keyword: string, schema: RegisterSchema | undefined, params: Record<string, unknown>): string {
  if (keyword === 'required') return messages.validation.requiredField;
  if (keyword === 'format' && params.format === 'email') return messages.validation.emailInvalid;
  if (keyword === 'maxLength') return messages.validation.tooLong;
  const type = schema && (Array.isArray(schema.type) ? schema.type[0] : schema.type);
  if (keyword === 'type' && (type === 'number' || type === 'integer')) return messages.validation.numeric;
  if ((keyword === 'minimum' || keyword === 'maximum') && (type === 'number' || type === 'integer')) return messages.validation.numeric;
  return messages.validation.invalidValue;
}

/**
 * The pt-BR text for one ajv/rjsf error: the failing subschema's `errorMessage` (text, or
 * keyed by keyword with `default`), else a generic text ('Campo obrigatório', 'valor inválido').
 */
export function messageForError(root: RegisterSchema, error: SchemaError): string {
  const keyword = error.keyword ?? error.name ?? '';
  const params = paramsOf(error);
  let schema = error.schemaPath ? schemaAt(root, error.schemaPath) : undefined;
  if (keyword === 'required' && schema && typeof params.missingProperty === 'string') {
    schema = schema.properties?.[params.missingProperty];
  }
  const own = schema?.errorMessage;
  if (typeof own === 'string') return own;
  if (own && typeof own === 'object') {
    const text = own[keyword] ?? own.default;
    if (typeof text === 'string') return text;
  }
  return fallback(keyword, schema, params);
}

/** Dotted path of the failing value: 'displayName', 'cgc.0', 'queueMessages.1.arg'. */
function fieldOfError(error: SchemaError): string {
  const params = paramsOf(error);
  const base = error.instancePath !== undefined
    ? error.instancePath.split('/').filter(Boolean).map(decode)
    : (error.property ?? '').split('.').filter(Boolean);
  // rjsf already points `required` errors at the missing property; ajv points at the parent.
  const keyword = error.keyword ?? error.name;
  if (keyword === 'required' && error.instancePath !== undefined && typeof params.missingProperty === 'string') base.push(params.missingProperty);
  return base.join('.');
}

/** ajv errors → one pt-BR message per field (the first failing keyword wins, like a form). */
export function fieldErrors(root: RegisterSchema, errors: readonly SchemaError[] | null | undefined): FieldError[] {
  const seen = new Map<string, FieldError>();
  for (const error of errors ?? []) {
    const keyword = error.keyword ?? error.name;
    // if/then and anyOf wrappers repeat what their inner keyword already said.
    if (keyword === 'if' || keyword === 'anyOf' || keyword === 'oneOf') continue;
    const field = fieldOfError(error);
    if (!seen.has(field)) seen.set(field, { field, message: messageForError(root, error) });
  }
  return [...seen.values()];
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/**
 * Drops empty values ('' and null, recursively in objects) so optional fields are simply
 * absent when validated: the form and the server then agree on what "required" means.
 */
export function compactRecord<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => compactRecord(v)) as T;
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (v === '' || v === null || v === undefined) continue;
    out[key] = compactRecord(v);
  }
  return out as T;
}

/** Seed 000 §5: on save, empty or undefined fields are sent (and stored) as null. */
export function withNulls(schema: RegisterSchema, value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...value };
  for (const key of Object.keys(schema.properties ?? {})) {
    if (out[key] === undefined || out[key] === '') out[key] = null;
  }
  return out;
}

/**
 * Table search text (seed 000 §5): the characters + / ( ) are stripped and spaces trimmed;
 * the table box needs at least 2 letters ('Favor informar pelo menos 2 letras').
 */
export function normaliseSearch(text: string): string {
  return text.replace(/[+/()]/g, '').replace(/\s+/g, ' ').trim();
}

export const TABLE_SEARCH_MIN = 2;

/**
 * Normalises what people type before validation, the same in the form and on the server:
 * strings are trimmed; `"x-normalise": "digits"` keeps only digits (phones: '+55 (11) 9999-0000'
 * → '5511999990000'); `"x-normalise": "lower"` lower-cases (e-mails).
 */
export function normaliseRecord<T>(schema: RegisterSchema | undefined, value: T): T {
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (schema?.['x-normalise'] === 'digits') return trimmed.replace(/\D/g, '') as T;
    if (schema?.['x-normalise'] === 'lower') return trimmed.toLowerCase() as T;
    return trimmed as T;
  }
  if (Array.isArray(value)) return value.map((v) => normaliseRecord(schema?.items, v)) as T;
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) out[key] = normaliseRecord(schema?.properties?.[key], v);
    return out as T;
  }
  return value;
}
