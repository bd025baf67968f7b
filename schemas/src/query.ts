/**
 * Filters and ordering shared by live subscriptions, register lists and in-memory matching:
 * the server compiles them to SQL for snapshots and pages (always as bound parameters, on
 * whitelisted fields) and evaluates the same object against records when a change arrives.
 */
export type FilterOp =
  | '=='
  | '!='
  | '<'
  | '<='
  | '>'
  | '>='
  | 'in'
  | 'not-in'
  | 'array-contains'
  | 'array-contains-any'
  /** Case- and accent-insensitive "contains" on text. */
  | 'like';

export interface FieldFilter {
  /** Dotted path in the API record: 'active', 'lifeControl.deletedAt', 'author.displayName'. */
  field: string;
  op: FilterOp;
  value: unknown;
}

export type Filter = FieldFilter | { and: Filter[] } | { or: Filter[] };

export interface OrderBy {
  field: string;
  direction: 'asc' | 'desc';
}

export const FILTER_OPS: readonly FilterOp[] = ['==', '!=', '<', '<=', '>', '>=', 'in', 'not-in', 'array-contains', 'array-contains-any', 'like'];

/** Reads a dotted path; arrays of objects are not traversed ('agents.id' is not a path). */
export function getPath(record: unknown, path: string): unknown {
  let value: unknown = record;
  for (const key of path.split('.')) {
    if (value === null || value === undefined || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** Lower-case without accents: the 'like' comparison and search normalisation. */
export function foldText(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

/** Ids inside a list that may hold plain ids or objects with an id ({ id, displayName }). */
function idsOf(value: unknown): unknown[] {
  if (!Array.isArray(value)) return [];
  return value.map((v) => (v && typeof v === 'object' && 'id' in v ? (v as { id: unknown }).id : v));
}

function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

/** Equality where a missing field equals null (records store null for empty fields, seed 000 §5). */
const same = (a: unknown, b: unknown) => (a ?? null) === (b ?? null);

function matchField(record: unknown, f: FieldFilter): boolean {
  const value = getPath(record, f.field);
  switch (f.op) {
    case '==':
      return same(value, f.value);
    case '!=':
      return !same(value, f.value);
    case '<':
      return value != null && compareValues(value, f.value) < 0;
    case '<=':
      return value != null && compareValues(value, f.value) <= 0;
    case '>':
      return value != null && compareValues(value, f.value) > 0;
    case '>=':
      return value != null && compareValues(value, f.value) >= 0;
    case 'in':
      return Array.isArray(f.value) && f.value.some((v) => same(value, v));
    case 'not-in':
      return Array.isArray(f.value) && !f.value.some((v) => same(value, v));
    case 'array-contains':
      return idsOf(value).includes(f.value);
    case 'array-contains-any':
      return Array.isArray(f.value) && idsOf(value).some((v) => (f.value as unknown[]).includes(v));
    case 'like':
      return typeof value === 'string' && typeof f.value === 'string' && foldText(value).includes(foldText(f.value));
  }
}

/** Evaluates a filter against an API-shaped record. */
export function matches(record: unknown, filter: Filter | null | undefined): boolean {
  if (!filter) return true;
  if ('and' in filter) return filter.and.every((f) => matches(record, f));
  if ('or' in filter) return filter.or.some((f) => matches(record, f));
  return matchField(record, filter);
}

/** A comparator for records following `orderBy`, then id for a stable order. */
export function compareBy(orderBy: OrderBy[]): (a: unknown, b: unknown) => number {
  return (a, b) => {
    for (const o of orderBy) {
      const c = compareValues(getPath(a, o.field), getPath(b, o.field));
      if (c !== 0) return o.direction === 'desc' ? -c : c;
    }
    return compareValues(getPath(a, 'id'), getPath(b, 'id'));
  };
}

/** Checks a filter coming from a client: known ops, non-empty keys and values (seed 000 §5). */
export function isValidFilter(filter: unknown, depth = 0): filter is Filter {
  if (!filter || typeof filter !== 'object' || depth > 8) return false;
  if ('and' in filter) return Array.isArray((filter as { and: unknown }).and) && (filter as { and: unknown[] }).and.every((f) => isValidFilter(f, depth + 1));
  if ('or' in filter) return Array.isArray((filter as { or: unknown }).or) && (filter as { or: unknown[] }).or.every((f) => isValidFilter(f, depth + 1));
  const f = filter as Partial<FieldFilter>;
  return (
    typeof f.field === 'string' && f.field !== '' &&
    typeof f.op === 'string' && FILTER_OPS.includes(f.op) &&
    f.value !== undefined && f.value !== ''
  );
}
