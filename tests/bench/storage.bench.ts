import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import sqlite3 from 'sqlite3';
import { createDb, migrate } from '@atendimento/server/db/knex';
import { toJson } from '@atendimento/server/db/knex';
import type { BenchLine } from './report';

const SCHEMA = 'create table t (id integer primary key, tenant_id text, external_id text, body text, created_at text)';

function openBetter(file: string) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(SCHEMA);
  return db;
}

function openSqlite3(file: string): Promise<sqlite3.Database> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file, (err) => {
      if (err) return reject(err);
      db.serialize(() => {
        db.run('pragma journal_mode = WAL');
        db.run('pragma synchronous = NORMAL');
        db.run(SCHEMA, (e) => (e ? reject(e) : resolve(db)));
      });
    });
  });
}

const run = (db: sqlite3.Database | sqlite3.Statement, sql: string | unknown[], params: unknown[] = []) =>
  new Promise<void>((resolve, reject) => {
    if (typeof sql === 'string') (db as sqlite3.Database).run(sql, params, (e) => (e ? reject(e) : resolve()));
    else (db as sqlite3.Statement).run(sql, (e: Error | null) => (e ? reject(e) : resolve()));
  });

/** Runs `fn` repeatedly for `ms` and answers operations per second. */
async function rate(ms: number, fn: (i: number) => Promise<void> | void): Promise<number> {
  const start = performance.now();
  let i = 0;
  while (performance.now() - start < ms) {
    await fn(i++);
  }
  return (i / (performance.now() - start)) * 1000;
}

/** B3: better-sqlite3 vs sqlite3; B4: Knex vs a raw prepared statement on the ingest insert. */
export async function storageBench(seconds: number): Promise<BenchLine[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-storage-'));
  const ms = seconds * 1000;
  const row = (i: number) => ['acme', `wamid.${i}`, 'Olá, tudo bem? '.repeat(4), new Date().toISOString()];
  try {
    const better = openBetter(path.join(dir, 'better.sqlite'));
    const insert = better.prepare('insert into t (tenant_id, external_id, body, created_at) values (?, ?, ?, ?)');
    const betterSingle = await rate(ms, (i) => void insert.run(...row(i)));
    const batch = better.transaction((base: number) => {
      for (let k = 0; k < 100; k++) insert.run(...row(base + k));
    });
    const betterBatch = await rate(ms, (i) => batch(i * 100));
    better.close();

    const async = await openSqlite3(path.join(dir, 'async.sqlite'));
    const single = await rate(ms, (i) => run(async, 'insert into t (tenant_id, external_id, body, created_at) values (?, ?, ?, ?)', row(i)));
    const asyncBatch = await rate(ms, async (i) => {
      await run(async, 'begin');
      const stmt = async.prepare('insert into t (tenant_id, external_id, body, created_at) values (?, ?, ?, ?)');
      for (let k = 0; k < 100; k++) await run(stmt, row(i * 100 + k));
      await new Promise<void>((r) => stmt.finalize(() => r()));
      await run(async, 'commit');
    });
    await new Promise<void>((r) => async.close(() => r()));

    // B4: the ingest insert (messages row) through Knex vs a raw prepared statement, same driver.
    const knex = createDb({ databaseUrl: null, databaseSchema: null, sqliteFile: path.join(dir, 'knex.sqlite') });
    await migrate(knex);
    const now = new Date().toISOString();
    await knex('tenants').insert({ id: 'acme', name: 'Acme', active: true, app_config: '{}', created_at: now, updated_at: now });
    await knex('rooms').insert({ id: 'r1', tenant_id: 'acme', data: '{}', created_at: now, updated_at: now, room_inc: 1, chat_id: '5511', channel: 'meta', public_token: 'p1' });
    const message = (i: number, via: string) => ({
      id: `${via}${i}`, tenant_id: 'acme', room_id: 'r1', channel_id: 'ch', external_id: `${via}.${i}`, author_type: 'client', author_id: 'c1',
      type: 'text', status: null, data: toJson({ text: 'Olá, tudo bem?', type: 'text' }), created_at: now, updated_at: now,
    });
    const knexRate = await rate(ms, (i) => knex('messages').insert(message(i, 'k')).onConflict(['tenant_id', 'channel_id', 'external_id']).ignore().then(() => undefined));
    await knex.destroy();
    const raw = new Database(path.join(dir, 'knex.sqlite'));
    raw.pragma('journal_mode = WAL');
    raw.pragma('synchronous = NORMAL');
    const stmt = raw.prepare(
      'insert into messages (id, tenant_id, room_id, channel_id, external_id, author_type, author_id, type, status, data, created_at, updated_at) values (@id, @tenant_id, @room_id, @channel_id, @external_id, @author_type, @author_id, @type, @status, @data, @created_at, @updated_at) on conflict (tenant_id, channel_id, external_id) do nothing',
    );
    const rawRate = await rate(ms, (i) => void stmt.run(message(i, 'r')));
    raw.close();

    return [
      { id: 'B3a', name: 'single-row commits, better-sqlite3', value: betterSingle, unit: 'commits/s', baselineName: 'sqlite3', baseline: single, ratio: betterSingle / single, target: '>= 3x', met: betterSingle / single >= 3 },
      { id: 'B3b', name: '100-row transactions, better-sqlite3', value: betterBatch, unit: 'tx/s', baselineName: 'sqlite3', baseline: asyncBatch, ratio: betterBatch / asyncBatch, target: '>= 3x', met: betterBatch / asyncBatch >= 3 },
      { id: 'B4', name: 'ingest insert through Knex', value: knexRate, unit: 'rows/s', baselineName: 'raw prepared', baseline: rawRate, ratio: rawRate / knexRate, target: '<= 2x slower', met: rawRate / knexRate <= 2, note: 'ratio = raw / Knex (how many times slower Knex is)' },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
