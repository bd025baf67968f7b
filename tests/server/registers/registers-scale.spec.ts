import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/test-server';
import { isBackgroundSql } from '../../helpers/background-sql';
import { list } from './register-test-kit';

/**
 * A register of 100 000 contacts lists page by page with the same number of SQL statements
 * whatever the page size: no per-row queries, the total counted once.
 * Counts knex 'query' events during each request; no timing is asserted (that is `npm run bench`).
 */
const ROWS = 100_000;
let t: TestServer;
let admin: string;

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.tokenFor('acme', 'acme-admin');
  const { repo, registers } = t.server.services.registers;
  const table = registers.table('contacts');
  const now = t.server.clock.now();
  const created = now.toISOString();
  await t.server.db.transaction(async (trx) => {
    for (let start = 0; start < ROWS; start += 5000) {
      const batch = Array.from({ length: Math.min(5000, ROWS - start) }, (_, k) => {
        const n = start + k;
        return {
          id: `c${String(n).padStart(6, '0')}`,
          displayName: `Contato ${String(n).padStart(6, '0')}`,
          phone: `55119${String(n).padStart(8, '0')}`,
          email: `contato${n}@exemplo.com`,
          channels: ['whatsapp'],
          active: n % 10 !== 0,
          lifeControl: { createdAt: created, deletedAt: null },
        };
      });
      await repo.insertMany('acme', table, batch, now, trx);
    }
  });
}, 300_000);
afterAll(() => t?.close());

/** The statements one request runs, as SQL text. */
async function statementsOf(run: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const onQuery = (q: { sql: string }) => {
    if (!isBackgroundSql(q.sql)) seen.push(q.sql);
  };
  t.server.db.on('query', onQuery);
  try {
    await run();
  } finally {
    t.server.db.off('query', onQuery);
  }
  return seen;
}

describe('listing 100k contacts', () => {
  it('answers every page size with the same statements and the right Content-Range', async () => {
    const counts: Record<number, number> = {};
    for (const size of [10, 20]) {
      const statements = await statementsOf(async () => {
        const page = await list(t, admin, 'contacts', { sort: ['displayName', 'ASC'], range: [500, 500 + size - 1] });
        expect(page.status).toBe(200);
        expect(page.body).toHaveLength(size);
        expect(page.total).toBe(ROWS);
        expect(page.headers['content-range']).toBe(`contacts 500-${500 + size - 1}/${ROWS}`);
        expect(page.body[0].displayName).toBe('Contato 000500');
      });
      counts[size] = statements.filter((sql) => /contacts|rooms/.test(sql)).length;
      expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(8);
    }
    expect(counts[10]).toBe(counts[20]);
    // One page, one count, one lookup of active rooms for the page (phoneLocked).
    expect(counts[10]).toBeGreaterThanOrEqual(2);
    expect(counts[10]).toBeLessThanOrEqual(3);
  });

  it('keeps the count constant with a filter, a search and the last page', async () => {
    const counts: number[] = [];
    for (const size of [10, 20]) {
      const statements = await statementsOf(async () => {
        const page = await list(t, admin, 'contacts', { filter: { active: false, q: 'contato 0999' }, sort: ['displayName', 'DESC'], range: [0, size - 1] });
        expect(page.status).toBe(200);
        // Contato 099900..099990 step 10 are inactive: 10 of them.
        expect(page.total).toBe(10);
        expect(page.body[0].displayName).toBe('Contato 099990');
      });
      counts.push(statements.filter((sql) => /contacts|rooms/.test(sql)).length);
    }
    expect(counts[0]).toBe(counts[1]);

    const last = await list(t, admin, 'contacts', { sort: ['displayName', 'ASC'], range: [ROWS - 5, ROWS + 14] });
    expect(last.body.map((c: { displayName: string }) => c.displayName)).toEqual(['Contato 099995', 'Contato 099996', 'Contato 099997', 'Contato 099998', 'Contato 099999']);
  });

  it('pages the Mongo-style list with the same statements for limits 10 and 20', async () => {
    const counts: number[] = [];
    for (const limit of [10, 20]) {
      const statements = await statementsOf(async () => {
        const res = await t.api(`/api/mongodb/contacts?limit=${limit}&getTotal=true&orderBy=${encodeURIComponent(JSON.stringify([{ field: 'displayName', mod: 'asc' }]))}`, { token: admin });
        expect(res.status).toBe(200);
        expect(res.body.meta).toMatchObject({ collection: 'contacts', total: ROWS, last: String(limit) });
        expect(res.body.data).toHaveLength(limit);
      });
      counts.push(statements.filter((sql) => /contacts|rooms/.test(sql)).length);
    }
    expect(counts[0]).toBe(counts[1]);
  });
});
