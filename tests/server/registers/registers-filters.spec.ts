import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/test-server';
import { isBackgroundSql } from '../../helpers/background-sql';
import { list } from './register-test-kit';

/**
 * Register filters (seed 000 §5, §7): only the register's whitelisted fields and operators,
 * and values always bound as parameters — a value with SQL in it is just data that matches
 * nothing. Checked on the answers and on the statements knex sends.
 */
let t: TestServer;
let admin: string;

const INJECTIONS = ["x' OR '1'='1", "'; DROP TABLE contacts; --", '" OR 1=1 --', "%' OR display_name LIKE '%", 'Ana) OR (1=1'];

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.tokenFor('acme', 'acme-admin');
  for (const name of ['Ana Lima', 'Bruno Costa', "D'Ávila Souza"]) {
    const res = await t.api('/api/contacts', { method: 'POST', token: admin, body: { displayName: name, channels: ['webchat'] } });
    expect(res.status).toBe(201);
  }
});
afterAll(() => t?.close());

/** The statements (SQL text and bindings) one call runs. */
async function statementsOf(run: () => Promise<unknown>): Promise<{ sql: string; bindings: unknown[] }[]> {
  const seen: { sql: string; bindings: unknown[] }[] = [];
  const onQuery = (q: { sql: string; bindings?: unknown[] }) => {
    if (!isBackgroundSql(q.sql)) seen.push({ sql: q.sql, bindings: q.bindings ?? [] });
  };
  t.server.db.on('query', onQuery);
  try {
    await run();
  } finally {
    t.server.db.off('query', onQuery);
  }
  return seen;
}

const mongo = (params: Record<string, unknown>) =>
  t.api(`/api/mongodb/contacts?${new URLSearchParams(Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])))}`, { token: admin });

describe('filter values are data, never SQL', () => {
  it('matches nothing for SQL in a field filter, the search box or a Mongo-style filter, and binds the value', async () => {
    for (const value of INJECTIONS) {
      const statements = await statementsOf(async () => {
        const byField = await list(t, admin, 'contacts', { filter: { displayName: value } });
        expect(byField.status, value).toBe(200);
        expect(byField.total, value).toBe(0);
        const bySearch = await list(t, admin, 'contacts', { filter: { q: value } });
        expect(bySearch.status, value).toBe(200);
        expect(bySearch.total, value).toBe(0);
        const byMongo = await mongo({ filters: [{ key: 'displayName', operator: '==', value }], getTotal: 'true' });
        expect(byMongo.status, value).toBe(200);
        expect(byMongo.body.meta.total, value).toBe(0);
      });
      const onContacts = statements.filter((s) => s.sql.includes('contacts'));
      expect(onContacts.length).toBeGreaterThan(0);
      for (const s of onContacts) {
        expect(s.sql, value).not.toContain(value);
        expect(s.sql, value).not.toMatch(/DROP TABLE|OR '1'='1|OR 1=1/i);
      }
      // The field filter's value travels whole, as a binding.
      expect(onContacts.some((s) => s.bindings.includes(value)), value).toBe(true);
    }
    // Nothing was dropped or widened: the three contacts are still there and found normally.
    expect((await list(t, admin, 'contacts')).total).toBe(3);
    // Case-insensitive for accented capitals too (SQLite's own lower() folds ASCII only).
    for (const q of ["d'ávila", 'ÁVILA', 'ávila souza']) {
      expect((await list(t, admin, 'contacts', { filter: { q } })).body.map((c: { displayName: string }) => c.displayName), q).toEqual(["D'Ávila Souza"]);
    }
    expect((await list(t, admin, 'contacts', { filter: { displayName: 'Ana Lima' } })).total).toBe(1);
  });

  it('refuses fields, operators and sort keys outside the whitelist with 400, running nothing on the table', async () => {
    const cases: [string, () => Promise<{ status: number; body: any }>][] = [
      ['unknown field', () => list(t, admin, 'contacts', { filter: { 'display_name = display_name OR 1': 'x' } })],
      ['column name instead of field', () => list(t, admin, 'contacts', { filter: { tenant_id: 'outra' } })],
      ['json path', () => list(t, admin, 'contacts', { filter: { "data->>'$.x'": 'x' } })],
      ['sort injection', () => list(t, admin, 'contacts', { sort: ['displayName; DROP TABLE contacts', 'ASC'] })],
      ['mongo key', () => mongo({ filters: [{ key: '1=1 OR displayName', operator: '==', value: 'x' }] })],
      ['mongo operator', () => mongo({ filters: [{ key: 'displayName', operator: '= x OR 1=1 --', value: 'x' }] })],
      ['mongo orderBy', () => mongo({ orderBy: [{ field: '(select 1)', mod: 'asc' }] })],
      ['mongo orFilters key', () => mongo({ orFilters: [{ key: 'id', operator: '==', value: 'a' }, { key: 'senha', operator: '==', value: 'x' }] })],
    ];
    for (const [what, call] of cases) {
      let res: { status: number; body: any } | undefined;
      const statements = await statementsOf(async () => {
        res = await call();
      });
      expect(res!.status, what).toBe(400);
      expect(res!.body.errorMessage, what).toBeTruthy();
      expect(statements.filter((s) => /\bcontacts\b/.test(s.sql)), what).toEqual([]);
    }
  });

  it('refuses filters with an empty key, operator or value and runs no query (seed 000 §5)', async () => {
    for (const filters of [[{ key: '', operator: '==', value: 'x' }], [{ key: 'displayName', operator: '', value: 'x' }], [{ key: 'displayName', operator: '==', value: '' }], [{ key: 'displayName', operator: '==' }]]) {
      const statements = await statementsOf(async () => {
        const res = await mongo({ filters });
        expect(res.status).toBe(400);
        expect(res.body.errorMessage).toBe('Filtro inválido: informe campo, operador e valor.');
      });
      expect(statements.filter((s) => /\bcontacts\b/.test(s.sql))).toEqual([]);
    }
  });

  it("never reaches another tenant's rows, whatever the filter", async () => {
    const outra = await t.tokenFor('outra', 'outra-admin');
    const theirs = await t.api('/api/contacts', { method: 'POST', token: outra, host: t.hosts.outra, body: { displayName: 'Segredo Outra', channels: ['webchat'] } });
    expect(theirs.status).toBe(201);
    for (const filter of [{ id: theirs.body.id }, { id: [theirs.body.id] }, { q: 'segredo' }, { displayName: 'Segredo Outra' }]) {
      const res = await list(t, admin, 'contacts', { filter });
      expect(res.status).toBe(200);
      expect(res.total).toBe(0);
    }
    expect((await t.api(`/api/contacts/${theirs.body.id}`, { token: admin })).status).toBe(404);
  });
});
