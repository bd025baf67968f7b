import type { Knex } from 'knex';
import { dialectOf, type Transaction } from './knex';
import { runCached } from './sqlite-client';
import { flushWrites, writesWaiting } from './write-behind';

/**
 * Statements of the ingest path built and compiled by knex once, then run straight on the
 * transaction's connection (docs/ingest.md "Prepared statements"). Knex builds, compiles and
 * wraps every call again: ~20 µs and most of the bytes allocated per statement (docs/bench.md
 * "Where B2 goes"), for statements whose shape never changes.
 *
 * `build` is called once per key and dialect with marker strings in place of the values; the
 * compiled SQL keeps knex's placeholders, and each binding that was a marker is filled from
 * `args` on every run (the others are constants of the shape, such as `.first()`'s limit).
 * The key must name everything that changes the SQL (a column list, a row count). SQLite
 * reuses the connection's cached statement (sqlite-client.ts); PostgreSQL prepares a named
 * statement once per connection. The knex `query` event still fires, so statement counts and
 * debugging see these as any other.
 */

interface Compiled {
  sql: string;
  /** Per binding: the index of the argument it takes, or the constant it is. */
  slots: Array<{ arg: number } | { value: unknown }>;
  name: string;
}

/** Shapes kept per dialect (a room update's changed columns, a change-log insert's row count). */
const MAX_SHAPES = 1_000;
const shapes = new Map<string, Compiled>();
let named = 0;

const MARK = '\u0000prepared:';

function compile(trx: Transaction, key: string, arity: number, build: (q: Transaction, args: readonly string[]) => Knex.QueryBuilder): Compiled {
  const markers = Array.from({ length: arity }, (_, i) => `${MARK}${i}`);
  const native = build(trx, markers).toSQL().toNative();
  const slots = native.bindings.map((value) => {
    if (typeof value === 'string' && value.startsWith(MARK)) return { arg: Number(value.slice(MARK.length)) };
    return { value };
  });
  if (native.sql.includes(MARK)) throw new Error(`prepared(${key}): a marker ended up in the SQL text instead of a binding; pass that value as a binding (or make it part of the key).`);
  return { sql: native.sql, slots, name: `p${++named}` };
}

export interface PreparedResult<Row> {
  rows: Row[];
  /** Rows changed (insert, update, delete). */
  count: number;
}

/** Whether `q` is a transaction (prepared statements run only inside one: they need its connection). */
export function isTransaction(q: Knex | Knex.Transaction): q is Transaction {
  return 'isTransaction' in q && q.isTransaction === true;
}

/** Runs the statement `key` inside `trx` with `args` (undefined becomes null). */
export async function prepared<Row = Record<string, unknown>>(
  trx: Transaction,
  key: string,
  args: readonly unknown[],
  build: (q: Transaction, args: readonly string[]) => Knex.QueryBuilder,
): Promise<PreparedResult<Row>> {
  const dialect = dialectOf(trx);
  const cacheKey = `${dialect}\u0001${key}`;
  let compiled = shapes.get(cacheKey);
  if (!compiled) {
    compiled = remember(cacheKey, compile(trx, key, args.length, build));
  }
  const bindings = compiled.slots.map((slot) => ('arg' in slot ? (args[slot.arg] ?? null) : slot.value));
  return run<Row>(trx, dialect, compiled.name, compiled.sql, bindings);
}

/** Runs a compiled statement on the transaction's connection, after what write-behind queued (write-behind.ts). */
async function run<Row>(trx: Transaction, dialect: 'pg' | 'sqlite', name: string, sql: string, bindings: unknown[]): Promise<PreparedResult<Row>> {
  if (writesWaiting(trx)) await flushWrites(trx);
  const client = trx.client as Knex.Client & { acquireConnection(): Promise<unknown> };
  const connection = await client.acquireConnection();
  client.emit('query', { sql, bindings, method: 'raw', __knexTxId: (connection as { __knexTxId?: string }).__knexTxId });
  if (dialect === 'pg') {
    const result = await (connection as { query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: Row[]; rowCount: number | null }> })
      .query({ name, text: sql, values: bindings });
    return { rows: result.rows, count: result.rowCount ?? 0 };
  }
  const out = runCached(client, connection, sql, bindings);
  return 'rows' in out ? { rows: out.rows as Row[], count: 0 } : { rows: [], count: out.result.changes };
}

/**
 * A PostgreSQL statement written as SQL (`$1`, `$2`… placeholders), for what knex cannot build
 * (write-behind's multi-row writes over `unnest`): `sql` is called once per `key`, which must
 * name everything that changes the text; kept with `prepared`'s shapes, prepared once per connection.
 */
export async function preparedSql<Row = Record<string, unknown>>(trx: Transaction, key: string, sql: () => string, values: unknown[]): Promise<PreparedResult<Row>> {
  const cacheKey = `pg\u0001${key}`;
  const statement = shapes.get(cacheKey) ?? remember(cacheKey, { sql: sql(), slots: [], name: `p${++named}` });
  return run<Row>(trx, 'pg', statement.name, statement.sql, values);
}

/** Keeps a compiled shape, forgetting the oldest past MAX_SHAPES. */
function remember(cacheKey: string, compiled: Compiled): Compiled {
  if (shapes.size >= MAX_SHAPES) shapes.delete(shapes.keys().next().value!);
  shapes.set(cacheKey, compiled);
  return compiled;
}

/**
 * `column` is one of a list passed as ONE binding, so the statement's text does not depend on the
 * list's length and `prepared` compiles it once (a group commit's read-ahead): PostgreSQL
 * `= any($n)` over an array, SQLite `in (select value from json_each(?))` over a JSON array.
 * The list goes in `args` through `listArg`.
 */
export function whereOneOf(qb: Knex.QueryBuilder, q: Knex | Knex.Transaction, column: string, marker: string): Knex.QueryBuilder {
  return dialectOf(q) === 'pg' ? qb.whereRaw('?? = any(?)', [column, marker]) : qb.whereRaw('?? in (select value from json_each(?))', [column, marker]);
}

/** The binding `whereOneOf` reads: the array itself (PostgreSQL) or its JSON (SQLite). */
export function listArg(q: Knex | Knex.Transaction, list: readonly string[]): unknown {
  return dialectOf(q) === 'pg' ? list : JSON.stringify(list);
}

/**
 * The rows (or the change count) of the statement `key`: prepared inside a transaction, built by
 * knex outside one, as `preparedFirst`. `build` must serve both (it gets markers in the first
 * case, the values in the second; a list goes through `whereOneOf`/`listArg`).
 */
export async function preparedAll<Row = Record<string, unknown>>(
  q: Knex | Knex.Transaction,
  key: string,
  args: readonly unknown[],
  build: (k: Knex | Knex.Transaction, args: readonly unknown[]) => Knex.QueryBuilder,
): Promise<Row[]> {
  if (isTransaction(q)) return (await prepared<Row>(q, key, args, build)).rows;
  return (await build(q, args)) as Row[];
}

/**
 * The first row of the statement `key`: prepared inside a transaction (where the ingest path
 * asks it, once per message), built by knex outside one (rare reads with no connection of
 * their own to prepare on). `build` must end in `.first()` and serve both.
 */
export async function preparedFirst<Row = Record<string, unknown>>(
  q: Knex | Knex.Transaction,
  key: string,
  args: readonly unknown[],
  build: (k: Knex | Knex.Transaction, args: readonly unknown[]) => Knex.QueryBuilder,
): Promise<Row | undefined> {
  if (isTransaction(q)) return (await prepared<Row>(q, key, args, build)).rows[0];
  return (await build(q, args)) as Row | undefined;
}
