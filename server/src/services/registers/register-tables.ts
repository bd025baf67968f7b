import type { RegisterDefinition, RegisterSchema } from '@atendimento/schemas/registers/index';
import type { RegisterTable } from '../../db/repositories/register-repository';
import type { FieldSpec, SqlType } from '../../db/repositories/register-sql';

type Columns = RegisterTable['columns'];

/**
 * Registers with a table of their own (migration 001) and how their API fields map to its
 * indexed columns; every other register lives in `documents`. Live collection names follow
 * the seed (departaments, users, fixed_messages...).
 */
const OWN_TABLES: Record<string, { table: string; columns: Columns; fixed?: RegisterTable['fixed'] }> = {
  contacts: {
    table: 'contacts',
    columns: {
      displayName: { column: 'display_name', type: 'string', nullable: false },
      phone: { column: 'phone', type: 'string' },
      email: { column: 'email', type: 'string' },
      active: { column: 'active', type: 'bool', nullable: false },
    },
  },
  agents: {
    table: 'users',
    columns: {
      displayName: { column: 'display_name', type: 'string', nullable: false },
      email: { column: 'email', type: 'string', nullable: false },
      active: { column: 'active', type: 'bool', nullable: false },
    },
    fixed: { type: 'agent' },
  },
  departaments: {
    table: 'departments',
    columns: {
      displayName: { column: 'display_name', type: 'string', nullable: false },
      active: { column: 'active', type: 'bool', nullable: false },
    },
  },
  queues: {
    table: 'queues',
    columns: {
      name: { column: 'name', type: 'string', nullable: false },
      departament: { column: 'department_id', type: 'string' },
      active: { column: 'active', type: 'bool', nullable: false },
    },
  },
  tags: {
    table: 'tags',
    columns: {
      name: { column: 'name', type: 'string', nullable: false },
      active: { column: 'active', type: 'bool', nullable: false },
    },
  },
  fixedMessages: {
    table: 'fixed_messages',
    columns: {
      uid: { column: 'owner_id', type: 'string' },
      active: { column: 'active', type: 'bool', nullable: false },
    },
  },
};

/** Channels are not a register but registers pick them (QR codes, contingencies). */
export const CHANNELS_TABLE: RegisterTable = {
  table: 'channels',
  columns: {
    type: { column: 'type', type: 'string', nullable: false },
    displayName: { column: 'display_name', type: 'string', nullable: false },
    active: { column: 'active', type: 'bool', nullable: false },
  },
  fields: {
    type: { column: 'type', type: 'string', nullable: false },
    displayName: { column: 'display_name', type: 'string', nullable: false },
    active: { column: 'active', type: 'bool', nullable: false },
  },
};

function sqlTypeOf(schema: RegisterSchema | undefined): SqlType {
  const type = schema ? (Array.isArray(schema.type) ? schema.type[0] : schema.type) : 'string';
  if (type === 'boolean') return 'bool';
  if (type === 'number' || type === 'integer') return 'number';
  if (type === 'array') return 'array';
  return 'string';
}

function schemaAt(schema: RegisterSchema, path: string[]): RegisterSchema | undefined {
  let node: RegisterSchema | undefined = schema;
  for (const key of path) node = node?.properties?.[key];
  return node;
}

/** Every field a register lets callers filter, sort or search on, plus what its scope needs. */
function queryableFields(definition: RegisterDefinition): string[] {
  const { list } = definition;
  return [...new Set([...list.filters, ...list.searchFields, list.titleField, list.sort.field, ...(list.ownerField ? [list.ownerField] : []), ...(list.scope ? [list.scope.field] : []), ...(definition.schema.properties?.active ? ['active'] : [])])]
    .filter((f) => f !== 'id' && !f.startsWith('lifeControl.'));
}

/** Where a register's records live and which of its fields are columns. */
export function registerTable(definition: RegisterDefinition): RegisterTable {
  const own = OWN_TABLES[definition.name];
  const { list } = definition;
  let columns: Columns;
  let table: string;
  let collection: string | undefined;
  if (own) {
    ({ table, columns } = own);
  } else {
    table = 'documents';
    collection = definition.name;
    columns = {
      [list.titleField]: { column: 'title', type: 'string' },
      ...(definition.schema.properties?.active && { active: { column: 'active', type: 'bool' } }),
      ...(list.ownerField && { [list.ownerField]: { column: 'owner_id', type: 'string' } }),
    };
  }
  const fields: Record<string, FieldSpec> = {};
  for (const field of queryableFields(definition)) {
    const column = columns[field];
    if (column) fields[field] = { column: column.column, type: column.type, ...(column.nullable === false && { nullable: false }) };
    else fields[field] = { json: field.split('.'), type: sqlTypeOf(schemaAt(definition.schema, field.split('.'))) };
  }
  return { table, ...(collection && { collection }), columns, ...(own?.fixed && { fixed: own.fixed }), fields };
}
