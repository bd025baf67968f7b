import { FILTER_OPS, isValidFilter, type FieldFilter, type Filter, type FilterOp, type OrderBy, messages, format } from '@atendimento/schemas';
import { normaliseSearch, TABLE_SEARCH_MIN, type RegisterDefinition } from '@atendimento/schemas/registers/index';
import { badRequest } from '../../errors';
import type { FieldSpecs } from '../../db/repositories/register-sql';

/** A list request after parsing, before the caller's scope is added. */
export interface ParsedListQuery {
  filter: Filter | null;
  orderBy: OrderBy[];
  offset: number;
  limit: number;
}

const MAX_PAGE = 1000;

const badParam = (param: string) => badRequest('bad_query', format(messages.registers.badQuery, { param }));
const emptyFilter = () => badRequest('filter_empty', messages.registers.filterEmpty);

function parseJsonParam(raw: unknown, param: string): unknown {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (typeof raw !== 'string') throw badParam(param);
  // A NUL character can never match stored text, and PostgreSQL refuses it in a parameter (R7).
  if (raw.includes('\0')) throw badParam(param);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw badParam(param);
  }
  if (JSON.stringify(value).includes('\\u0000')) throw badParam(param);
  return value;
}

/** Coerces query-string values to the field's type ('true' → true for booleans...). */
function coerce(specs: FieldSpecs, field: string, value: unknown): unknown {
  const spec = specs[field];
  if (!spec || typeof value !== 'string') return value;
  if (spec.type === 'bool' && (value === 'true' || value === 'false')) return value === 'true';
  if (spec.type === 'number' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return value;
}

/**
 * The table search box (seed 000 §5): + / ( ) stripped, at least 2 letters, matched as
 * "contains" on the register's search fields; a phone-like term ignores spaces.
 */
function searchFilter(definition: RegisterDefinition, raw: unknown): Filter | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'string') throw badParam('q');
  let text = normaliseSearch(raw);
  if (/^[\d ]+$/.test(text)) text = text.replace(/ /g, '');
  if (text.length < TABLE_SEARCH_MIN) throw badRequest('search_too_short', messages.validation.search2);
  return { or: definition.list.searchFields.map((field) => ({ field, op: 'like' as const, value: text })) };
}

const SUFFIXES: [string, FilterOp][] = [['_gte', '>='], ['_lte', '<='], ['_gt', '>'], ['_lt', '<'], ['_neq', '!='], ['_like', 'like']];

/**
 * ra-data-simple-rest list parameters: sort=["field","ASC"], range=[0,9],
 * filter={"q":"ana","active":true,"id":[...],"price_gte":10}.
 */
export function parseSimpleRestQuery(definition: RegisterDefinition, specs: FieldSpecs, params: Record<string, unknown>): ParsedListQuery {
  const parts: Filter[] = [];
  const filterObject = parseJsonParam(params.filter, 'filter') ?? {};
  if (!filterObject || typeof filterObject !== 'object' || Array.isArray(filterObject)) throw badParam('filter');
  let idCount = 0;
  for (const [rawKey, rawValue] of Object.entries(filterObject as Record<string, unknown>)) {
    if (rawKey === '') throw emptyFilter();
    if (rawValue === '' || rawValue === undefined) throw emptyFilter();
    if (rawKey === 'q') {
      const search = searchFilter(definition, rawValue);
      if (search) parts.push(search);
      continue;
    }
    let key = rawKey;
    let op: FilterOp | null = null;
    for (const [suffix, suffixOp] of SUFFIXES) {
      if (rawKey.endsWith(suffix) && !specs[rawKey]) {
        key = rawKey.slice(0, -suffix.length);
        op = suffixOp;
        break;
      }
    }
    const spec = specs[key];
    if (!spec) throw badRequest('filter_not_allowed', format(messages.registers.filterNotAllowed, { detail: key }));
    const value = Array.isArray(rawValue) ? rawValue.map((v) => coerce(specs, key, v)) : coerce(specs, key, rawValue);
    if (key === 'id' && Array.isArray(value)) idCount = value.length;
    if (!op) {
      if (spec.type === 'array') op = Array.isArray(value) ? 'array-contains-any' : 'array-contains';
      else op = Array.isArray(value) ? 'in' : '==';
    }
    parts.push({ field: key, op, value });
  }
  const sort = parseJsonParam(params.sort, 'sort');
  const orderBy: OrderBy[] = [];
  if (sort !== undefined) {
    if (!Array.isArray(sort) || typeof sort[0] !== 'string') throw badParam('sort');
    const [field, order] = sort as [string, unknown];
    const direction = directionOf(order, 'sort');
    if (field !== '' && field !== 'id') {
      if (!specs[field] || specs[field]!.type === 'array') throw badRequest('filter_not_allowed', format(messages.registers.filterNotAllowed, { detail: field }));
      orderBy.push({ field, direction });
    } else if (field === 'id' && direction === 'desc') {
      orderBy.push({ field: 'id', direction: 'desc' });
    }
  }
  if (orderBy.length === 0) orderBy.push({ field: definition.list.sort.field, direction: definition.list.sort.order === 'DESC' ? 'desc' : 'asc' });
  const range = parseJsonParam(params.range, 'range');
  let offset = 0;
  let limit = idCount > 0 ? Math.min(idCount, MAX_PAGE) : definition.list.perPage;
  if (range !== undefined) {
    if (!Array.isArray(range) || range.length !== 2 || !range.every((n) => Number.isSafeInteger(n) && n >= 0) || range[1] < range[0]) throw badParam('range');
    offset = range[0] as number;
    limit = Math.min((range[1] as number) - (range[0] as number) + 1, MAX_PAGE);
  }
  return { filter: parts.length === 0 ? null : parts.length === 1 ? parts[0]! : { and: parts }, orderBy, offset, limit };
}

/** A sort direction: asc or desc in any case, asc when absent; anything else is the caller's mistake (400). */
function directionOf(value: unknown, param: string): 'asc' | 'desc' {
  if (value === undefined) return 'asc';
  const text = typeof value === 'string' ? value.toLowerCase() : '';
  if (text !== 'asc' && text !== 'desc') throw badParam(param);
  return text;
}

interface MongoFilter {
  key?: unknown;
  operator?: unknown;
  value?: unknown;
}

function mongoLeaf(specs: FieldSpecs, f: MongoFilter): FieldFilter {
  // Seed 000 §5: a filter with an empty key, operator or value is refused and nothing runs.
  if (!f || typeof f !== 'object' || typeof f.key !== 'string' || f.key === '' || typeof f.operator !== 'string' || f.operator === '' || f.value === undefined || f.value === null || f.value === '') {
    throw emptyFilter();
  }
  const op = f.operator === '=' ? '==' : f.operator;
  if (!FILTER_OPS.includes(op as FilterOp)) throw badRequest('filter_not_allowed', format(messages.registers.filterNotAllowed, { detail: String(f.operator) }));
  if (!specs[f.key]) throw badRequest('filter_not_allowed', format(messages.registers.filterNotAllowed, { detail: f.key }));
  const value = Array.isArray(f.value) ? f.value.map((v) => coerce(specs, f.key as string, v)) : coerce(specs, f.key, f.value);
  return { field: f.key, op: op as FilterOp, value };
}

/** GET /api/mongodb/{collection}: orFilters, filters, orderBy [{field, mod}], getTotal, limit, last. */
export function parseMongoQuery(definition: RegisterDefinition, specs: FieldSpecs, params: Record<string, unknown>): ParsedListQuery & { getTotal: boolean } {
  const list = (name: string): MongoFilter[] => {
    const value = parseJsonParam(params[name], name);
    if (value === undefined) return [];
    if (!Array.isArray(value)) throw badParam(name);
    return value as MongoFilter[];
  };
  const parts: Filter[] = list('filters').map((f) => mongoLeaf(specs, f));
  const ors = list('orFilters').map((f) => mongoLeaf(specs, f));
  if (ors.length) parts.push({ or: ors });
  const orderBy: OrderBy[] = [];
  for (const o of list('orderBy') as { field?: unknown; mod?: unknown }[]) {
    if (!o || typeof o.field !== 'string' || o.field === '') throw emptyFilter();
    if (!specs[o.field] || specs[o.field]!.type === 'array') throw badRequest('filter_not_allowed', format(messages.registers.filterNotAllowed, { detail: o.field }));
    orderBy.push({ field: o.field, direction: directionOf(o.mod, 'orderBy') });
  }
  if (orderBy.length === 0) orderBy.push({ field: definition.list.sort.field, direction: definition.list.sort.order === 'DESC' ? 'desc' : 'asc' });
  const limitRaw = params.limit === undefined ? 20 : Number(params.limit);
  if (!Number.isSafeInteger(limitRaw) || limitRaw < 1) throw badParam('limit');
  // `last` is the cursor the previous page answered ("continue paging", seed 000 §4).
  const offset = params.last === undefined || params.last === '' ? 0 : Number(params.last);
  if (!Number.isSafeInteger(offset) || offset < 0) throw badParam('last');
  const filter = parts.length === 0 ? null : parts.length === 1 ? parts[0]! : { and: parts };
  if (filter && !isValidFilter(filter)) throw emptyFilter();
  return { filter, orderBy, offset, limit: Math.min(limitRaw, MAX_PAGE), getTotal: params.getTotal === 'true' || params.getTotal === true };
}
