import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { afterCommit, createDb, migrate, type Db } from '../../db/knex';
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

  describe('group commit (feed.grouped)', () => {
    /** Counts transactions the jobs ran in (BEGIN statements) and savepoints, on either driver. */
    function countBegins() {
      let begins = 0;
      let savepoints = 0;
      const onQuery = (q: { sql: string }) => {
        if (/^begin/i.test(q.sql.trim())) begins++;
        if (/^savepoint/i.test(q.sql.trim())) savepoints++;
      };
      db.on('query', onQuery);
      return { get begins() { return begins; }, get savepoints() { return savepoints; }, stop: () => db.off('query', onQuery) };
    }

    async function tagIds(tenantId: string, prefix: string): Promise<string[]> {
      const rows = await db('tags').where('tenant_id', tenantId).andWhere('id', 'like', `${prefix}%`).select('id');
      return rows.map((r) => String(r.id)).sort();
    }

    it('writes jobs that arrive while a commit runs in one transaction, answers each after it, publishes once per tenant', async () => {
      const { feed, got } = feedWithLog();
      const batches: number[] = [];
      feed.onChanges((tenantId, events) => void (tenantId === 'a' && batches.push(events.length)));
      feed.track('a', await feed.latestSeq('a'));
      feed.track('b', await feed.latestSeq('b'));
      const startA = await feed.latestSeq('a');
      const counter = countBegins();
      const after: string[] = [];
      const now = new Date().toISOString();
      const jobs = Array.from({ length: 30 }, (_, i) => {
        const tenantId = i % 3 === 2 ? 'b' : 'a';
        return feed.grouped(tenantId, async (trx, record) => {
          await trx('tags').insert({ tenant_id: tenantId, id: `g${i}`, name: `g${i}`, data: '{}', created_at: now, updated_at: now });
          record({ collection: 'tags', id: `g${i}`, op: 'upsert' });
          afterCommit(trx, () => after.push(`g${i}`));
          return i;
        });
      });
      expect(await Promise.all(jobs)).toEqual(Array.from({ length: 30 }, (_, i) => i));
      counter.stop();
      await feed.idle();
      // Jobs queued in the same turn of the event loop (or behind a running commit) share transactions.
      expect(counter.begins).toBeLessThan(30 / 2);
      // No job failed: no group paid for a savepoint per job.
      expect(counter.savepoints).toBe(0);
      expect(after.sort()).toEqual(Array.from({ length: 30 }, (_, i) => `g${i}`).sort());
      expect((await tagIds('a', 'g')).length).toBe(20);
      expect((await tagIds('b', 'g')).length).toBe(10);
      const seqs = got.filter((e) => e.tenantId === 'a').map((e) => e.seq);
      expect(seqs).toEqual(Array.from({ length: 20 }, (_, i) => startA + 1 + i));
      // One delivery per commit, not per job.
      expect(batches.length).toBeLessThan(20);
      feed.close();
    });

    it('fails only the job that failed: its rows, changes and after-commit callbacks are gone, the others commit', async () => {
      const { feed, got } = feedWithLog();
      feed.track('a', await feed.latestSeq('a'));
      const after: string[] = [];
      const now = new Date().toISOString();
      const write = (id: string, fail: boolean) =>
        feed.grouped('a', async (trx, record) => {
          await trx('tags').insert({ tenant_id: 'a', id, name: id, data: '{}', created_at: now, updated_at: now });
          record({ collection: 'tags', id, op: 'upsert' });
          afterCommit(trx, () => after.push(id));
          if (fail) throw new Error(`falhou ${id}`);
          return id;
        });
      // Queued in one turn of the event loop, the six share one group: it runs once without
      // savepoints, is rolled back at f2's throw, and runs again with one savepoint per job.
      const settled = await Promise.allSettled([write('f0', false), write('f1', false), write('f2', true), write('f3', false), write('f4', true), write('f5', false)]);
      expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled']);
      expect((settled[2] as PromiseRejectedResult).reason.message).toBe('falhou f2');
      expect((settled[4] as PromiseRejectedResult).reason.message).toBe('falhou f4');
      await feed.idle();
      expect(await tagIds('a', 'f')).toEqual(['f0', 'f1', 'f3', 'f5']);
      expect(after.sort()).toEqual(['f0', 'f1', 'f3', 'f5']);
      expect(got.map((e) => e.id).sort()).toEqual(['f0', 'f1', 'f3', 'f5']);
      // A unique violation in one job (PostgreSQL aborts the statement) leaves the group usable.
      const dup = await Promise.allSettled([write('f6', false), write('f0', false), write('f7', false)]);
      expect(dup.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(await tagIds('a', 'f')).toEqual(['f0', 'f1', 'f3', 'f5', 'f6', 'f7']);
      feed.close();
    });

    it("runs a group's reader once before its jobs with every job's input; not for a lone job, nor in the rerun with savepoints", async () => {
      const { feed } = feedWithLog();
      const reads: Array<{ inputs: string[]; jobsRunBefore: number }> = [];
      let jobsRun = 0;
      const reader = async (_trx: unknown, inputs: string[]) => void reads.push({ inputs, jobsRunBefore: jobsRun });
      const job = (input: string, fail = false) =>
        feed.grouped('a', async () => {
          jobsRun++;
          if (fail) throw new Error(`falhou ${input}`);
          return input;
        }, { reader, input });
      expect(await job('sozinho')).toBe('sozinho');
      expect(reads).toEqual([]);
      expect(await Promise.all([job('r1'), job('r2'), feed.grouped('a', async () => 'sem leitura'), job('r3')])).toEqual(['r1', 'r2', 'sem leitura', 'r3']);
      expect(reads).toEqual([{ inputs: ['r1', 'r2', 'r3'], jobsRunBefore: 1 }]);
      // A failing job: the optimistic run read ahead; the rerun with savepoints does not.
      reads.length = 0;
      const settled = await Promise.allSettled([job('s1'), job('s2', true)]);
      expect(settled.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
      expect(reads.map((r) => r.inputs)).toEqual([['s1', 's2']]);
      feed.close();
    });
  });
});
