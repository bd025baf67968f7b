import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalErp, type LocalErp } from '@atendimento/integrations/erp/index';
import { startTestServer, type TestServer } from '../../helpers/test-server';

/**
 * findByChatId (seed 000 §3 "findByChatId with its query and order", docs/integrations.md): the
 * items of an integration that belong to one chat — from the ERP with the integration's query
 * and order, or from its local records — for the contact panel's "Integrações" block.
 */
let t: TestServer;
let erp: LocalErp;
let admin: string;
let agent: string;
let support: string;

const SCHEMA = {
  type: 'object',
  required: ['pedido'],
  properties: {
    pedido: { type: 'string', title: 'Pedido' },
    telefone: { type: 'string', title: 'Telefone' },
    valor: { type: 'number', title: 'Valor' },
  },
};

async function define(body: Record<string, unknown>) {
  const res = await t.api('/api/integrations', { method: 'POST', token: admin, body: { active: true, menu: true, order: 1, vjsfSchemaMaster: SCHEMA, ...body } });
  expect(res.status).toBe(201);
  return res.body;
}

beforeAll(async () => {
  t = await startTestServer();
  erp = await startLocalErp();
  admin = await t.tokenFor('acme', 'acme-admin');
  agent = await t.tokenFor('acme', 'acme-agente');
  support = await t.tokenFor('acme', 'acme-suporte');
  await t.patchAppConfig({ erp: { urls: [erp.url], timeoutMs: 3_000 } as never });

  await define({ name: 'Pedidos do chat', register: 'pedidoschat', collection: 'pedidoschat', noItems: 'Sem pedidos para este chat', report: true, findByChatId: { active: true, field: 'telefone', order: 'valor' } });
  for (const [pedido, telefone, valor] of [['P-1', '5511999990001', 300], ['P-2', '5511999990001', 100], ['P-3', '5511999990002', 50]] as const) {
    expect((await t.api('/api/integration/pedidoschat', { method: 'POST', token: admin, body: { pedido, telefone, valor } })).status).toBe(201);
  }
  await define({ name: 'Clientes ERP', register: 'clienteserp', collection: 'clienteserp', listTitle: 'Clientes', findByChatId: { active: true, query: 'SELECT A1_COD, A1_NOME, A1_TEL FROM SA1010 WHERE A1_TEL = :CHATID', order: 'A1_COD DESC' }, vjsfSchemaMaster: { type: 'object', properties: { A1_NOME: { type: 'string' } } } });
  await define({ name: 'Sem busca', register: 'sembusca', collection: 'sembusca' });
  await define({ name: 'Só suporte', register: 'sosuporte', collection: 'sosuporte', departments: ['suporte'], findByChatId: { active: true, field: 'telefone' } });
});
afterAll(async () => {
  await erp?.close();
  await t?.close();
});

describe('findByChatId', () => {
  it("flags report integrations in the caller's definitions (the drawer's 'Rel. {title}' buttons)", async () => {
    const res = await t.api('/api/integration-definitions', { token: agent });
    const report = Object.fromEntries((res.body.data as { collection: string; report: boolean }[]).map((i) => [i.collection, i.report]));
    expect(report).toMatchObject({ pedidoschat: true, clienteserp: false });
  });

  it('finds local records by the chat field, ordered by the configured order, with the noItems text', async () => {
    const res = await t.api('/api/integration/pedidoschat/by-chat/5511999990001', { token: agent });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ collection: 'pedidoschat', title: 'Pedidos do chat', noItems: 'Sem pedidos para este chat', source: 'local', total: 2, titleField: 'pedido', linkField: 'telefone' });
    // The schema's titles, so the drawer's item line reads 'Valor: 300', not 'valor: 300'.
    expect(res.body.data.labels).toEqual({ pedido: 'Pedido', telefone: 'Telefone', valor: 'Valor' });
    expect(res.body.data.items.map((i: { pedido: string }) => i.pedido)).toEqual(['P-2', 'P-1']);
    const none = await t.api('/api/integration/pedidoschat/by-chat/5511000000000', { token: agent });
    expect(none.body.data).toMatchObject({ total: 0, items: [] });
  });

  it("runs the integration's query on the ERP with the chat id quoted, and its order", async () => {
    const phone = String(erp.tables.SA1[0]!.A1_TEL);
    const expected = erp.tables.SA1.filter((c) => String(c.A1_TEL) === phone).map((c) => String(c.A1_COD)).sort().reverse();
    const res = await t.api(`/api/integration/clienteserp/by-chat/${phone}`, { token: agent });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ source: 'erp', title: 'Clientes', total: expected.length });
    expect(res.body.data.items.map((i: { A1_COD: string }) => i.A1_COD)).toEqual(expected);
    const sent = erp.requests.filter((r) => (r.body as { DIRECT?: boolean })?.DIRECT).at(-1)!.body as Record<string, unknown>;
    expect(sent).toMatchObject({ QUERY: `SELECT A1_COD, A1_NOME, A1_TEL FROM SA1010 WHERE A1_TEL = '${phone}'`, ORDEM: 'A1_COD DESC', PAGINA: 1 });
  });

  it('refuses a chat id that could break out of the quotes, and integrations without the setting', async () => {
    const bad = await t.api(`/api/integration/clienteserp/by-chat/${encodeURIComponent("1' OR '1'='1")}`, { token: agent });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'chat_id_invalid', errorMessage: 'Identificador de chat inválido.' });
    const off = await t.api('/api/integration/sembusca/by-chat/5511999990001', { token: agent });
    expect(off.status).toBe(404);
    expect(off.body.errorMessage).toBe('Esta integração não busca itens pelo chat.');
  });

  it('lists the sections of every visible integration with findByChatId for a chat (the contact panel call)', async () => {
    const res = await t.api('/api/integration-chat/5511999990001', { token: agent });
    expect(res.status).toBe(200);
    expect(res.body.data.map((s: { collection: string }) => s.collection).sort()).toEqual(['clienteserp', 'pedidoschat']);
    const suporte = await t.api('/api/integration-chat/5511999990001', { token: support });
    expect(suporte.body.data.map((s: { collection: string }) => s.collection).sort()).toEqual(['clienteserp', 'pedidoschat', 'sosuporte']);
    // Not a section of the agent's: the same 404 as an unknown integration.
    expect((await t.api('/api/integration/sosuporte/by-chat/5511999990001', { token: agent })).status).toBe(404);
  });

  it("keeps the other sections when one integration's ERP fails, saying 'Erro na Busca!'", async () => {
    const previous = await t.patchAppConfig({ erp: { urls: ['http://127.0.0.1:9'], timeoutMs: 1_000 } as never });
    const res = await t.api('/api/integration-chat/5511999990001', { token: agent });
    await t.patchAppConfig(previous);
    expect(res.status).toBe(200);
    const byName = Object.fromEntries(res.body.data.map((s: { collection: string }) => [s.collection, s]));
    expect(byName.clienteserp).toMatchObject({ error: true, noItems: 'Erro na Busca!', items: [] });
    expect(byName.pedidoschat).toMatchObject({ total: 2 });
  });
});
