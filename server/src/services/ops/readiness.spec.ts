import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, migrate, type Db } from '../../db/knex';
import { createReadiness } from './readiness';

let dir: string;
let db: Db;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'readiness-'));
  db = createDb({ databaseUrl: null, databaseSchema: null, sqliteFile: path.join(dir, 'db.sqlite') });
  await migrate(db);
});

afterAll(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('readiness.current(): the last answer without waiting (GET /api/health reads it on every request)', () => {
  it('knows nothing before the first check, then returns its answer while the ping is fresh', async () => {
    const readiness = createReadiness({ db, busConnected: () => true, draining: () => false }, { pingEveryMs: 60_000 });
    expect(readiness.current()).toBeNull();
    const answer = await readiness();
    expect(answer).toEqual({ ready: true, checks: { database: true, migrations: true, bus: true, accepting: true } });
    expect(readiness.current()).toBe(answer);
  });

  it('does not answer from memory once the ping is stale, nor when the bus or draining changed since', async () => {
    let bus = true;
    let draining = false;
    const stale = createReadiness({ db, busConnected: () => bus, draining: () => draining }, { pingEveryMs: 0 });
    await stale();
    expect(stale.current()).toBeNull();

    const fresh = createReadiness({ db, busConnected: () => bus, draining: () => draining }, { pingEveryMs: 60_000 });
    await fresh();
    bus = false;
    expect(fresh.current()).toBeNull();
    expect((await fresh()).checks.bus).toBe(false);
    expect(fresh.current()?.ready).toBe(false);
    bus = true;
    draining = true;
    expect(fresh.current()).toBeNull();
    expect(await fresh()).toEqual({ ready: false, checks: { database: true, migrations: true, bus: true, accepting: false } });
  });
});
