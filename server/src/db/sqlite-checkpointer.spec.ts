import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../logger';
import { createDb, migrate, type Db } from './knex';
import { startCheckpointer } from './sqlite-checkpointer';

// SQLite only, whatever DATABASE_URL says: checkpoints are the WAL's.
let db: Db;
let dir: string;
let file: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'checkpointer-'));
  file = path.join(dir, 'db.sqlite');
  db = createDb({ databaseUrl: null, databaseSchema: null, sqliteFile: file });
  await migrate(db);
  await db.schema.createTable('bulk', (t) => {
    t.integer('id').primary();
    t.text('body');
  });
  await db.raw('pragma wal_checkpoint(TRUNCATE)');
});

afterAll(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

async function autocheckpointPages(): Promise<number> {
  const rows = (await db.raw('pragma wal_autocheckpoint')) as Array<{ wal_autocheckpoint: number }>;
  return rows[0]!.wal_autocheckpoint;
}

describe('WAL checkpoints on a worker thread (SQLite)', () => {
  it('copies committed pages into the database file while the connection never checkpoints, and hands the job back on stop', async () => {
    const checkpointer = await startCheckpointer(db, createLogger('silent'), { intervalMs: 20 });
    expect(await autocheckpointPages()).toBe(0);
    const before = statSync(file).size;
    // ~3,000 pages: past SQLite's own threshold, so with its automatic checkpoint the COMMIT would copy them itself.
    const body = 'x'.repeat(3000);
    await db.transaction(async (trx) => {
      for (let i = 0; i < 3000; i += 200) await trx('bulk').insert(Array.from({ length: 200 }, (_, j) => ({ id: i + j, body })));
    });
    // The COMMIT left every page in the WAL (the worker may already be copying them: its tick is 20 ms,
    // and under load the next line can run after one, so the database file's size proves nothing here).
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(3000 * 3000);
    await vi.waitFor(() => expect(statSync(file).size).toBeGreaterThan(before + 3000 * 3000), { timeout: 5000, interval: 20 });
    expect(await db('bulk').count({ n: '*' })).toEqual([{ n: 3000 }]);
    await checkpointer.stop();
    expect(await autocheckpointPages()).toBe(1000);
  });

  it('never keeps a process alive: one that closes its database without stopping it exits', () => {
    const here = path.dirname(fileURLToPath(import.meta.url));
    const code = `
      const { createDb, migrate } = await import(${JSON.stringify(path.join(here, 'knex.ts'))});
      const { startCheckpointer } = await import(${JSON.stringify(path.join(here, 'sqlite-checkpointer.ts'))});
      const { createLogger } = await import(${JSON.stringify(path.join(here, '..', 'logger.ts'))});
      const db = createDb({ databaseUrl: null, databaseSchema: null, sqliteFile: process.argv[1] });
      await migrate(db);
      await startCheckpointer(db, createLogger('silent'), { intervalMs: 10 });
      await db.destroy();
      console.log('started');`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code, path.join(dir, 'child.sqlite')], { encoding: 'utf8', timeout: 20_000 });
    expect(child.stderr).toBe('');
    expect(child.stdout.trim()).toBe('started');
    // Killed by the timeout (a checkpointer holding the event loop) would leave status null.
    expect(child.status).toBe(0);
  });
});
