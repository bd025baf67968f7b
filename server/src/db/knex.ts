import { mkdirSync } from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import type { Config } from '../config';
import { migrationSource } from './migrations';
import { CachingBetterSqliteClient } from './sqlite-client';

export type Db = Knex;
/**
 * A transaction handle as services see it: they receive one from `feed.transaction` (or a
 * repository) and hand it back to repositories, never build a query on it (docs/database.md).
 */
export type Transaction = Knex.Transaction;
/** Where a repository call runs: the pool, or the caller's transaction. */
export type Executor = Knex | Knex.Transaction;

/** Runs `fn` once the transaction committed (never after a rollback): deliveries, kicks. */
export function afterCommit(trx: Knex.Transaction, fn: () => void): void {
  trx.executionPromise?.then(fn, () => {});
}
type Dialect = 'sqlite' | 'pg';

/** Which database a Knex instance talks to; repositories use it for the few dialect differences. */
export function dialectOf(db: Knex): Dialect {
  return db.client.config.client === 'pg' ? 'pg' : 'sqlite';
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
        conn.pragma('synchronous = NORMAL');
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

/** Creates the PostgreSQL schema if needed, then runs every pending migration. */
export async function migrate(db: Knex, schema?: string | null): Promise<void> {
  if (schema && dialectOf(db) === 'pg') {
    await db.raw('create schema if not exists ??', [schema]);
  }
  await db.migrate.latest();
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

/**
 * Runs a write; if a unique index says another writer got there first (same external id,
 * same idempotency key, same open chat), runs it again so it finds the winner's row.
 */
export async function retryOnConflict<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await work();
    } catch (error) {
      if (i >= attempts || !isUniqueViolation(error)) throw error;
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

/** Serialises a value for a JSON column on either dialect. */
export function toJson(value: unknown): string {
  return JSON.stringify(value ?? null);
}
