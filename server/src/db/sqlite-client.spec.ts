import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { createDb } from './knex';
import { cachedStatementCount, STATEMENT_CACHE_SIZE } from './sqlite-client';

let dir: string;
let db: Knex;
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sqlite-client-'));
  db = createDb({ databaseUrl: null, databaseSchema: null, sqliteFile: path.join(dir, 'db.sqlite') });
  await db.schema.createTable('t', (t) => {
    t.increments('id');
    t.string('name').unique();
    t.boolean('flag');
  });
});
afterAll(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const connection = () => db.client.acquireConnection().then(async (c: object) => {
  await db.client.releaseConnection(c);
  return c;
});

describe('better-sqlite3 client with a statement cache', () => {
  it('prepares one statement per query shape and answers as knex does (rows, insert ids, changes, returning, errors)', async () => {
    const before = cachedStatementCount(await connection());
    for (let i = 0; i < 5; i++) await db('t').insert({ name: `n${i}`, flag: i % 2 === 0 });
    expect(cachedStatementCount(await connection()) - before).toBe(1);
    expect(await db('t').where('name', 'n3').first('id', 'flag')).toEqual({ id: 4, flag: 0 });
    expect(await db('t').where('name', 'n4').first('id', 'flag')).toEqual({ id: 5, flag: 1 });
    expect(await db('t').where('flag', true).update({ flag: false })).toBe(3);
    expect(await db('t').insert({ name: 'n5' }).onConflict('name').ignore().returning('id')).toEqual([{ id: 6 }]);
    expect(await db('t').insert({ name: 'n5' }).onConflict('name').ignore().returning('id')).toEqual([]);
    await expect(db('t').insert({ name: 'n1' })).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_UNIQUE' });
    // The statement that failed is still usable.
    const [id] = await db('t').insert({ name: 'n7' });
    expect(await db('t').where('id', id).first('name')).toEqual({ name: 'n7' });
  });

  it('works inside transactions (same connection) and rolls back', async () => {
    await expect(
      db.transaction(async (trx) => {
        await trx('t').insert({ name: 'in-tx' });
        expect(await trx('t').where('name', 'in-tx').first('name')).toEqual({ name: 'in-tx' });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await db('t').where('name', 'in-tx').first()).toBeUndefined();
  });

  it('keeps at most STATEMENT_CACHE_SIZE shapes per connection', async () => {
    for (let i = 0; i < STATEMENT_CACHE_SIZE + 20; i++) await db('t').whereIn('id', Array.from({ length: i + 1 }, (_, k) => k)).first('id');
    expect(cachedStatementCount(await connection())).toBe(STATEMENT_CACHE_SIZE);
  });

  it('sees schema changes made after a statement was cached', async () => {
    await db('t').where('name', 'n0').first();
    await db.schema.alterTable('t', (t) => t.string('extra').nullable());
    await db('t').where('name', 'n0').update({ extra: 'x' });
    expect(await db('t').where('name', 'n0').first()).toMatchObject({ name: 'n0', extra: 'x' });
  });
});
