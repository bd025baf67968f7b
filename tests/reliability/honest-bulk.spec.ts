import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages as texts } from '@atendimento/schemas';
import { MULTIPART_TYPE, multipart } from '../helpers/multipart';
import { ManualClock } from '@atendimento/server';
import { startTestServer, type TestServer } from '../helpers/test-server';

/**
 * 50,005 rows answered `imported: 50000, failed: 0` and a
 * 1,000,000-row file dropped 950,000 rows with a 200. A file over the row limit is refused
 * whole with a pt-BR message; a PUT without a NOT NULL column answers a field error, not a
 * 500 from the database.
 */
let t: TestServer;
let admin: string;
beforeAll(async () => {
  t = await startTestServer();
  admin = await t.tokenFor('acme', 'acme-admin');
});
afterAll(() => t?.close());

function importTags(rows: number, prefix = 't', server = t, token = admin) {
  const lines = ['name;active'];
  for (let i = 0; i < rows; i++) lines.push(`${prefix}${i};sim`);
  const body = multipart({}, { name: 'tags.csv', type: 'text/csv', bytes: Buffer.from(lines.join('\n')) });
  return server.api('/api/tags/import', { method: 'POST', token, body, headers: { 'content-type': MULTIPART_TYPE } });
}

const countTags = async () => Number((await t.api('/api/tags?range=[0,0]', { token: admin })).headers['content-range']?.toString().split('/')[1]);

describe('imports over the row limit', () => {
  it('refuses 50,001 and 1,000,000 rows whole, saying why; imports nothing', async () => {
    for (const rows of [50_001, 1_000_000]) {
      const res = await importTags(rows);
      expect(res.status, `${rows}: ${res.text.slice(0, 200)}`).toBe(413);
      expect(res.body.errorMessage).toBe(texts.registers.importTooManyRows.replace('{max}', '50.000'));
    }
    expect(await countTags()).toBe(0);
  });

  it('imports a file within the limit and counts every row', async () => {
    const res = await importTags(1_200);
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.body.meta).toEqual({ hasErrors: false, imported: 1_200, failed: 0, total: 1_200 });
    expect(await countTags()).toBe(1_200);
  });
});

/**
 * A 50,000-row import blocked every other request for 3.5 s (health p50 1.2 s): big files
 * (over 5,000 rows) answer 202 with a job, run in chunks that yield to the event loop, and
 * report progress on GET /api/imports/:jobId.
 */
describe('a big import runs in the background', () => {
  const report = async (jobId: string, token = admin, server = t) => server.api(`/api/imports/${jobId}`, { token });

  it('answers 202 at once, serves other requests while it runs, reports progress and ends done with every row', async () => {
    const before = await countTags();
    const started = await importTags(50_000, 'grande-');
    expect(started.status, started.text.slice(0, 300)).toBe(202);
    expect(started.body.meta).toEqual({ jobId: expect.any(String), total: 50_000 });
    const jobId = started.body.meta.jobId as string;

    const seen: number[] = [];
    let answeredWhileRunning = 0;
    let last: { state: string; processed: number; total: number; imported: number; failed: number; errors: unknown[]; message?: string };
    for (;;) {
      // The cheapest route and one that needs the database (session check + list), during the import.
      const [health, list] = await Promise.all([t.api('/api/health/live'), t.api('/api/tags?range=[0,0]', { token: admin })]);
      expect(health.status).toBe(200);
      expect(list.status).toBe(200);
      const res = await report(jobId);
      expect(res.status, res.text).toBe(200);
      last = res.body.data;
      if (last.state !== 'running') break;
      answeredWhileRunning += 1;
      seen.push(last.processed);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(last).toMatchObject({ state: 'done', processed: 50_000, total: 50_000, imported: 50_000, failed: 0, errors: [], message: texts.registers.importDone.replace('{n}', '50000') });
    // Health and the list were answered before the import was done, and progress moved.
    expect(answeredWhileRunning).toBeGreaterThan(0);
    expect(seen.some((n) => n > 0 && n < 50_000) || new Set(seen).size > 1).toBe(true);
    expect(await countTags()).toBe(before + 50_000);
  }, 90_000);

  it("shows a job only to its tenant's caller who started it or an admin; unknown ids answer 404 in Portuguese", async () => {
    const unknown = await report('nao-existe');
    expect(unknown.status).toBe(404);
    expect(unknown.body.errorMessage).toBe(texts.registers.importJobNotFound);
    const started = await importTags(5_001, 'acesso-');
    expect(started.status, started.text.slice(0, 300)).toBe(202);
    const jobId = started.body.meta.jobId as string;
    const other = await report(jobId, await t.tokenFor('acme', 'acme-supervisor'));
    expect(other.status).toBe(404);
    expect(other.body.errorMessage).toBe(texts.registers.importJobNotFound);
    expect((await t.api(`/api/imports/${jobId}`, { token: await t.tokenFor('outra', 'outra-admin'), host: t.hosts.outra })).status).toBe(404);
    // Small files keep the synchronous answer (the 1,200-row test above); this one ends done.
    await expect.poll(async () => (await report(jobId)).body.data.state, { timeout: 30_000, interval: 100 }).toBe('done');
  }, 60_000);

  it('a database failure midway: PostgreSQL imports nothing; SQLite keeps the committed chunks and says exactly which lines', async () => {
    const before = await countTags();
    const repo = t.server.services.registers.repo;
    const insertMany = repo.insertMany;
    repo.insertMany = async (...args: Parameters<typeof insertMany>) => {
      if (args[2].some((r) => r.name === 'falha-5600')) throw new Error('disco cheio');
      return insertMany(...args);
    };
    try {
      const started = await importTags(6_000, 'falha-');
      expect(started.status, started.text.slice(0, 300)).toBe(202);
      const jobId = started.body.meta.jobId as string;
      await expect.poll(async () => (await report(jobId)).body.data.state, { timeout: 30_000, interval: 100 }).toBe('failed');
      const data = (await report(jobId)).body.data;
      // Chunks of 500 rows: data row 5600 (line 5602) is in the chunk of lines 5502 to 6001.
      const stopped = `A importação parou nas linhas 5502 a 6001 (${texts.errors.internal.replace(/\.$/, '')}).`;
      if (t.server.db.client.config.client === 'pg') {
        expect(data).toMatchObject({ state: 'failed', imported: 0, total: 6_000, errorMessage: `${stopped} Nenhum registro foi importado.` });
        expect(await countTags()).toBe(before);
      } else {
        expect(data).toMatchObject({ state: 'failed', imported: 5_500, processed: 5_500, total: 6_000 });
        expect(data.errorMessage).toBe(`${stopped} As linhas 2 a 5501 foram importadas, exceto as linhas com erro; as linhas a partir de 5502 não foram.`);
        expect(await countTags()).toBe(before + 5_500);
        expect((await t.api('/api/tags?filter={"q":"falha-5499"}', { token: admin })).body.map((r: { name: string }) => r.name)).toContain('falha-5499');
      }
    } finally {
      repo.insertMany = insertMany;
    }
  }, 60_000);

  it('forgets a job an hour after it ended', async () => {
    const clock = new ManualClock(new Date());
    const s = await startTestServer({ clock });
    try {
      const token = await s.tokenFor('acme', 'acme-admin');
      const started = await importTags(5_001, 'hora-', s, token);
      expect(started.status, started.text.slice(0, 300)).toBe(202);
      const jobId = started.body.meta.jobId as string;
      await expect.poll(async () => (await report(jobId, token, s)).body.data.state, { timeout: 30_000, interval: 100 }).toBe('done');
      clock.advance(59 * 60 * 1000);
      expect((await report(jobId, await s.tokenFor('acme', 'acme-admin'), s)).status).toBe(200);
      clock.advance(2 * 60 * 1000);
      expect((await report(jobId, await s.tokenFor('acme', 'acme-admin'), s)).status).toBe(404);
    } finally {
      await s.close();
    }
  }, 60_000);
});

describe('PUT without a NOT NULL column', () => {
  it('answers 400 with the field, not a 500', async () => {
    const created = await t.api('/api/contacts', { method: 'POST', token: admin, body: { displayName: 'Maria', channels: ['whatsapp'] } });
    expect(created.status, created.text).toBe(201);
    const { active: _active, ...withoutActive } = created.body;
    const res = await t.api(`/api/contacts/${created.body.id}`, { method: 'PUT', token: admin, body: withoutActive });
    expect(res.status, res.text).toBe(400);
    expect(res.body.fields).toContainEqual({ field: 'active', message: texts.validation.requiredField });
    // A PATCH keeps the stored value.
    expect((await t.api(`/api/contacts/${created.body.id}`, { method: 'PATCH', token: admin, body: { displayName: 'Maria Souza' } })).status).toBe(200);
  });
});
