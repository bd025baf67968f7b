import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, migrate, type Db } from '../../db/knex';
import { systemClock } from '../../clock';
import { createLogger } from '../../logger';
import { createChangeFeed, type ChangeEvent } from './change-feed';
import { createMemoryBus } from './change-bus';

let db: Db;
let dir: string;
const schema = process.env.DATABASE_URL ? `t_${randomBytes(6).toString('hex')}` : null;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'feed-'));
  db = createDb({ databaseUrl: process.env.DATABASE_URL ?? null, databaseSchema: schema, sqliteFile: path.join(dir, 'db.sqlite') });
  await migrate(db, schema);
  const now = new Date().toISOString();
  await db('tenants').insert([
    { id: 'a', name: 'A', active: true, app_config: '{}', created_at: now, updated_at: now },
    { id: 'b', name: 'B', active: true, app_config: '{}', created_at: now, updated_at: now },
  ]);
});

afterAll(async () => {
  if (schema) await db.raw('drop schema if exists ?? cascade', [schema]);
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

function feedWithLog() {
  const feed = createChangeFeed({ db, bus: createMemoryBus(), clock: systemClock, logger: createLogger('silent') });
  const got: ChangeEvent[] = [];
  feed.onChanges((_tenant, events) => {
    got.push(...events);
  });
  return { feed, got };
}

describe('change feed', () => {
  it('numbers changes per tenant without gaps and delivers them after commit, in order', async () => {
    const { feed, got } = feedWithLog();
    feed.track('a', await feed.latestSeq('a'));
    let seenInsideTransaction = -1;
    await feed.transaction('a', async (_trx, record) => {
      record({ collection: 'tags', id: 't1', op: 'upsert' });
      record({ collection: 'tags', id: 't2', op: 'upsert' });
      record({ collection: 'tags', id: 't1', op: 'delete' });
      seenInsideTransaction = got.length;
    });
    await feed.idle();
    expect(seenInsideTransaction).toBe(0);
    expect(got.map((e) => [e.seq, e.id, e.op])).toEqual([[1, 't2', 'upsert'], [2, 't1', 'delete']]);
    await Promise.all(Array.from({ length: 20 }, (_, i) => feed.transaction('a', async (_trx, record) => record({ collection: 'tags', id: `x${i}`, op: 'upsert' }))));
    await feed.idle();
    expect(got.map((e) => e.seq)).toEqual(Array.from({ length: 22 }, (_, i) => i + 1));
    feed.close();
  });

  it('publishes nothing for a rolled-back write', async () => {
    const { feed, got } = feedWithLog();
    const before = await feed.latestSeq('b');
    feed.track('b', before);
    await expect(
      feed.transaction('b', async (_trx, record) => {
        record({ collection: 'tags', id: 'lost', op: 'upsert' });
        throw new Error('falhou');
      }),
    ).rejects.toThrow('falhou');
    await feed.idle();
    expect(got).toEqual([]);
    expect(await feed.latestSeq('b')).toBe(before);
    expect(await feed.since('b', before)).toEqual([]);
    feed.close();
  });

  it('lets a second process read what the first committed, from the log', async () => {
    const bus = createMemoryBus();
    const writer = createChangeFeed({ db, bus, clock: systemClock, logger: createLogger('silent') });
    const reader = createChangeFeed({ db, bus: createMemoryBus(), clock: systemClock, logger: createLogger('silent') });
    const start = await reader.latestSeq('b');
    await writer.transaction('b', async (_trx, record) => record({ collection: 'rooms', id: 'r1', op: 'upsert' }));
    const events = await reader.since('b', start);
    expect(events.map((e) => [e.collection, e.id])).toEqual([['rooms', 'r1']]);
    writer.close();
    reader.close();
  });
});
