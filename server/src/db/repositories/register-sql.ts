import type { Knex } from 'knex';
import type { FieldFilter, Filter, OrderBy } from '@atendimento/schemas';
import { dialectOf } from '../knex';

/**
 * Compiles the shared Filter AST (schemas/src/query.ts) to SQL for register tables, with the
 * semantics `matches()` gives in memory (a missing value equals null), on both SQLite and
 * PostgreSQL. Fields are whitelisted per register: each maps either to a column or to a path
 * in the record's JSON column. Every value is a bound parameter; field paths come from the
 * register definition, never from the caller (an unknown field is refused before SQL).
 */

export type SqlType = 'string' | 'number' | 'bool' | 'array';

/** How one API field is stored: an indexed column, or a path inside the JSON `data` column. */
export type FieldSpec =
  | { column: string; type: SqlType; nullable?: boolean }
  | { json: string[]; type: SqlType };

export type FieldSpecs = Readonly<Record<string, FieldSpec>>;

/** A filter that does not fit the register's whitelist or a field's type. */
export class RegisterFilterError extends Error {}

const MAX_LIST = 500;

function checkScalar(spec: FieldSpec, field: string, value: unknown): void {
  if (value === null) return;
  const t = spec.type;
  const ok =
    t === 'bool' ? typeof value === 'boolean'
    : t === 'number' ? typeof value === 'number' && Number.isFinite(value)
    : typeof value === 'string' || (t === 'array' && typeof value === 'number');
  if (!ok) throw new RegisterFilterError(`${field} não aceita o valor ${JSON.stringify(value)}`);
  if (typeof value === 'string' && value.length > 1000) throw new RegisterFilterError(`${field}: valor longo demais`);
}

/** Throws RegisterFilterError unless every leaf names a whitelisted field with a value of its type. */
export function checkRegisterFilter(filter: Filter | null | undefined, fields: FieldSpecs, depth = 0): void {
  if (!filter) return;
  if (depth > 8) throw new RegisterFilterError('filtro aninhado demais');
  if ('and' in filter) return filter.and.forEach((f) => checkRegisterFilter(f, fields, depth + 1));
  if ('or' in filter) return filter.or.forEach((f) => checkRegisterFilter(f, fields, depth + 1));
  const spec = fields[filter.field];
  if (!spec) throw new RegisterFilterError(`campo ${filter.field} não pode ser filtrado`);
  const list = (v: unknown) => {
    if (!Array.isArray(v) || v.length > MAX_LIST) throw new RegisterFilterError(`${filter.field} precisa de uma lista`);
    return v;
  };
  switch (filter.op) {
    case 'array-contains':
      if (spec.type !== 'array') throw new RegisterFilterError(`${filter.field} não é uma lista`);
      return checkScalar(spec, filter.field, filter.value);
    case 'array-contains-any':
      if (spec.type !== 'array') throw new RegisterFilterError(`${filter.field} não é uma lista`);
      return list(filter.value).forEach((v) => checkScalar(spec, filter.field, v));
    case 'in':
    case 'not-in':
      if (spec.type === 'array') throw new RegisterFilterError(`${filter.field} é uma lista`);
      return list(filter.value).forEach((v) => checkScalar(spec, filter.field, v));
    case 'like':
      if (spec.type !== 'string' || typeof filter.value !== 'string') throw new RegisterFilterError(`${filter.field} não aceita busca por texto`);
      return;
    default:
      if (spec.type === 'array') throw new RegisterFilterError(`${filter.field} é uma lista`);
      return checkScalar(spec, filter.field, filter.value);
  }
}

/** Escapes LIKE wildcards; patterns are used with ESCAPE '\'. */
export function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** SQL for one field's value, typed for comparisons (`sql` with `?`/`??` placeholders). */
interface Expr {
  sql: string;
  bindings: unknown[];
}

export function createRegisterSql(db: Knex, table: string) {
  const pg = dialectOf(db) === 'pg';
  const data = `${table}.data`;

  function jsonText(path: string[]): Expr {
    if (pg) return { sql: `jsonb_extract_path_text(??${', ?'.repeat(path.length)})`, bindings: [data, ...path] };
    return { sql: 'json_extract(??, ?)', bindings: [data, `$.${path.join('.')}`] };
  }

  /** The field as a comparable SQL value (text, number, or 1/0 / 'true'/'false' for booleans). */
  function valueExpr(spec: FieldSpec): Expr {
    if ('column' in spec) return { sql: '??', bindings: [`${table}.${spec.column}`] };
    const text = jsonText(spec.json);
    if (pg && spec.type === 'number') {
      const typed = { sql: `jsonb_extract_path(??${', ?'.repeat(spec.json.length)})`, bindings: [data, ...spec.json] };
      return { sql: `(case when jsonb_typeof(${typed.sql}) = 'number' then (${text.sql})::numeric end)`, bindings: [...typed.bindings, ...text.bindings] };
    }
    return text;
  }

  /** Binding for a scalar compared against `spec` (booleans in PostgreSQL JSON are text). */
  function bindValue(spec: FieldSpec, value: unknown): unknown {
    if (typeof value === 'boolean' && pg && 'json' in spec) return value ? 'true' : 'false';
    return value;
  }

  function arrayContains(spec: FieldSpec, value: unknown): Expr {
    const v = String(value);
    if ('column' in spec) throw new RegisterFilterError('lista em coluna não suportada');
    if (pg) {
      const arr = `jsonb_extract_path(??${', ?'.repeat(spec.json.length)})`;
      return {
        sql: `(coalesce(${arr} @> jsonb_build_array(?::text), false) or coalesce(${arr} @> jsonb_build_array(jsonb_build_object('id', ?::text)), false))`,
        bindings: [data, ...spec.json, v, data, ...spec.json, v],
      };
    }
    return {
      sql: `exists (select 1 from json_each(??, ?) as je where je.value = ? or (je.type = 'object' and json_extract(je.value, '$.id') = ?))`,
      bindings: [data, `$.${spec.json.join('.')}`, v, v],
    };
  }

  function leaf(qb: Knex.QueryBuilder, f: FieldFilter, fields: FieldSpecs): void {
    const spec = fields[f.field]!;
    if (f.op === 'array-contains') {
      const e = arrayContains(spec, f.value);
      qb.whereRaw(e.sql, e.bindings as Knex.RawBinding[]);
      return;
    }
    if (f.op === 'array-contains-any') {
      const values = f.value as unknown[];
      if (values.length === 0) {
        qb.whereRaw('1 = 0');
        return;
      }
      qb.where((inner) => {
        for (const v of values) {
          const e = arrayContains(spec, v);
          inner.orWhereRaw(e.sql, e.bindings as Knex.RawBinding[]);
        }
      });
      return;
    }
    const e = valueExpr(spec);
    const b = e.bindings as Knex.RawBinding[];
    switch (f.op) {
      case '==':
        if (f.value === null) qb.whereRaw(`${e.sql} is null`, b);
        else qb.whereRaw(`${e.sql} = ?`, [...b, bindValue(spec, f.value) as Knex.RawBinding]);
        return;
      case '!=':
        if (f.value === null) qb.whereRaw(`${e.sql} is not null`, b);
        else qb.whereRaw(`(${e.sql} is null or ${e.sql} <> ?)`, [...b, ...b, bindValue(spec, f.value) as Knex.RawBinding]);
        return;
      case '<':
      case '<=':
      case '>':
      case '>=':
        qb.whereRaw(`${e.sql} ${f.op} ?`, [...b, bindValue(spec, f.value) as Knex.RawBinding]);
        return;
      case 'in':
      case 'not-in': {
        const values = (f.value as unknown[]).filter((v) => v !== null).map((v) => bindValue(spec, v) as Knex.RawBinding);
        const hasNull = (f.value as unknown[]).includes(null);
        const marks = values.map(() => '?').join(', ');
        if (f.op === 'in') {
          const parts = [...(values.length ? [`${e.sql} in (${marks})`] : []), ...(hasNull ? [`${e.sql} is null`] : [])];
          const binds = [...(values.length ? [...b, ...values] : []), ...(hasNull ? b : [])];
          qb.whereRaw(parts.length ? `(${parts.join(' or ')})` : '1 = 0', binds);
        } else {
          const parts = [...(values.length ? [`(${e.sql} is null or ${e.sql} not in (${marks}))`] : []), ...(hasNull ? [`${e.sql} is not null`] : [])];
          const binds = [...(values.length ? [...b, ...b, ...values] : []), ...(hasNull ? b : [])];
          if (parts.length) qb.whereRaw(parts.join(' and '), binds);
        }
        return;
      }
      case 'like':
        qb.whereRaw(`lower(${e.sql}) like ? escape '\\'`, [...b, likePattern(String(f.value))]);
        return;
    }
  }

  function apply(qb: Knex.QueryBuilder, filter: Filter | null | undefined, fields: FieldSpecs): void {
    if (!filter) return;
    if ('and' in filter) {
      qb.where((inner) => {
        for (const f of filter.and) inner.where((w) => apply(w, f, fields));
      });
      return;
    }
    if ('or' in filter) {
      if (filter.or.length === 0) {
        qb.whereRaw('1 = 0');
        return;
      }
      qb.where((inner) => {
        for (const f of filter.or) inner.orWhere((w) => apply(w, f, fields));
      });
      return;
    }
    leaf(qb, filter, fields);
  }

  function order(qb: Knex.QueryBuilder, orderBy: OrderBy[], fields: FieldSpecs): void {
    for (const o of orderBy) {
      const spec = fields[o.field];
      if (!spec || spec.type === 'array') throw new RegisterFilterError(`não é possível ordenar por ${o.field}`);
      const dir = o.direction === 'desc' ? 'desc' : 'asc';
      const e = valueExpr(spec);
      // NOT NULL columns keep their index order; elsewhere null sorts first, as compareBy() does.
      if ('column' in spec && spec.nullable === false) qb.orderByRaw(`${e.sql} ${dir}`, e.bindings as Knex.RawBinding[]);
      else qb.orderByRaw(`${e.sql} ${dir} ${dir === 'asc' ? 'nulls first' : 'nulls last'}`, e.bindings as Knex.RawBinding[]);
    }
    qb.orderBy(`${table}.id`, orderBy[0]?.direction === 'desc' ? 'desc' : 'asc');
  }

  return { apply, order };
}
