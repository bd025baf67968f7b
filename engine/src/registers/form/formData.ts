import type { UiSchema } from '@rjsf/utils';
import { messages } from '@atendimento/schemas';
import { compactRecord, withNulls, type FieldError, type RegisterRecord, type RegisterSchema } from '@atendimento/schemas/registers/index';
import type { RegisterView } from '../definitions';

const isValueProperty = (schema: RegisterSchema | undefined) => schema !== undefined && schema.type !== 'null';

/**
 * A stored record → the form's data: only the schema's value properties, nulls dropped (the
 * server stores empty as null; the form treats both as "not filled").
 */
export function formDataOf(schema: RegisterSchema, record: Partial<RegisterRecord> | null | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    if (isValueProperty(property) && record && key in record) out[key] = record[key];
  }
  return compactRecord(out);
}

/** The form's data → the body of POST/PUT: every schema value property present, empty ones null (seed 000 §5). */
export function bodyOf(schema: RegisterSchema, formData: Record<string, unknown>): Record<string, unknown> {
  const values = Object.fromEntries(Object.entries(schema.properties ?? {}).filter(([, p]) => isValueProperty(p)));
  const clean: Record<string, unknown> = {};
  for (const key of Object.keys(values)) if (key in formData) clean[key] = formData[key];
  return withNulls({ properties: values }, clean);
}

/**
 * The register's UI schema for one screen: the Portuguese submit label, fields this user may
 * not change disabled with the reason, the contact's phone locked while it has an active
 * room (the API marks it `phoneLocked`), and the help a ui.json gives only for editing
 * (`ui:options.editHelp`: the agent's 'Deixe em branco para manter a senha atual' means
 * nothing on a new agent, which has no current password).
 */
export function uiSchemaFor(view: RegisterView, record: Partial<RegisterRecord> | null | undefined, mode: 'create' | 'edit' | 'show'): UiSchema {
  const ui: UiSchema = { ...(view.uiSchema as UiSchema) };
  if (mode === 'edit') {
    for (const [field, fieldUi] of Object.entries(ui)) {
      const editHelp = (fieldUi as UiSchema | undefined)?.['ui:options']?.editHelp;
      if (typeof editHelp === 'string') ui[field] = { ...(fieldUi as UiSchema), 'ui:help': editHelp };
    }
  }
  const lock = (field: string, hint: string) => {
    if (!(field in (view.schema.properties ?? {}))) return;
    const current = (ui[field] ?? {}) as UiSchema;
    ui[field] = { ...current, 'ui:disabled': true, 'ui:help': hint, 'ui:options': { ...((current['ui:options'] as object) ?? {}), lockedHint: hint } };
  };
  for (const field of view.lockedFields) {
    lock(field, view.list.serverFields.includes(field) ? '' : messages.registers.adminOnlyHint);
  }
  if (mode === 'edit' && record?.phoneLocked === true) lock('phone', messages.registers.phoneLockedHint);
  ui['ui:submitButtonOptions'] = mode === 'show' ? { norender: true } : { submitText: messages.registers.save };
  // The page already says 'Novo Contato': the schema's title would repeat it above the fields.
  ui['ui:title'] = '';
  return ui;
}

/** The failing fields of a save error: the server's 400 `fields` (ApiError or react-admin's HttpError body). */
export function fieldsOfError(error: unknown): FieldError[] {
  const e = error as { fields?: unknown; body?: { fields?: unknown } } | null;
  const fields = Array.isArray(e?.fields) && e!.fields.length ? e!.fields : Array.isArray(e?.body?.fields) ? e!.body!.fields : [];
  return (fields as FieldError[]).filter((f) => f && typeof f.field === 'string' && typeof f.message === 'string');
}

/** What to tell the user about a failed save (seed 000 §8: errorMessage, error or the body). */
export function messageOfError(error: unknown): string {
  const e = error as { body?: { errorMessage?: unknown; error?: unknown }; message?: unknown } | null;
  if (typeof e?.body?.errorMessage === 'string') return e.body.errorMessage;
  if (typeof e?.body?.error === 'string') return e.body.error;
  if (typeof e?.message === 'string' && e.message) return e.message;
  return messages.errors.internal;
}
