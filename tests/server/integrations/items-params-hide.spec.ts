import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalErp, type LocalErp } from '@atendimento/integrations/erp/index';
import { toJson } from '@atendimento/server/db/knex';
import { startTestServer, type TestServer } from '../../helpers/test-server';

/**
 * The rest of seed 000 §3 "Integration definition": the noItems text, the items
 * sub-form (vjsfSchemaItens), the parameters asked before a document (vjsfSchemaParams), and
 * the department claim hideIntegrations — all enforced by the server.
 */
let t: TestServer;
let erp: LocalErp;
let admin: string;
let agent: string; // acme-agente: agent of vendas
let support: string; // acme-suporte: agent of suporte

const MASTER = { type: 'object', required: ['numero'], properties: { numero: { type: 'string', title: 'Número' }, cliente: { type: 'string', title: 'Cliente' } } };
const ITEMS = {
  type: 'object',
  title: 'Produtos',
  required: ['produto', 'quantidade'],
  properties: {
    produto: { type: 'string', title: 'Produto', minLength: 1, errorMessage: { required: 'Informe o produto', default: 'Informe o produto' } },
    quantidade: { type: 'integer', title: 'Quantidade', minimum: 1, errorMessage: 'Informe uma quantidade maior que zero' },
  },
};
const PARAMS = {
  type: 'object',
  required: ['copias'],
  properties: {
    copias: { type: 'integer', title: 'Cópias', minimum: 1, maximum: 5, errorMessage: 'Informe de 1 a 5 cópias' },
    observacao: { type: 'string', title: 'Observação' },
  },
};

async function define(body: Record<string, unknown>) {
  const res = await t.api('/api/integrations', { method: 'POST', token: admin, body: { active: true, menu: true, order: 1, vjsfSchemaMaster: MASTER, ...body } });
  expect(res.status).toBe(201);
}

const views = async (token: string) => (await t.api('/api/integration-definitions', { token })).body.data as { collection: string; noItems: string; paramsSchema: unknown; view: { schema: { properties: Record<string, unknown> } } }[];

beforeAll(async () => {
  t = await startTestServer();
  erp = await startLocalErp();
  admin = await t.tokenFor('acme', 'acme-admin');
  agent = await t.tokenFor('acme', 'acme-agente');
  support = await t.tokenFor('acme', 'acme-suporte');
  await t.patchAppConfig({ erp: { urls: [erp.url], timeoutMs: 3_000 } as never });
  await define({ name: 'Pedidos', register: 'pedidos', collection: 'pedidos', noItems: 'Nenhum pedido ainda', vjsfSchemaItens: ITEMS });
  await define({
    name: 'Orçamentos',
    register: 'orcamentos',
    collection: 'orcamentos',
    idField: 'numero',
    vjsfSchemaParams: PARAMS,
    callToAction: [{ label: 'Gerar orçamento', method: 'POST', path: '/documentos/pedido', field: 'URL', fileName: 'orcamento', fileExt: 'pdf' }],
  });
  await define({ name: 'De vendas', register: 'devendas', collection: 'devendas', departments: ['vendas'] });
  await define({ name: 'De suporte', register: 'desuporte', collection: 'desuporte', departments: ['suporte'] });
});
afterAll(async () => {
  await erp?.close();
  await t?.close();
});

describe('noItems', () => {
  it("comes with the view: the integration's own text, else the generic table's 'Esta lista está vazia'", async () => {
    const byCollection = Object.fromEntries((await views(agent)).map((v) => [v.collection, v]));
    expect(byCollection.pedidos!.noItems).toBe('Nenhum pedido ainda');
    expect(byCollection.orcamentos!.noItems).toBe('Esta lista está vazia');
  });
});

describe('vjsfSchemaItens: the items sub-form', () => {
  it('adds an itens array of the items schema to the form and validates each item on the server', async () => {
    const pedidos = (await views(agent)).find((v) => v.collection === 'pedidos')!;
    expect(pedidos.view.schema.properties.itens).toMatchObject({ type: 'array', title: 'Produtos', items: { required: ['produto', 'quantidade'] } });

    const bad = await t.api('/api/integration/pedidos', { method: 'POST', token: agent, body: { numero: '10', itens: [{ produto: 'Pão francês', quantidade: 0 }, { quantidade: 2 }] } });
    expect(bad.status).toBe(400);
    const messages = bad.body.fields.map((f: { message: string }) => f.message);
    expect(messages).toEqual(expect.arrayContaining(['Informe uma quantidade maior que zero', 'Informe o produto']));

    const ok = await t.api('/api/integration/pedidos', { method: 'POST', token: agent, body: { numero: '10', itens: [{ produto: 'Pão francês', quantidade: 30 }, { produto: 'Sonho', quantidade: 6 }] } });
    expect(ok.status).toBe(201);
    const stored = await t.api(`/api/integration/pedidos/${ok.body.data.id}`, { token: agent });
    expect(stored.body.itens).toEqual([{ produto: 'Pão francês', quantidade: 30 }, { produto: 'Sonho', quantidade: 6 }]);
  });
});

describe('vjsfSchemaParams: parameters before a document', () => {
  it('offers the params schema, refuses invalid params in pt-BR and sends valid ones to the ERP', async () => {
    const orcamentos = (await views(agent)).find((v) => v.collection === 'orcamentos')!;
    expect(orcamentos.paramsSchema).toEqual(PARAMS);
    expect((await t.api('/api/integration/orcamentos', { method: 'POST', token: agent, body: { numero: '777', cliente: 'Mercado Boa Vista' } })).status).toBe(201);

    const missing = await t.api('/api/integration/orcamentos/777/documents/0', { method: 'POST', token: agent, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.fields).toEqual([{ field: 'copias', message: 'Informe de 1 a 5 cópias' }]);
    const tooMany = await t.api('/api/integration/orcamentos/777/documents/0', { method: 'POST', token: agent, body: { params: { copias: 9 } } });
    expect(tooMany.status).toBe(400);
    expect(erp.requests.some((r) => r.path.endsWith('/documentos/pedido'))).toBe(false);

    const ok = await t.api('/api/integration/orcamentos/777/documents/0', { method: 'POST', token: agent, body: { params: { copias: 2, observacao: ' urgente ', extra: 'ignorado' } } });
    expect(ok.status).toBe(201);
    expect(ok.body.data.url).toMatch(/^\/api\/integration\/orcamentos\/documents\/file\?src=/);
    const sent = erp.requests.filter((r) => r.path.endsWith('/documentos/pedido')).at(-1)!.body as Record<string, unknown>;
    expect(sent).toMatchObject({ numero: '777', params: { copias: 2, observacao: 'urgente' } });
    expect((sent.params as Record<string, unknown>).extra).toBeUndefined();
  });
});

describe('department claim hideIntegrations', () => {
  it("hides integrations from that department's users, on the menu and every records route; admins still see them", async () => {
    const before = (await views(support)).map((v) => v.collection).sort();
    expect(before).toEqual(['desuporte', 'orcamentos', 'pedidos']);

    const row = await t.server.db('departments').where({ tenant_id: 'acme', id: 'suporte' }).first();
    const data = JSON.parse(typeof row.data === 'string' ? row.data : JSON.stringify(row.data));
    await t.server.db('departments').where({ tenant_id: 'acme', id: 'suporte' }).update({ data: toJson({ ...data, claims: { ...data.claims, hideIntegrations: true } }) });

    expect(await views(support)).toEqual([]);
    const hidden = await t.api('/api/integration/pedidos', { token: support });
    expect(hidden.status).toBe(404);
    expect((await t.api('/api/integration/desuporte', { token: support })).status).toBe(404);
    expect((await t.api('/api/integration-chat/5511999990001', { token: support })).body.data).toEqual([]);
    // Vendas does not hide: its agent keeps the department's and the general integrations.
    expect((await views(agent)).map((v) => v.collection).sort()).toEqual(['devendas', 'orcamentos', 'pedidos']);
    expect((await t.api('/api/integration/pedidos', { token: agent })).status).toBe(200);
    expect((await views(admin)).map((v) => v.collection).sort()).toEqual(['desuporte', 'devendas', 'orcamentos', 'pedidos']);

    await t.server.db('departments').where({ tenant_id: 'acme', id: 'suporte' }).update({ data: toJson(data) });
    expect((await views(support)).length).toBe(3);
  });
});
