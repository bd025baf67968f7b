import { mkdirSync } from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import type { Config } from '../config';
import { migrationSource } from './migrations';
import { CachingBetterSqliteClient } from './sqlite-client';

export type Db = Knex;
export type Dialect = 'sqlite' | 'pg';

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
