import type { Knex } from 'knex';
import { foldText, type FieldFilter, type Filter } from '@atendimento/schemas';

/**
 * Compiles the shared Filter AST (schemas/src/query.ts) to SQL for the chat tables, with the
 * same semantics `matches()` gives in memory (a missing value equals null), so a live
 * subscription's snapshot and its change matching never disagree. Only mapped fields compile;
 * values are always bound parameters.
 */

type FieldType = 'string' | 'number' | 'bool';

type FieldMapping =
  /** A column of the main table. `folded` columns hold foldText() of the value (for 'like'). */
  | { column: string; type: FieldType; folded?: boolean }
  /** A list stored as membership rows: `kind` in room_members. */
  | { member: string };

export type FieldMap = Readonly<Record<string, FieldMapping>>;

/** Thrown for a filter that names an unknown field, a wrong op for the field or a wrong value type. */
export class FilterError extends Error {}

function checkValue(type: FieldType, value: unknown, field: string): void {
  if (value === null) return;
  const ok = type === 'bool' ? typeof value === 'boolean' : type === 'number' ? typeof value === 'number' && Number.isFinite(value) : typeof value === 'string';
  if (!ok) throw new FilterError(`filter: ${field} takes ${type} values`);
}

/** Throws FilterError unless every leaf names a mapped field with a value of its type. */
export function checkFilter(filter: Filter | null | undefined, fields: FieldMap, depth = 0): void {
  if (!filter) return;
  if (depth > 8) throw new FilterError('filter: too deep');
  if ('and' in filter) return filter.and.forEach((f) => checkFilter(f, fields, depth + 1));
  if ('or' in filter) return filter.or.forEach((f) => checkFilter(f, fields, depth + 1));
  const mapping = fields[filter.field];
  if (!mapping) throw new FilterError(`filter: unknown field ${filter.field}`);
  if ('member' in mapping) {
    if (filter.op === 'array-contains') return checkValue('string', filter.value, filter.field);
    if (filter.op === 'array-contains-any') {
      if (!Array.isArray(filter.value) || filter.value.length > 500) throw new FilterError(`filter: ${filter.field} needs a list`);
      return filter.value.forEach((v) => checkValue('string', v, filter.field));
    }
    throw new FilterError(`filter: ${filter.field} takes array-contains or array-contains-any`);
  }
  switch (filter.op) {
    case 'in':
    case 'not-in':
      if (!Array.isArray(filter.value) || filter.value.length > 500) throw new FilterError(`filter: ${filter.field} needs a list`);
      return filter.value.forEach((v) => checkValue(mapping.type, v, filter.field));
    case 'like':
      if (!mapping.folded || typeof filter.value !== 'string') throw new FilterError(`filter: like is not available on ${filter.field}`);
      return;
    case 'array-contains':
    case 'array-contains-any':
      throw new FilterError(`filter: ${filter.field} is not a list`);
    default:
      return checkValue(mapping.type, filter.value, filter.field);
  }
}

/** Escapes LIKE wildcards; the pattern is used with ESCAPE '\'. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function applyLeaf(qb: Knex.QueryBuilder, f: FieldFilter, fields: FieldMap, table: string, tenantId: string): void {
  const mapping = fields[f.field]!;
  if ('member' in mapping) {
    const ids = f.op === 'array-contains' ? [f.value as string] : (f.value as string[]);
    if (ids.length === 0) {
      qb.whereRaw('1 = 0');
      return;
    }
    qb.whereIn(`${table}.id`, (sub) => {
      sub.select('room_members.room_id').from('room_members').where('room_members.tenant_id', tenantId).andWhere('room_members.kind', mapping.member).whereIn('room_members.member_id', ids);
    });
    return;
  }
  const col = `${table}.${mapping.column}`;
  const v = f.value;
  switch (f.op) {
    case '==':
      if (v === null) qb.whereNull(col);
      else qb.where(col, v as string | number | boolean);
      return;
    case '!=':
      if (v === null) qb.whereNotNull(col);
      else qb.where((w) => w.whereNot(col, v as string | number | boolean).orWhereNull(col));
      return;
    case '<':
    case '<=':
    case '>':
    case '>=':
      if (v === null) qb.whereRaw('1 = 0');
      else qb.where(col, f.op, v as string | number);
      return;
    case 'in': {
      const values = (v as unknown[]).filter((x) => x !== null) as (string | number | boolean)[];
      const withNull = (v as unknown[]).includes(null);
      qb.where((w) => {
        if (values.length) w.whereIn(col, values);
        else w.whereRaw('1 = 0');
        if (withNull) w.orWhereNull(col);
      });
      return;
    }
    case 'not-in': {
      const values = (v as unknown[]).filter((x) => x !== null) as (string | number | boolean)[];
      const withNull = (v as unknown[]).includes(null);
      qb.where((w) => {
        if (values.length) w.whereNotIn(col, values);
        if (withNull) w.whereNotNull(col);
        else if (values.length) w.orWhereNull(col);
      });
      return;
    }
    case 'like':
      qb.whereRaw('?? like ? escape ?', [col, likePattern(foldText(String(v))), '\\']);
      return;
    default:
      throw new FilterError(`filter: op ${f.op} not available on ${f.field}`);
  }
}

/** Adds `filter` to the query as WHERE conditions on `table` (call checkFilter first). */
export function applyFilter(qb: Knex.QueryBuilder, filter: Filter | null | undefined, fields: FieldMap, table: string, tenantId: string): void {
  if (!filter) return;
  if ('and' in filter) {
    if (filter.and.length === 0) return;
    qb.where((w) => {
      for (const f of filter.and) w.where((inner) => applyFilter(inner, f, fields, table, tenantId));
    });
    return;
  }
  if ('or' in filter) {
    if (filter.or.length === 0) {
      qb.whereRaw('1 = 0');
      return;
    }
    qb.where((w) => {
      for (const f of filter.or) w.orWhere((inner) => applyFilter(inner, f, fields, table, tenantId));
    });
    return;
  }
  applyLeaf(qb, filter, fields, table, tenantId);
}
