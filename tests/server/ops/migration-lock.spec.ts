import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, createDb, migrate, type Db } from '@atendimento/server/db/knex';
import { migrationSource } from '@atendimento/server/db/migrations/index';

/**
 * Several processes starting together on one database migrate it once (docs/production.md
 * "Upgrades"): four migrators race on a fresh SQLite file or PostgreSQL schema (under
 * `npm run test:pg`); every one succeeds, each migration is recorded once, and a lock left
 * by a killed migrator does not block the next start. Then the same with three OS processes
 * (`npm run migrate`'s entry) started together on another fresh file or schema.
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

  it('three OS processes running `npm run migrate` together on a fresh database: all exit 0, each migration once', async () => {
    const procDir = mkdtempSync(path.join(os.tmpdir(), 'migrate-procs-'));
    const procSchema = schema ? `t_${randomBytes(6).toString('hex')}` : null;
    const sqliteFile = path.join(procDir, 'atendimento.sqlite');
    const env = {
      ...process.env,
      DATABASE_URL: process.env.DATABASE_URL ?? '',
      DATABASE_SCHEMA: procSchema ?? '',
      DATA_DIR: procDir,
      SQLITE_FILE: sqliteFile,
      JWT_SECRET: 'segredo-de-teste-com-mais-de-32-caracteres',
      SECRETS_KEY: 'chave-de-teste-dos-segredos-dos-canais-32+',
    };
    const run = promisify(execFile);
    // Opened after the processes ran: it must not create the file or the schema for them.
    let check: Db | null = null;
    try {
      const results = await Promise.allSettled(
        [1, 2, 3].map(() => run(process.execPath, ['--import', 'tsx', 'server/src/cli/migrate.ts'], { env, cwd: process.cwd(), timeout: 60_000 })),
      );
      const failures = results.flatMap((r) => (r.status === 'rejected' ? [String((r.reason as { stderr?: string }).stderr || r.reason)] : []));
      expect(failures).toEqual([]);
      for (const r of results) expect((r as PromiseFulfilledResult<{ stdout: string }>).value.stdout).toMatch(/^Banco atualizado/);

      // What the processes left: every migration recorded exactly once, no lock left set.
      check = createDb({ ...config, databaseSchema: procSchema, sqliteFile });
      const names = (await check('knex_migrations').select('name')).map((r) => String(r.name));
      expect(names.sort()).toEqual((await migrationSource.getMigrations([])).sort());
      expect(Number((await check('knex_migrations_lock').first())?.is_locked)).toBe(0);
      if (!schema) expect(existsSync(`${sqliteFile}.migrate-lock`)).toBe(false);
    } finally {
      if (check && procSchema) await check.raw('drop schema if exists ?? cascade', [procSchema]);
      if (check) await closeDb(check);
      rmSync(procDir, { recursive: true, force: true });
    }
  }, 90_000);
});
