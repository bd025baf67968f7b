import { mkdtempSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../clock';
import { createLogger } from '../logger';
import { createChangeFeed, type ChangeEvent } from '../services/changes/change-feed';
import { createMemoryBus } from '../services/changes/change-bus';
import { createDb, migrate, type Db } from './knex';

// SQLite only, whatever DATABASE_URL says: the WAL and its sync are SQLite's (PostgreSQL syncs in its COMMIT).
let db: Db;
let dir: string;
/** FileHandle's prototype, where the WAL's datasync lives. */
let handleProto: { datasync(): Promise<void> };

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'wal-sync-'));
  db = createDb({ databaseUrl: null, databaseSchema: null, sqliteFile: path.join(dir, 'db.sqlite') });
  await migrate(db);
  const now = new Date().toISOString();
  await db('tenants').insert({ id: 'a', name: 'A', active: true, app_config: '{}', created_at: now, updated_at: now });
  const probe = await open(path.join(dir, 'probe'), 'w');
  handleProto = Object.getPrototypeOf(probe) as typeof handleProto;
  await probe.close();
});

afterEach(() => {
  vi.restoreAllMocks();
});

afterAll(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

function feed() {
  const f = createChangeFeed({ db, bus: createMemoryBus(), clock: systemClock, logger: createLogger('silent') });
  const got: ChangeEvent[] = [];
  f.onChanges((_tenant, events) => void got.push(...events));
  return { f, got };
}

function insertTag(id: string) {
  const now = new Date().toISOString();
  return async (trx: Parameters<Parameters<ReturnType<typeof feed>['f']['grouped']>[1]>[0], record: (c: { collection: string; id: string; op: 'upsert' }) => void) => {
    await trx('tags').insert({ tenant_id: 'a', id, name: id, data: '{}', created_at: now, updated_at: now });
    record({ collection: 'tags', id, op: 'upsert' });
    return id;
  };
}

async function synchronousLevel(): Promise<number> {
  const rows = (await db.raw('pragma synchronous')) as Array<{ synchronous: number }>;
  return rows[0]!.synchronous;
}

describe('group commit on SQLite: the WAL synced off the event loop before anyone is answered', () => {
  it('answers a grouped write and publishes it only once the WAL file is synced, its COMMIT having skipped the sync', async () => {
    const { f, got } = feed();
    f.track('a', await f.latestSeq('a'));
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const real = handleProto.datasync;
    const synced: string[] = [];
    vi.spyOn(handleProto, 'datasync').mockImplementation(async function (this: { datasync(): Promise<void> }) {
      await gate;
      await real.call(this);
      synced.push('wal');
    });
    const connection = (await db.client.acquireConnection()) as { pragma(sql: string): unknown };
    db.client.releaseConnection(connection);
    const pragmas = vi.spyOn(connection, 'pragma');

    let answered = false;
    const job = f.grouped('a', insertTag('w1')).then((id) => {
      answered = true;
      return id;
    });
    await vi.waitFor(async () => expect(await db('tags').where({ tenant_id: 'a', id: 'w1' }).first()).toBeTruthy());
    // Committed and readable, but not on disk for sure yet: nobody has heard of it.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(answered).toBe(false);
    expect(got).toEqual([]);
    expect(pragmas.mock.calls.map(([sql]) => sql)).toEqual(['synchronous = NORMAL', 'synchronous = FULL']);
    // Every other statement runs at FULL again.
    expect(await synchronousLevel()).toBe(2);

    open();
    expect(await job).toBe('w1');
    expect(synced).toEqual(['wal']);
    await f.idle();
    expect(got.map((e) => e.id)).toEqual(['w1']);
    f.close();
  });

  it('fails the jobs of a group whose sync failed (their senders retry), keeps the rows, and syncs the next group', async () => {
    const { f } = feed();
    vi.spyOn(handleProto, 'datasync').mockRejectedValueOnce(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    await expect(Promise.all([f.grouped('a', insertTag('e1')), f.grouped('a', insertTag('e2'))])).rejects.toThrow('EIO');
    expect((await db('tags').where('tenant_id', 'a').whereIn('id', ['e1', 'e2'])).length).toBe(2);
    expect(await f.grouped('a', insertTag('e3'))).toBe('e3');
    f.close();
  });

  it('keeps FULL for a transaction outside group commit', async () => {
    const { f } = feed();
    const connection = (await db.client.acquireConnection()) as { pragma(sql: string): unknown };
    db.client.releaseConnection(connection);
    const pragmas = vi.spyOn(connection, 'pragma');
    await f.transaction('a', insertTag('t1'));
    expect(pragmas).not.toHaveBeenCalled();
    expect(await synchronousLevel()).toBe(2);
    f.close();
  });
});

describe('group commit on SQLite when a job fails', () => {
  it('rolls the optimistic run back, answers the others, and leaves the connection at FULL', async () => {
    const { f } = feed();
    const failing = f.grouped('a', async () => {
      throw new Error('falhou');
    });
    const results = await Promise.allSettled([f.grouped('a', insertTag('r1')), failing, f.grouped('a', insertTag('r2'))]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await synchronousLevel()).toBe(2);
    expect((await db('tags').where('tenant_id', 'a').whereIn('id', ['r1', 'r2'])).length).toBe(2);
    f.close();
  });
});
