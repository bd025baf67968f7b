import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { createDb, dialectOf } from './knex';
import { listArg, prepared, preparedAll, whereOneOf } from './prepared';

/**
 * Hot statements compiled once by knex and run on the transaction's connection: the same
 * answers as knex for each shape, values bound per call, constants kept, the knex `query`
 * event still fired. SQLite always; PostgreSQL too with DATABASE_URL (a schema of its own).
 */
const dir = mkdtempSync(path.join(os.tmpdir(), 'prepared-'));
const schema = `t_${randomBytes(5).toString('hex')}`;
const targets: Array<{ name: string; db: Knex }> = [
  { name: 'SQLite', db: createDb({ databaseUrl: null, databaseSchema: null, sqliteFile: path.join(dir, 'db.sqlite') }) },
  ...(process.env.DATABASE_URL ? [{ name: 'PostgreSQL', db: createDb({ databaseUrl: process.env.DATABASE_URL, databaseSchema: schema, sqliteFile: '' }) }] : []),
];

beforeAll(async () => {
  for (const { db } of targets) {
    if (dialectOf(db) === 'pg') await db.raw('create schema if not exists ??', [schema]);
    await db.schema.createTable('items', (t) => {
      t.string('tenant_id').notNullable();
      t.string('id').notNullable();
      t.string('name');
      t.boolean('flag');
      t.integer('n');
      t.primary(['tenant_id', 'id']);
    });
  }
});
afterAll(async () => {
  for (const { db } of targets) {
    if (dialectOf(db) === 'pg') await db.raw('drop schema if exists ?? cascade', [schema]);
    await db.destroy();
  }
  rmSync(dir, { recursive: true, force: true });
});

const insert = (trx: Knex.Transaction, tenantId: string, id: string, name: string | undefined, flag: boolean) =>
  prepared(trx, 'items.insert', [tenantId, id, name, flag], (k, [t, i, n, f]) =>
    k('items').insert({ tenant_id: t!, id: i!, name: n!, flag: f!, n: 7 }).onConflict(['tenant_id', 'id']).ignore().returning('id'));

const byId = (trx: Knex.Transaction, tenantId: string, id: string) =>
  prepared<{ id: string; name: string | null; flag: boolean | number; n: number }>(trx, 'items.byId', [tenantId, id], (k, [t, i]) =>
    k('items').where({ tenant_id: t!, id: i! }).first('id', 'name', 'flag', 'n'));

describe.each(targets)('prepared statements on $name', ({ db }) => {
  it('binds each call\'s values into the shape compiled once, keeps its constants, and answers rows and counts', async () => {
    const seen: string[] = [];
    const onQuery = (q: { sql: string }) => seen.push(q.sql);
    db.on('query', onQuery);
    try {
      await db.transaction(async (trx) => {
        expect((await insert(trx, 'a', 'x1', 'Ana', true)).rows).toEqual([{ id: 'x1' }]);
        expect((await insert(trx, 'a', 'x2', undefined, false)).rows).toEqual([{ id: 'x2' }]);
        // The conflict is ignored: nothing returned, nothing changed.
        expect((await insert(trx, 'a', 'x1', 'Outra', false)).rows).toEqual([]);
        const first = (await byId(trx, 'a', 'x1')).rows[0]!;
        expect([first.id, first.name, Boolean(first.flag), first.n]).toEqual(['x1', 'Ana', true, 7]);
        const second = (await byId(trx, 'a', 'x2')).rows[0]!;
        expect([second.name, Boolean(second.flag)]).toEqual([null, false]);
        // Another tenant's key finds nothing.
        expect((await byId(trx, 'b', 'x1')).rows).toEqual([]);
        const updated = await prepared(trx, 'items.rename', ['a', 'Bia'], (k, [t, n]) => k('items').where({ tenant_id: t! }).update({ name: n! }));
        expect(updated.count).toBe(2);
      });
    } finally {
      db.off('query', onQuery);
    }
    expect(await db('items').where({ tenant_id: 'a' }).orderBy('id').pluck('name')).toEqual(['Bia', 'Bia']);
    // Every run shows as a statement, with the text compiled once.
    expect(seen.filter((sql) => /insert into [`"]items[`"]/i.test(sql))).toHaveLength(3);
    expect(new Set(seen.filter((sql) => /insert into [`"]items[`"]/i.test(sql))).size).toBe(1);
  });

  it('rolls back with the transaction and refuses a value that would land in the SQL text', async () => {
    await expect(db.transaction(async (trx) => {
      await insert(trx, 'r', 'gone', 'Nada', true);
      throw new Error('rollback');
    })).rejects.toThrow('rollback');
    expect(await db('items').where({ tenant_id: 'r' })).toEqual([]);
    await expect(db.transaction((trx) => prepared(trx, 'items.badShape', ['items'], (k, [table]) => k(table!).select('id'))))
      .rejects.toThrow(/prepared\(items\.badShape\): a marker ended up in the SQL text/);
  });

  it('preparedAll: the same rows for a list of any length, prepared once inside a transaction and built by knex outside one', async () => {
    await db.transaction(async (trx) => {
      for (const id of ['l1', 'l2', 'l3']) await insert(trx, 'list', id, `Item ${id}`, true);
    });
    const named = (q: Knex | Knex.Transaction, ids: string[]) =>
      preparedAll<{ id: string; name: string }>(q, 'items.named', ['list', listArg(q, ids)], (k, [t, l]) =>
        whereOneOf(k('items').where('tenant_id', t as string), k, 'id', l as string).orderBy('id').select('id', 'name'));
    const seen: string[] = [];
    const onQuery = (q: { sql: string }) => seen.push(q.sql);
    db.on('query', onQuery);
    try {
      const inside = await db.transaction(async (trx) => [await named(trx, ['l3', 'l1']), await named(trx, ['l2']), await named(trx, ['l1', 'l2', 'l3', 'nenhum'])]);
      const outside = [await named(db, ['l3', 'l1']), await named(db, ['l2']), await named(db, ['l1', 'l2', 'l3', 'nenhum'])];
      const expected = [['l1', 'l3'], ['l2'], ['l1', 'l2', 'l3']];
      expect(inside.map((rows) => rows.map((r) => r.id))).toEqual(expected);
      expect(outside.map((rows) => rows.map((r) => r.id))).toEqual(expected);
      expect(inside[1]![0]!.name).toBe('Item l2');
    } finally {
      db.off('query', onQuery);
    }
    // One statement text whatever the list's length.
    expect(new Set(seen.filter((sql) => /from [`"]items[`"]/i.test(sql))).size).toBe(1);
  });
});
