import { createRequire } from 'node:module';
import type { Knex } from 'knex';

/**
 * Knex's better-sqlite3 client with a per-connection prepared-statement cache
 * (docs/bench.md, "Causes": knex prepares every statement again, ~60 µs each, ~0.9 ms per
 * inbound message). Statements are keyed by their SQL text, which knex builds with `?`
 * placeholders, so one entry serves every call of the same query shape; values stay
 * bindings. better-sqlite3 runs a statement synchronously to completion (knex never iterates
 * one), so a cached statement is never busy when it is used again. SQLite re-prepares a
 * cached statement itself after a schema change (migrations).
 */

interface Statement {
  reader: boolean;
  all(bindings: unknown[]): unknown[];
  run(bindings: unknown[]): { changes: number; lastInsertRowid: number | bigint };
  safeIntegers(on: boolean): Statement;
}

interface Connection {
  prepare(sql: string): Statement;
  pragma(sql: string): unknown;
  /** The transaction holding the connection (knex sets it before BEGIN). */
  __knexTxId?: string;
}

interface QueryObject {
  sql: string;
  bindings?: unknown[];
  options?: { safeIntegers?: unknown };
  response?: unknown;
  context?: { lastID: number | bigint; changes: number };
}

/** Distinct query shapes kept per connection (least recently used dropped first). */
export const STATEMENT_CACHE_SIZE = 500;

/** What the class uses of knex's better-sqlite3 client (not in knex's types). */
interface BetterSqliteHelpers {
  _formatBindings(bindings: unknown[] | undefined): unknown[];
  _optSafeIntegers(options: unknown): boolean | undefined;
}

const require = createRequire(import.meta.url);
const Base = require('knex/lib/dialects/better-sqlite3') as typeof Knex.Client;

const caches = new WeakMap<Connection, Map<string, Statement>>();

/** `synchronous` of every connection (knex.ts sets it; docs/ingest.md "Durability"). */
export const SQLITE_SYNCHRONOUS = 'FULL';

/**
 * The key of knex's transaction config that makes the transaction commit without syncing the
 * WAL: it runs at `synchronous=NORMAL` (set before its BEGIN, as SQLite requires, and put back
 * right after its COMMIT or ROLLBACK), its WAL frames written, not synced. The caller syncs
 * the WAL before it answers anyone (wal-sync.ts).
 */
export const DEFER_WAL_SYNC = 'deferWalSync';

/** Transactions (knex txid) begun with DEFER_WAL_SYNC and not ended yet. */
const syncDeferred = new Set<string>();

/** knex ends a transaction with `COMMIT;` or `ROLLBACK` (savepoints are `RELEASE`/`ROLLBACK TO`). */
const TRANSACTION_END = /^(commit|rollback)\b(?!\s+to\b)/i;
const TRANSACTION_BEGIN = /^begin\b/i;

/**
 * `limit ?` / `offset ?` as knex writes them (every `.first()`) make SQLite re-prepare the
 * statement each time it runs with new bindings (better-sqlite3 is built with STAT4): a
 * one-row `select *` by primary key measured 45–110 µs against 14–24 µs with the same limit
 * as `cast(? as integer)`. The value stays a binding; only the SQL text changes.
 */
function stableLimits(sql: string): string {
  return sql.replace(/ (limit|offset) \?/g, ' $1 cast(? as integer)');
}

function prepare(connection: Connection, sql: string): Statement {
  return connection.prepare(stableLimits(sql));
}

function cached(connection: Connection, sql: string): Statement {
  let cache = caches.get(connection);
  if (!cache) caches.set(connection, (cache = new Map()));
  let statement = cache.get(sql);
  if (statement) {
    // Map keeps insertion order: re-insert to mark it as recently used.
    cache.delete(sql);
  } else {
    statement = prepare(connection, sql);
    if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  }
  cache.set(sql, statement);
  return statement;
}

/** Runs a statement with knex's binding rules (dates and booleans as numbers): rows for a reader, else the run's result. */
function execute(client: BetterSqliteHelpers, statement: Statement, bindings: unknown[] | undefined): { rows: unknown[] } | { result: ReturnType<Statement['run']> } {
  const values = client._formatBindings(bindings);
  return statement.reader ? { rows: statement.all(values) } : { result: statement.run(values) };
}

/** Runs `sql` on the connection's cached statement as `_query` does (prepared.ts runs hot statements through it). */
export function runCached(client: object, connection: unknown, sql: string, bindings: unknown[]): { rows: unknown[] } | { result: { changes: number } } {
  return execute(client as unknown as BetterSqliteHelpers, cached(connection as Connection, sql), bindings);
}

/** Number of statements cached on a connection (tests). */
export function cachedStatementCount(connection: object): number {
  return caches.get(connection as Connection)?.size ?? 0;
}

export class CachingBetterSqliteClient extends Base {
  /** Same as knex's `_query`, except that the statement comes from the connection's cache. */
  async _query(connection: Connection, obj: QueryObject): Promise<QueryObject> {
    if (!obj.sql) throw new Error('The query is empty');
    if (!connection) throw new Error('No connection provided');
    const txid = connection.__knexTxId;
    if (txid === undefined || !syncDeferred.has(txid)) return this.run(connection, obj);
    // SQLite refuses to change `synchronous` inside a transaction: set just before BEGIN, put
    // back right after COMMIT or ROLLBACK, in the same turn (nothing else runs at NORMAL).
    const begin = TRANSACTION_BEGIN.test(obj.sql);
    const end = TRANSACTION_END.test(obj.sql);
    if (end) syncDeferred.delete(txid);
    if (begin) connection.pragma('synchronous = NORMAL');
    try {
      return this.run(connection, obj);
    } catch (error) {
      if (begin) connection.pragma(`synchronous = ${SQLITE_SYNCHRONOUS}`);
      throw error;
    } finally {
      if (end) connection.pragma(`synchronous = ${SQLITE_SYNCHRONOUS}`);
    }
  }

  private run(connection: Connection, obj: QueryObject): QueryObject {
    const self = this as unknown as BetterSqliteHelpers;
    const safeIntegers = self._optSafeIntegers(obj.options);
    // safeIntegers changes the statement: such a query gets a statement of its own.
    const statement = safeIntegers === undefined ? cached(connection, obj.sql) : prepare(connection, obj.sql).safeIntegers(safeIntegers);
    const out = execute(self, statement, obj.bindings);
    if ('rows' in out) {
      obj.response = out.rows;
      return obj;
    }
    obj.response = out.result;
    obj.context = { lastID: out.result.lastInsertRowid, changes: out.result.changes };
    return obj;
  }

  /** Knex's transaction, remembered when its config defers the WAL's sync (DEFER_WAL_SYNC). */
  transaction(container: unknown, config: Record<string, unknown> | undefined, outerTx: unknown): Knex.Transaction {
    const trx = super.transaction(container, config, outerTx);
    if (config?.[DEFER_WAL_SYNC] && !outerTx) {
      const { txid } = trx as unknown as { txid: string };
      syncDeferred.add(txid);
      // Also when it never reached its BEGIN (no connection in time).
      const forget = () => void syncDeferred.delete(txid);
      void (trx as unknown as PromiseLike<unknown>).then(forget, forget);
    }
    return trx;
  }
}
