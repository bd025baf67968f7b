import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import type { Config } from '../config';
import { migrationSource } from './migrations';
import { CachingBetterSqliteClient, SQLITE_SYNCHRONOUS } from './sqlite-client';

export type Db = Knex;
/**
 * A transaction handle as services see it: they receive one from `feed.transaction` (or a
 * repository) and hand it back to repositories, never build a query on it (docs/database.md).
 */
export type Transaction = Knex.Transaction;
/** Where a repository call runs: the pool, or the caller's transaction. */
export type Executor = Knex | Knex.Transaction;

/** Per transaction: the after-commit callbacks of the group-commit job running in it now. */
const jobScopes = new WeakMap<Knex.Transaction, Array<() => void>>();

/**
 * Runs `fn` once the transaction committed (never after a rollback): deliveries, kicks. Inside
 * a group-commit job (`inSavepoint`), `fn` belongs to the job: it runs after the commit only
 * if the job's savepoint was kept.
 */
export function afterCommit(trx: Knex.Transaction, fn: () => void): void {
  const scope = jobScopes.get(trx);
  if (scope) scope.push(fn);
  else trx.executionPromise?.then(fn, () => {});
}

/** What one job of a group commit left: its value or its error, and its after-commit callbacks. */
export type SavepointOutcome<T> = { ok: true; value: T; afterCommit: Array<() => void> } | { ok: false; error: unknown };

/**
 * Runs `work` inside a savepoint of `trx` (group commit, docs/ingest.md): a throw rolls back only
 * what `work` wrote and is returned, and the transaction goes on with the next job. Jobs run one
 * after another on a transaction (one connection), so one savepoint name serves them all. A
 * failure to roll back to the savepoint (the connection is gone, SQLite rolled everything back
 * on a disk error) throws: the whole group fails.
 */
export async function inSavepoint<T>(trx: Knex.Transaction, work: () => Promise<T>): Promise<SavepointOutcome<T>> {
  await trx.raw('savepoint group_job');
  const outcome = await inJobScope(trx, work);
  if (!outcome.ok) await trx.raw('rollback to savepoint group_job');
  await trx.raw('release savepoint group_job');
  return outcome;
}

/**
 * Runs one group-commit job without a savepoint: its after-commit callbacks are its own, and a
 * throw is returned, leaving whatever it wrote in `trx` — the caller must then roll the whole
 * transaction back (change-feed's first, optimistic run of a group).
 */
export async function inJobScope<T>(trx: Knex.Transaction, work: () => Promise<T>): Promise<SavepointOutcome<T>> {
  const callbacks: Array<() => void> = [];
  jobScopes.set(trx, callbacks);
  try {
    return { ok: true, value: await work(), afterCommit: callbacks };
  } catch (error) {
    return { ok: false, error };
  } finally {
    jobScopes.delete(trx);
  }
}
type Dialect = 'sqlite' | 'pg';

/** Which database a Knex instance talks to; repositories use it for the few dialect differences. */
export function dialectOf(db: Knex): Dialect {
  return db.client.config.client === 'pg' ? 'pg' : 'sqlite';
}

/** The SQLite database file `db` opened; null on PostgreSQL and for an in-memory database (no WAL, nothing on disk). */
export function sqliteFileOf(db: Knex): string | null {
  if (dialectOf(db) !== 'sqlite') return null;
  const file = (db.client.config.connection as { filename?: string } | undefined)?.filename;
  return file && file !== ':memory:' ? file : null;
}

/**
 * Opens the database: PostgreSQL when DATABASE_URL is set, else an SQLite file through
 * better-sqlite3 (docs/database.md says why) with WAL, a busy timeout and foreign keys on.
 */
export function createDb(config: Pick<Config, 'databaseUrl' | 'databaseSchema' | 'sqliteFile'>): Knex {
  if (config.databaseUrl) {
    return knexFactory({
      client: 'pg',
      connection: config.databaseUrl,
      searchPath: config.databaseSchema ? [config.databaseSchema] : undefined,
      pool: { min: 0, max: 8 },
      migrations: { migrationSource, schemaName: config.databaseSchema ?? undefined },
    });
  }
  mkdirSync(path.dirname(config.sqliteFile), { recursive: true });
  return knexFactory({
    // better-sqlite3 with a prepared-statement cache per connection (sqlite-client.ts, docs/bench.md).
    client: CachingBetterSqliteClient,
    connection: { filename: config.sqliteFile },
    useNullAsDefault: true,
    // One connection: better-sqlite3 is synchronous, and a single writer avoids SQLITE_BUSY.
    pool: {
      min: 1,
      max: 1,
      afterCreate(
        conn: { pragma(sql: string): unknown; function(name: string, options: { deterministic: boolean }, fn: (value: unknown) => unknown): unknown },
        done: (err: Error | null, conn: unknown) => void,
      ) {
        conn.pragma('journal_mode = WAL');
        // FULL: each COMMIT syncs the WAL, so an acknowledged message survives a power loss, not
        // only kill -9 (docs/ingest.md "Durability"); group commit pays one sync per group, on
        // the thread pool (wal-sync.ts).
        conn.pragma(`synchronous = ${SQLITE_SYNCHRONOUS}`);
        conn.pragma('busy_timeout = 5000');
        conn.pragma('foreign_keys = ON');
        // SQLite's lower() folds ASCII only: 'Ávila' stayed 'Ávila' and the register search
        // (lower(x) LIKE lower(term)) missed accented capitals. Unicode lower, as PostgreSQL's.
        conn.function('lower', { deterministic: true }, (value) => (typeof value === 'string' ? value.toLowerCase() : value));
        done(null, conn);
      },
    },
    migrations: { migrationSource },
  });
}

/**
 * Creates the PostgreSQL schema if needed, then runs every pending migration, once, even when
 * several processes start together (docs/production.md "Upgrades"). Knex's own lock row makes
 * a second migrator fail ("Migration table is already locked") instead of waiting, and stays
 * set forever when a migrating process is killed; so every process first takes our lock
 * (PostgreSQL: an advisory lock per schema; SQLite: a lock file beside the database), waits
 * for it, and then - being the only migrator - clears a stale knex lock and migrates. Those
 * that waited find nothing left to run.
 */
export async function migrate(db: Knex, schema?: string | null, options: { sqliteFile?: string; waitMs?: number } = {}): Promise<void> {
  if (dialectOf(db) === 'pg') {
    // Committed before the migrations (they run on other connections); two processes creating
    // it at once: one wins, the other's "already exists" is fine.
    if (schema) await db.raw('create schema if not exists ??', [schema]).catch((err: { code?: string }) => {
      if (err.code !== '23505' && err.code !== '42P06') throw err;
    });
    await db.transaction(async (trx) => {
      // Held by this transaction's connection until it ends; migrate.latest uses other pool connections.
      await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`atendimento.migrate:${schema ?? 'public'}`]);
      await runMigrations(db);
    });
    return;
  }
  const file = options.sqliteFile ?? sqliteFileOf(db);
  if (!file || file === ':memory:') return runMigrations(db);
  const release = await takeLockFile(`${file}.migrate-lock`, options.waitMs ?? 120_000);
  try {
    await runMigrations(db);
  } finally {
    release();
  }
}

async function runMigrations(db: Knex): Promise<void> {
  // We hold the only migration lock: a knex lock still set is a killed migrator's leftover.
  if (await db.schema.hasTable('knex_migrations_lock')) await db.migrate.forceFreeMigrationsLock();
  await db.migrate.latest();
}

/** An exclusive lock file holding our pid; a dead holder's file (same host) is taken over. */
async function takeLockFile(lockFile: string, waitMs: number): Promise<() => void> {
  const deadline = Date.now() + waitMs;
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(lockFile, JSON.stringify({ pid: process.pid, host: os.hostname() }), { flag: 'wx' });
      return () => rmSync(lockFile, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let holder: { pid?: number; host?: string } = {};
    try {
      holder = JSON.parse(readFileSync(lockFile, 'utf8')) as typeof holder;
    } catch {
      // Being written right now: wait like for a live holder.
    }
    if (holder.pid && holder.host === os.hostname() && !processAlive(holder.pid)) {
      rmSync(lockFile, { force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`migrate: ${lockFile} is held by pid ${holder.pid ?? '?'} on ${holder.host ?? '?'} for too long. If no server is migrating, delete the file.`);
    await new Promise((resolve) => setTimeout(resolve, Math.min(1_000, 25 * 2 ** Math.min(attempt, 6))));
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** One round trip to the database (readiness): throws when it is unreachable. */
export async function pingDb(db: Knex): Promise<void> {
  await db.raw('select 1');
}

/** Migrations this code knows that the database has not run yet (readiness: "migrations done"). */
export async function pendingMigrations(db: Knex): Promise<number> {
  return (await migrationCounts(db)).pending;
}

/** Migrations the database has run and those it has not yet (`npm run migrate` reports them). */
export async function migrationCounts(db: Knex): Promise<{ done: number; pending: number }> {
  const [done, pending] = (await db.migrate.list()) as [unknown[], unknown[]];
  return { done: done.length, pending: pending.length };
}

/** Connection pool figures for /metrics: used, free, and callers waiting for a connection. */
export function poolStats(db: Knex): { used: number; free: number; pending: number; max: number } {
  const pool = (db.client as { pool?: { numUsed(): number; numFree(): number; numPendingAcquires(): number; max: number } }).pool;
  if (!pool) return { used: 0, free: 0, pending: 0, max: 0 };
  return { used: pool.numUsed(), free: pool.numFree(), pending: pool.numPendingAcquires(), max: pool.max };
}

/** Closes the pool (server shutdown, the end of a test). */
export async function closeDb(db: Knex): Promise<void> {
  await db.destroy();
}

/** PostgreSQL unique_violation or SQLite's constraint errors: a race another writer won. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** PostgreSQL chose this transaction as a deadlock victim (or a serialization failure): it was rolled back whole. */
function isDeadlock(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === '40P01' || code === '40001';
}

/**
 * Runs a write; if a unique index says another writer got there first (same external id,
 * same idempotency key, same open chat), runs it again so it finds the winner's row. A
 * deadlock victim (two group commits locking the same rows in another order) runs again too.
 */
export async function retryOnConflict<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await work();
    } catch (error) {
      if (i >= attempts || !(isUniqueViolation(error) || isDeadlock(error))) throw error;
    }
  }
}

/** Parses a JSON column (text on SQLite, jsonb on PostgreSQL) into a value. */
export function parseJson<T>(value: unknown, fallback: T): T {
  if (value === null || value === undefined) return fallback;
  if (typeof value === 'string') {
    try {
      return JSON.parse(value) as T;
    } catch {
      return fallback;
    }
  }
  return value as T;
}

/**
 * Parses a JSON record column and fills the keys it lacks from `defaults` (a record written by
 * an older version). It fills the parsed object in place instead of spreading it over the
 * defaults: `{ ...defaults, ...parsed }` with a parsed record of ~50 keys took ~60 µs a room
 * (V8 copies the second spread one property at a time through the runtime) against ~8 µs for
 * the parse and this loop together (docs/bench.md "Room rows"). The caller owns the result.
 */
export function parseRecord<T extends object>(value: unknown, defaults: Partial<T>): T {
  const parsed = value !== null && typeof value === 'object' ? { ...(value as T) } : parseJson<T | null>(value, null);
  const record = (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {}) as Record<string, unknown>;
  for (const key in defaults) if (!Object.hasOwn(record, key)) record[key] = (defaults as Record<string, unknown>)[key];
  return record as T;
}

/** Serialises a value for a JSON column on either dialect. */
export function toJson(value: unknown): string {
  return JSON.stringify(value ?? null);
}
