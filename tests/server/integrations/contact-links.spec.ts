import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientKey, startLocalErp, type LocalErp } from '@atendimento/integrations/erp/index';
import { startTestServer, type TestServer } from '../../helpers/test-server';

/**
 * Contacts linked to ERP clients, prospects and salesmen (seed 000 §7) against the local ERP:
 * PATCH /api/contacts/{id}/push, PATCH /api/contacts by chat number, the links with the seed's
 * empty texts, clients by CPF/CNPJ, and 'Erro na Busca!' when the ERP fails.
 */
let t: TestServer;
let erp: LocalErp;
let admin: string;
let contactId: string;

beforeAll(async () => {
  t = await startTestServer();
  erp = await startLocalErp();
  admin = await t.tokenFor('acme', 'acme-admin');
  await t.patchAppConfig({ erp: { urls: [erp.url] } as never });
  const created = await t.api('/api/contacts', { method: 'POST', token: admin, body: { displayName: 'João Padeiro', phone: '5511987650001', channels: ['whatsapp'] } });
  expect(created.status).toBe(201);
  contactId = created.body.id;
});
afterAll(async () => {
  await erp?.close();
  await t?.close();
});

describe('contact ↔ ERP links', () => {
  it("starts empty with the seed's texts", async () => {
    const res = await t.api(`/api/contacts/${contactId}/links`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.data.empty).toEqual({ clients: 'Sem cliente vinculado', salesmen: 'Sem Representante vinculado' });
  });

  it('pushes clients that exist in the ERP and refuses unknown ones', async () => {
    const client = erp.tables.SA1[3]!;
    const key = clientKey(client as never);
    const unknown = await t.api(`/api/contacts/${contactId}/push`, { method: 'PATCH', token: admin, body: { clients: ['999999ZZ'] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errorMessage).toBe('Cliente não encontrado no ERP: 999999ZZ.');

    const pushed = await t.api(`/api/contacts/${contactId}/push`, { method: 'PATCH', token: admin, body: { clients: [key], prospects: ['P-1'] } });
    expect(pushed.status).toBe(200);
    expect(pushed.body.data).toMatchObject({ id: contactId, clients: [key], prospects: ['P-1'] });
    const links = await t.api(`/api/contacts/${contactId}/links`, { token: admin });
    expect(links.body.data.clients.map((c: { id: string }) => c.id)).toEqual([key]);
    expect(links.body.data.empty.clients).toBeNull();
    // The register sees the same contact.
    expect((await t.api(`/api/contacts/${contactId}`, { token: admin })).body.clients).toEqual([key]);
  });

  it('sets clients by chat number, and finds clients by CPF/CNPJ', async () => {
    const other = erp.tables.SA1[5]!;
    const key = clientKey(other as never);
    const res = await t.api('/api/contacts', { method: 'PATCH', token: admin, body: { phone: '5511987650001@c.us', clients: [key] } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: contactId, clients: [key] });

    const found = await t.api(`/api/erp/clients?cgc=${encodeURIComponent(String(other.A1_CGC))}`, { token: admin });
    expect(found.status).toBe(200);
    expect(found.body.data.clients.map((c: { id: string }) => c.id)).toContain(key);
    expect(found.body.data.text).toBe('Cliente vinculado a CPF/CNPJ');
    const none = await t.api('/api/erp/clients?cgc=00000000000', { token: admin });
    expect(none.body.data).toMatchObject({ clients: [], text: 'Sem cliente vinculado a CPF/CNPJ' });
  });

  it("answers 'Erro na Busca!' when the ERP fails, and needs the contacts permission", async () => {
    erp.failNext(500);
    const failed = await t.api(`/api/contacts/${contactId}/links`, { token: admin });
    expect(failed.status).toBe(502);
    expect(failed.body.errorMessage).toBe('Erro na Busca!');
    const agent = await t.tokenFor('acme', 'acme-suporte');
    expect((await t.api(`/api/contacts/${contactId}/push`, { method: 'PATCH', token: agent, body: { clients: ['x'] } })).status).toBe(403);
  });
});
