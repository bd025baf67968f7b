import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@atendimento/schemas';
import { startTestServer, type TestServer } from '../../helpers/test-server';
import { MULTIPART_TYPE, multipart } from '../../helpers/multipart';
import { list, setTenantClaims, userWith } from './register-test-kit';

/**
 * Register rules of the issue beyond plain CRUD (seed 000 §3, §5, §6): negotiations seen by a
 * non-admin only through their participant, QR code images really generated for meta
 * channels only, 'Enviar Login' e-mailing the sign-in link, and exports e-mailed through the
 * real SMTP path with the seed's period, type and timezone rules.
 */
let t: TestServer;
let admin: string;

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.tokenFor('acme', 'acme-admin');
  await setTenantClaims(t, { negotiations: true, participants: true, metaChannel: true });
});
afterAll(() => t?.close());

describe('negotiations (seed 000 §6)', () => {
  it('shows a non-admin only negotiations listing their participant, unless enableAllNegotiations', async () => {
    const participant = await t.api('/api/participants', { method: 'POST', token: admin, body: { displayName: 'Revenda Agente', agentId: 'acme-agente' } });
    expect(participant.status).toBe(201);
    const other = await t.api('/api/participants', { method: 'POST', token: admin, body: { displayName: 'Revenda Outra', agentId: 'acme-suporte' } });
    const mine = await t.api('/api/negotiations', { method: 'POST', token: admin, body: { displayName: 'Negociação Minha', participantIds: [participant.body.id] } });
    const theirs = await t.api('/api/negotiations', { method: 'POST', token: admin, body: { displayName: 'Negociação Deles', participantIds: [other.body.id] } });
    await t.api('/api/negotiations', { method: 'POST', token: admin, body: { displayName: 'Negociação Sem Participante' } });
    expect([mine.status, theirs.status]).toEqual([201, 201]);

    const agent = await t.tokenFor('acme', 'acme-agente');
    const seen = await list(t, agent, 'negotiations');
    expect(seen.status).toBe(200);
    expect(seen.body.map((n: { displayName: string }) => n.displayName)).toEqual(['Negociação Minha']);
    expect(seen.total).toBe(1);
    expect((await t.api(`/api/negotiations/${theirs.body.id}`, { token: agent })).status).toBe(404);
    const count = await t.api('/api/mongodb/negotiations/count', { token: agent });
    expect(count.body.count).toBe(1);

    // A user without any participant sees none; the claim lifts the rule; admins see all.
    expect((await list(t, await t.tokenFor('acme', 'acme-supervisor'), 'negotiations')).total).toBe(0);
    const all = await userWith(t, 'todas-negociacoes', { enableAllNegotiations: true });
    expect((await list(t, all, 'negotiations')).total).toBe(3);
    expect((await list(t, admin, 'negotiations')).total).toBe(3);
  });
});

describe('dm_qrcodes (seed 000 §3, §5)', () => {
  async function channel(id: string, type: string, phoneNumber: string) {
    const now = new Date().toISOString();
    await t.server.db('channels').insert({ id, tenant_id: 'acme', type, display_name: `Canal ${id}`, active: true, data: JSON.stringify({ phoneNumber }), created_at: now, updated_at: now, deleted_at: null });
  }

  it('generates a real PNG or SVG for a meta channel and refuses other channels', async () => {
    await channel('meta-1', 'meta', '+55 11 98888-7777');
    await channel('zapi-1', 'zapi', '5511977776666');
    const refused = await t.api('/api/dm_qrcodes', { method: 'POST', token: admin, body: { prefilled_message: 'Olá, quero ajuda', generate_qr_image: 'PNG', channelId: 'zapi-1' } });
    expect(refused.status).toBe(400);
    expect(refused.body.fields).toEqual([{ field: 'channelId', message: 'Informe um canal' }]);
    const noType = await t.api('/api/dm_qrcodes', { method: 'POST', token: admin, body: { prefilled_message: 'Olá', channelId: 'meta-1' } });
    expect(noType.body.fields).toEqual([{ field: 'generate_qr_image', message: 'Informe um tipo' }]);

    const png = await t.api('/api/dm_qrcodes', { method: 'POST', token: admin, body: { prefilled_message: 'Olá, quero ajuda', generate_qr_image: 'PNG', channelId: 'meta-1' } });
    expect(png.status).toBe(201);
    expect(png.body.phoneNumber).toBe('+55 11 98888-7777');
    expect(png.body.qr_image_url).toMatch(/^\/api\/files\/acme\/.+\.png$/);
    const image = await fetch(`${t.baseUrl}${png.body.qr_image_url}`, { headers: { authorization: `Bearer ${admin}` } });
    expect(image.status).toBe(200);
    const bytes = Buffer.from(await image.arrayBuffer());
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(bytes.length).toBeGreaterThan(500);

    const svg = await t.api(`/api/dm_qrcodes/${png.body.id}`, { method: 'PATCH', token: admin, body: { generate_qr_image: 'SVG' } });
    expect(svg.status).toBe(200);
    expect(svg.body.qr_image_url).toMatch(/\.svg$/);
    const text = await (await fetch(`${t.baseUrl}${svg.body.qr_image_url}`, { headers: { authorization: `Bearer ${admin}` } })).text();
    expect(text).toMatch(/<svg[\s\S]*<path/);
  });
});

describe("agents' 'Enviar Login'", () => {
  it('e-mails the agent a sign-in link', async () => {
    t.smtp.inbox.length = 0;
    const res = await t.api('/api/agents/acme-suporte/sendLogin', { method: 'POST', token: admin });
    expect(res.status).toBe(200);
    expect(res.body.data.message).toBeTruthy();
    const mail = await t.smtp.waitFor('suporte@acme.test');
    expect(mail.text).toMatch(/https?:\/\/\S+/);
    // Only for agents the caller may manage: a plain agent is refused.
    expect((await t.api('/api/agents/acme-suporte/sendLogin', { method: 'POST', token: await t.tokenFor('acme', 'acme-agente') })).status).toBe(403);
  });
});

describe('the tenant keeps an admin', () => {
  it("refuses an admin's own deletion, and the last active admin's demotion, deactivation or deletion", async () => {
    const self = await t.api('/api/agents/acme-admin', { method: 'DELETE', token: admin });
    expect(self.status, self.text).toBe(403);
    expect(self.body).toEqual({ error: 'self_delete', errorMessage: messages.auth.selfDelete });
    for (const body of [{ claims: {} }, { claims: { admin: false } }, { active: false }]) {
      const res = await t.api('/api/agents/acme-admin', { method: 'PATCH', token: admin, body });
      expect(res.status, JSON.stringify(body)).toBe(409);
      expect(res.body).toEqual({ error: 'last_admin', errorMessage: messages.auth.lastAdmin });
    }
    // Still an admin who can sign in and work.
    expect((await t.api('/api/agents/acme-admin', { token: admin })).body.claims.admin).toBe(true);
    // With a second admin, the first may step down.
    const other = await t.api('/api/agents/acme-suporte', { method: 'PATCH', token: admin, body: { claims: { admin: true } } });
    expect(other.status, other.text).toBe(200);
    const suporte = await t.tokenFor('acme', 'acme-suporte');
    const stepDown = await t.api('/api/agents/acme-admin', { method: 'PATCH', token: admin, body: { claims: {} } });
    expect(stepDown.status, stepDown.text).toBe(200);
    // acme-suporte is now the only admin: deleting it (by itself) is refused, demoting it too.
    expect((await t.api('/api/agents/acme-suporte', { method: 'DELETE', token: suporte })).status).toBe(403);
    expect((await t.api('/api/agents/acme-suporte', { method: 'PATCH', token: suporte, body: { claims: {} } })).status).toBe(409);
    // Back as it was for the other tests.
    expect((await t.api('/api/agents/acme-admin', { method: 'PATCH', token: suporte, body: { claims: { admin: true } } })).status).toBe(200);
    expect((await t.api('/api/agents/acme-suporte', { method: 'PATCH', token: await t.tokenFor('acme', 'acme-admin'), body: { claims: {} } })).status).toBe(200);
  });
});

describe('tags', () => {
  it('a name is used once per tenant, case and spacing aside; the tag itself keeps it; a deleted one frees it', async () => {
    const first = await t.api('/api/tags', { method: 'POST', token: admin, body: { name: 'Cliente VIP', color: '#1976D2FF' } });
    expect(first.status, first.text).toBe(201);
    for (const name of ['Cliente VIP', ' cliente  vip ']) {
      const again = await t.api('/api/tags', { method: 'POST', token: admin, body: { name, color: '#1976D2FF' } });
      expect(again.status, name).toBe(409);
      expect(again.body).toEqual({ error: 'tag_name_in_use', errorMessage: messages.registers.tagNameInUse });
    }
    const id = first.body.id as string;
    expect((await t.api(`/api/tags/${id}`, { method: 'PATCH', token: admin, body: { name: 'Cliente VIP', color: '#FF0000FF' } })).status).toBe(200);
    // Another tenant has its own names.
    expect((await t.api('/api/tags', { method: 'POST', token: await t.tokenFor('outra', 'outra-admin'), host: t.hosts.outra, body: { name: 'Cliente VIP' } })).status).toBe(201);
    // An import is checked too (in bulk): a name already in use, or twice in the file, imports nothing of it.
    const importing = (names: string[]) =>
      t.api('/api/tags/import', { method: 'POST', token: admin, headers: { 'content-type': MULTIPART_TYPE }, body: multipart({}, { name: 'tags.csv', type: 'text/csv', bytes: Buffer.from(['name;active', ...names.map((n) => `${n};sim`)].join('\n')) }) });
    for (const names of [['Atacado', 'cliente vip'], ['Varejo', 'Varejo']]) {
      const res = await importing(names);
      expect(res.body.meta?.imported ?? 0, `${names}: ${res.text.slice(0, 300)}`).toBe(0);
    }
    expect((await t.api('/api/tags?filter={"q":"Atacado"}', { token: admin })).body).toEqual([]);
    expect((await importing(['Atacado', 'Varejo'])).body.meta).toMatchObject({ imported: 2, failed: 0 });
    expect((await t.api(`/api/tags/${id}`, { method: 'DELETE', token: admin })).status).toBe(200);
    expect((await t.api('/api/tags', { method: 'POST', token: admin, body: { name: 'Cliente VIP' } })).status).toBe(201);
  });
});

describe('POST /api/{collection}/fileToMail', () => {
  const today = () => new Date().toISOString().slice(0, 10);

  it('answers the seed messages for the period, file type and timezone', async () => {
    const bad = await t.api('/api/contacts/fileToMail', { method: 'POST', token: admin, body: {} });
    expect(bad.status).toBe(400);
    const fields = Object.fromEntries(bad.body.fields.map((f: { field: string; message: string }) => [f.field, f.message]));
    expect(fields).toMatchObject({ type: 'Selecione o tipo do arquivo', timezone: 'Selecione o fuso horário' });
    const long = await t.api('/api/contacts/fileToMail', { method: 'POST', token: admin, body: { type: 'csv', timezone: 'utc', period: '2026-01-01~2026-06-01' } });
    expect(long.status).toBe(400);
    expect(long.body.fields).toEqual([{ field: 'period', message: 'Selecione o período (até 90 dias)' }]);
  });

  it("sends the export as an attachment through the SMTP path and answers 'Exportação solicitada!'", async () => {
    await t.api('/api/contacts', { method: 'POST', token: admin, body: { displayName: 'Exportado Por Email', channels: ['webchat'] } });
    t.smtp.inbox.length = 0;
    // A reversed range is swapped (seed 000 §5).
    const tenDaysAgo = new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10);
    const res = await t.api('/api/contacts/fileToMail', { method: 'POST', token: admin, body: { type: 'csv', timezone: 'utc', period: `${today()}~${tenDaysAgo}` } });
    expect(res.status).toBe(202);
    expect(res.body.data.message).toBe('Exportação solicitada!');
    const mail = await t.smtp.waitFor('admin@acme.test');
    expect(mail.subject).toBe('Exportação: Contatos');
    expect(mail.raw).toMatch(/filename="?[^"\r\n]+\.csv/);
  });
});
