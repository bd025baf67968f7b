import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, createDb, migrate, type Db } from '@atendimento/server/db/knex';
import { migrationSource } from '@atendimento/server/db/migrations/index';

/**
 * Several processes starting together on one database migrate it once (docs/production.md
 * "Upgrades"): four migrators race on a fresh SQLite file or PostgreSQL schema (under
 * `npm run test:pg`); every one succeeds, each migration is recorded once, and a lock left
 * by a killed migrator does not block the next start.
 */
const dir = mkdtempSync(path.join(os.tmpdir(), 'migrate-lock-'));
const schema = process.env.DATABASE_URL ? `t_${randomBytes(6).toString('hex')}` : null;
const config = { databaseUrl: process.env.DATABASE_URL || null, databaseSchema: schema, sqliteFile: path.join(dir, 'atendimento.sqlite') };
const opened: Db[] = [];

function open(): Db {
  const db = createDb(config);
  opened.push(db);
  return db;
}

afterAll(async () => {
  if (schema) await opened[0]!.raw('drop schema if exists ?? cascade', [schema]);
  for (const db of opened) await closeDb(db);
  rmSync(dir, { recursive: true, force: true });
});

describe('migrations under a lock', () => {
  it('four migrators starting together: all succeed, each migration runs once', async () => {
    const dbs = [open(), open(), open(), open()];
    const results = await Promise.allSettled(dbs.map((db) => migrate(db, schema)));
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const names = (await dbs[0]!('knex_migrations').select('name')).map((r) => String(r.name));
    expect(names.sort()).toEqual((await migrationSource.getMigrations([])).sort());
    if (!schema) expect(existsSync(`${config.sqliteFile}.migrate-lock`)).toBe(false);
  });

  it('a lock left set by a killed migrator does not block the next start', async () => {
    const db = opened[0]!;
    await db('knex_migrations_lock').update({ is_locked: 1 });
    await migrate(open(), schema);
    expect(Number((await db('knex_migrations_lock').first())?.is_locked)).toBe(0);
  });
});
