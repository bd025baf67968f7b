import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages as texts } from '@atendimento/schemas';
import { MULTIPART_TYPE, multipart } from '../helpers/multipart';
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

function importTags(rows: number) {
  const lines = ['name;active'];
  for (let i = 0; i < rows; i++) lines.push(`t${i};sim`);
  const body = multipart({}, { name: 'tags.csv', type: 'text/csv', bytes: Buffer.from(lines.join('\n')) });
  return t.api('/api/tags/import', { method: 'POST', token: admin, body, headers: { 'content-type': MULTIPART_TYPE } });
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
