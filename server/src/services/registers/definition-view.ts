import { isAdmin } from '@atendimento/schemas';
import type { RegisterDefinition, RegisterSchema, RegisterUiSchema } from '@atendimento/schemas/registers/index';
import type { TenantRow } from '../../db/repositories/tenant-repository';
import type { UserRecord } from '../../db/repositories/user-repository';
import { disabledFields, isReadOnly, mayUseRegister } from './register-access';
import { schemaVersion } from './validator-module';

/**
 * What a browser receives of a register definition (GET /api/registers/definitions): the same
 * schema the server validates with, minus the fields whose tenant claim is off, plus what this
 * caller may do. Registers the caller may not open are not sent at all.
 */
interface RegisterDefinitionView extends RegisterDefinition {
  /** The tenant's data comes from elsewhere (externalClients): no create, edit, delete, import. */
  readOnly: boolean;
  /** Fields this caller sees but may not change (admin-only switches for non-admins, server fields). */
  lockedFields: string[];
  /** The form's precompiled validator for exactly this schema (GET, same origin, an ES module). */
  validatorUrl: string;
}

function withoutFields(schema: RegisterSchema, fields: string[]): RegisterSchema {
  if (fields.length === 0) return schema;
  const properties = { ...(schema.properties ?? {}) };
  for (const field of fields) delete properties[field];
  return { ...schema, properties, ...(schema.required && { required: schema.required.filter((f) => !fields.includes(f)) }) };
}

function uiWithout(ui: RegisterUiSchema, fields: string[]): RegisterUiSchema {
  if (fields.length === 0) return ui;
  const out: RegisterUiSchema = { ...ui };
  for (const field of fields) delete out[field];
  if (Array.isArray(out['ui:order'])) out['ui:order'] = (out['ui:order'] as string[]).filter((f) => !fields.includes(f));
  return out;
}

/** The schema a tenant's forms use: the register's, minus fields whose tenant claim is off. */
export function tenantSchema(definition: RegisterDefinition, tenant: TenantRow): RegisterSchema {
  return withoutFields(definition.schema, disabledFields(definition.list, tenant));
}

/** The definitions one caller may use, shaped for the engine's generic screens. */
export function definitionsFor(definitions: Iterable<RegisterDefinition>, tenant: TenantRow, user: Pick<UserRecord, 'claims'>): RegisterDefinitionView[] {
  const admin = isAdmin(user);
  const out: RegisterDefinitionView[] = [];
  for (const definition of definitions) {
    if (!mayUseRegister(definition.list, tenant, user)) continue;
    const hidden = disabledFields(definition.list, tenant);
    const schema = tenantSchema(definition, tenant);
    out.push({
      name: definition.name,
      schema,
      uiSchema: uiWithout(definition.uiSchema, hidden),
      list: definition.list,
      readOnly: isReadOnly(definition.list, tenant),
      lockedFields: [...new Set([...definition.list.serverFields, ...(admin ? [] : definition.list.adminFields)])].filter((f) => !hidden.includes(f)),
      validatorUrl: `/api/registers/validators/${definition.name}.js?v=${schemaVersion(schema)}`,
    });
  }
  return out;
}
