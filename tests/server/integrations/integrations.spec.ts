import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/test-server';
import { connectClient } from '../realtime/realtime-helpers';
import { waitFor } from '../../helpers/wait-for';

/**
 * Integrations defined live by admins (seed 000 §3 "Integration definition", §6, §7):
 * the definitions register, the generic records API under /api/integration/{collection}, and
 * who sees what.
 */
let t: TestServer;
let admin: string;
let agent: string; // acme-agente: agent of department vendas
let support: string; // acme-suporte: agent of department suporte
let otherAdmin: string;

const CLIENT_SCHEMA = {
  type: 'object',
  required: ['codigo', 'nome'],
  properties: {
    codigo: { type: 'string', title: 'Código', maxLength: 6, order: 1 },
    nome: { type: 'string', title: 'Nome', minLength: 1, order: 0, errorMessage: { required: 'Informe o nome do cliente', default: 'Informe o nome do cliente' } },
    limite: { type: 'number', title: 'Limite', minimum: 0, errorMessage: 'Informe um valor numérico' },
  },
};

async function define(token: string, body: Record<string, unknown>, host?: string) {
  return t.api('/api/integrations', { method: 'POST', token, host, body: { active: true, menu: true, order: 1, vjsfSchemaMaster: CLIENT_SCHEMA, ...body } });
}

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.tokenFor('acme', 'acme-admin');
  agent = await t.tokenFor('acme', 'acme-agente');
  support = await t.tokenFor('acme', 'acme-suporte');
  otherAdmin = await t.tokenFor('outra', 'outra-admin');
});
afterAll(() => t?.close());

describe('integration definitions register', () => {
  it('refuses a schema that ajv cannot compile with a pt-BR 400 on the field', async () => {
    const res = await define(admin, { name: 'Quebrada', register: 'quebrada', collection: 'quebrada', vjsfSchemaMaster: { type: 'object', properties: { x: { type: 'strin' } } } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('validation_failed');
    expect(res.body.fields).toEqual([{ field: 'vjsfSchemaMaster', message: expect.stringMatching(/^Schema JSON inválido: /) }]);
    expect(res.body.errorMessage).toMatch(/^Dados inválidos: Schema JSON inválido/);

    const notObject = await define(admin, { name: 'Sem props', register: 'semprops', collection: 'semprops', vjsfSchemaMaster: { type: 'array' } });
    expect(notObject.status).toBe(400);
    expect(notObject.body.fields[0].field).toBe('vjsfSchemaMaster');

    const missing = await t.api('/api/integrations', { method: 'POST', token: admin, body: { name: 'Sem schema', register: 'semschema', collection: 'semschema' } });
    expect(missing.status).toBe(400);
    expect(missing.body.fields.map((f: { field: string }) => f.field)).toContain('vjsfSchemaMaster');
  });

  it('refuses a route the app already uses and a route or collection another integration has', async () => {
    const taken = await define(admin, { name: 'Contatos 2', register: 'contacts', collection: 'contatos2' });
    expect(taken.status).toBe(400);
    expect(taken.body.fields).toEqual([{ field: 'register', message: 'A rota /contacts já é usada por outra tela.' }]);

    expect((await define(admin, { name: 'Pedidos', register: 'pedidos', collection: 'pedidos' })).status).toBe(201);
    const twice = await define(admin, { name: 'Pedidos 2', register: 'pedidos', collection: 'pedidos' });
    expect(twice.status).toBe(400);
    expect(twice.body.fields).toEqual(
      expect.arrayContaining([
        { field: 'register', message: 'Já existe uma integração com a rota /pedidos.' },
        { field: 'collection', message: 'Já existe uma integração com a coleção pedidos.' },
      ]),
    );
  });

  it('is an admin screen: an agent without the permission may not list or write definitions', async () => {
    expect((await t.api('/api/integrations', { token: agent })).status).toBe(403);
    expect((await define(agent, { name: 'X', register: 'xagente', collection: 'xagente' })).status).toBe(403);
  });

  it('answers the start-up menu query: active, flagged for the menu, ordered by order', async () => {
    await define(admin, { name: 'Zeta', register: 'zeta', collection: 'zeta', order: 0 });
    await define(admin, { name: 'Fora do menu', register: 'foramenu', collection: 'foramenu', menu: false, order: 2 });
    const qs = new URLSearchParams({ filter: JSON.stringify({ active: true, menu: true }), sort: JSON.stringify(['order', 'ASC']), range: JSON.stringify([0, 99]) });
    const res = await t.api(`/api/integrations?${qs}`, { token: admin });
    expect(res.status).toBe(200);
    expect(String(res.headers['content-range'])).toMatch(/^integrations 0-\d+\/\d+$/);
    const registers = res.body.map((i: { register: string }) => i.register);
    expect(registers).not.toContain('foramenu');
    expect(registers.indexOf('zeta')).toBeLessThan(registers.indexOf('pedidos'));
  });
});

describe('records of an integration (/api/integration/{collection})', () => {
  beforeAll(async () => {
    const res = await define(admin, { name: 'Clientes ERP', register: 'clientes-erp', collection: 'clientes', idField: 'codigo', listTitle: 'Clientes do ERP' });
    expect(res.status).toBe(201);
  });

  it('validates with the integration schema (pt-BR 400 per field), then saves with the id from idField', async () => {
    const bad = await t.api('/api/integration/clientes', { method: 'POST', token: admin, body: { codigo: '000123', limite: -5 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('validation_failed');
    expect(bad.body.fields).toEqual(expect.arrayContaining([{ field: 'nome', message: 'Informe o nome do cliente' }, { field: 'limite', message: 'Informe um valor numérico' }]));

    const created = await t.api('/api/integration/clientes', { method: 'POST', token: admin, body: { codigo: '000123', nome: '  Padaria Pão de Mel ', limite: 1500, extra: 'ignorado' } });
    expect(created.status).toBe(201);
    expect(created.body.meta).toEqual({ ok: true });
    expect(created.body.data).toMatchObject({ id: '000123', codigo: '000123', nome: 'Padaria Pão de Mel', limite: 1500, lifeControl: { deletedAt: null } });
    expect(created.body.data.extra).toBeUndefined();

    // Posting the same ERP code again updates the record (seed 000 §7: the ERP already holds it).
    const again = await t.api('/api/integration/clientes', { method: 'POST', token: admin, body: { codigo: '000123', nome: 'Padaria Pão de Mel Ltda' } });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ id: '000123', nome: 'Padaria Pão de Mel Ltda', limite: null });

    const noId = await t.api('/api/integration/clientes', { method: 'POST', token: admin, body: { nome: 'Sem código' } });
    expect(noId.status).toBe(400);
    expect(noId.body.fields[0]).toMatchObject({ field: 'codigo' });
  });

  it('lists in the simple-rest dialect with Content-Range, search, sort and paging', async () => {
    for (const [codigo, nome] of [['000200', 'Mercado Boa Vista'], ['000201', 'Açougue Central'], ['000202', 'Mercado do Zé']]) {
      expect((await t.api('/api/integration/clientes', { method: 'POST', token: admin, body: { codigo, nome } })).status).toBe(201);
    }
    const qs = new URLSearchParams({ filter: JSON.stringify({ q: 'mercado' }), sort: JSON.stringify(['nome', 'DESC']), range: JSON.stringify([0, 0]) });
    const res = await t.api(`/api/integration/clientes?${qs}`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.headers['content-range']).toBe('clientes 0-0/2');
    expect(res.body.map((r: { nome: string }) => r.nome)).toEqual(['Mercado do Zé']);

    const unknownField = await t.api(`/api/integration/clientes?${new URLSearchParams({ filter: JSON.stringify({ senha: 'x' }) })}`, { token: admin });
    expect(unknownField.status).toBe(400);
  });

  it('updates with PUT and PATCH, deletes softly, and lets the same code be created again', async () => {
    const put = await t.api('/api/integration/clientes/000200', { method: 'PUT', token: admin, body: { codigo: '000200', nome: 'Mercado Boa Vista II', limite: 10 } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id: '000200', nome: 'Mercado Boa Vista II', limite: 10 });
    const badPatch = await t.api('/api/integration/clientes/000200', { method: 'PATCH', token: admin, body: { nome: '' } });
    expect(badPatch.status).toBe(400);
    expect(badPatch.body.fields).toEqual([{ field: 'nome', message: 'Informe o nome do cliente' }]);

    const removed = await t.api('/api/integration/clientes/000200', { method: 'DELETE', token: admin });
    expect(removed.status).toBe(200);
    expect(removed.body.meta).toEqual({ ok: true });
    expect(removed.body.data.lifeControl.deletedAt).toEqual(expect.any(String));
    expect((await t.api('/api/integration/clientes/000200', { token: admin })).status).toBe(404);
    expect((await t.api('/api/integration/clientes/000200', { method: 'DELETE', token: admin })).status).toBe(404);

    const back = await t.api('/api/integration/clientes', { method: 'POST', token: admin, body: { codigo: '000200', nome: 'Mercado Boa Vista' } });
    expect(back.status).toBe(201);
    expect(back.body.data).toMatchObject({ id: '000200', limite: null, lifeControl: { deletedAt: null } });

    const bulk = await t.api('/api/integration/clientes/remove', { method: 'PATCH', token: admin, body: ['000201', '000202'] });
    expect(bulk.status).toBe(200);
    expect(bulk.body.data).toEqual(['000201', '000202']);
  });

  it('keeps the collection of an integration that has records', async () => {
    const list = await t.api(`/api/integrations?${new URLSearchParams({ filter: JSON.stringify({ collection: 'clientes' }) })}`, { token: admin });
    const clientes = list.body[0];
    const renamed = await t.api(`/api/integrations/${clientes.id}`, { method: 'PATCH', token: admin, body: { collection: 'clientes2' } });
    expect(renamed.status).toBe(400);
    expect(renamed.body.fields).toEqual([{ field: 'collection', message: 'A coleção não pode ser alterada: a integração já tem registros.' }]);
    const retitled = await t.api(`/api/integrations/${clientes.id}`, { method: 'PATCH', token: admin, body: { listTitle: 'Clientes do ERP' } });
    expect(retitled.status).toBe(200);
  });

  it("never reaches another tenant's records: same collection, same ids → 404 and an empty list", async () => {
    const outraHost = t.hosts.outra;
    // Outra has no such integration at all.
    expect((await t.api('/api/integration/clientes/000123', { token: otherAdmin, host: outraHost })).status).toBe(404);
    expect((await t.api('/api/integration/clientes', { token: otherAdmin, host: outraHost })).status).toBe(404);
    // Outra defines one with the same collection: still none of acme's ids.
    expect((await define(otherAdmin, { name: 'Clientes', register: 'clientes-erp', collection: 'clientes', idField: 'codigo' }, outraHost)).status).toBe(201);
    expect((await t.api('/api/integration/clientes/000123', { token: otherAdmin, host: outraHost })).status).toBe(404);
    expect((await t.api('/api/integration/clientes/000123', { method: 'PUT', token: otherAdmin, host: outraHost, body: { codigo: '000123', nome: 'Invasor' } })).status).toBe(404);
    expect((await t.api('/api/integration/clientes/000123', { method: 'DELETE', token: otherAdmin, host: outraHost })).status).toBe(404);
    const list = await t.api('/api/integration/clientes', { token: otherAdmin, host: outraHost });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([]);
    // Outra may use the same ERP code for its own client.
    const own = await t.api('/api/integration/clientes', { method: 'POST', token: otherAdmin, host: outraHost, body: { codigo: '000123', nome: 'Cliente da Outra' } });
    expect(own.status).toBe(201);
    const acmeRecord = await t.api('/api/integration/clientes/000123', { token: admin });
    expect(acmeRecord.body.nome).toBe('Padaria Pão de Mel Ltda');
  });

  it('serves the form definition and its precompiled validator for the current schema only', async () => {
    const res = await t.api('/api/integration-definitions', { token: admin });
    expect(res.status).toBe(200);
    const clientes = res.body.data.find((v: { collection: string }) => v.collection === 'clientes');
    expect(clientes).toMatchObject({ register: 'clientes-erp', name: 'Clientes ERP', listTitle: 'Clientes do ERP', menu: true });
    expect(clientes.view.list).toMatchObject({ name: 'integration/clientes', label: 'Clientes do ERP', titleField: 'nome' });
    // Fields with `order` come first, ascending (seed 000 §5).
    expect(clientes.view.uiSchema['ui:order']).toEqual(['nome', 'codigo', 'limite', '*']);
    const validator = await t.api(clientes.view.validatorUrl);
    expect(validator.status).toBe(200);
    expect(String(validator.headers['content-type'])).toMatch(/javascript/);
    const stale = await t.api(clientes.view.validatorUrl.replace(/v=\w+/, 'v=0000000000000000'));
    expect(stale.status).toBe(404);
  });
});

describe('who sees an integration (seed 000 §6)', () => {
  beforeAll(async () => {
    expect((await define(admin, { name: 'Aberta', register: 'aberta', collection: 'aberta' })).status).toBe(201);
    expect((await define(admin, { name: 'Só vendas', register: 'so-vendas', collection: 'sovendas', departments: ['vendas'] })).status).toBe(201);
    expect((await define(admin, { name: 'Restrita', register: 'restrita', collection: 'restrita', adminOnly: true })).status).toBe(201);
    expect((await define(admin, { name: 'Inativa', register: 'inativa', collection: 'inativa', active: false })).status).toBe(201);
    await t.server.repos.users.create('acme', { id: 'acme-claim', email: 'claim@acme.test', displayName: 'Com claim', passwordHash: null, emailVerified: true, extra: { claimsIntegrations: { restrita: true } } }, new Date());
  });

  const visibleTo = async (token: string) => {
    const res = await t.api('/api/integration-definitions', { token });
    expect(res.status).toBe(200);
    return res.body.data.map((v: { collection: string }) => v.collection).filter((c: string) => ['aberta', 'sovendas', 'restrita', 'inativa'].includes(c)).sort();
  };

  it('admins see every integration; agents those without departments or of their departments, never adminOnly or inactive ones', async () => {
    expect(await visibleTo(admin)).toEqual(['aberta', 'inativa', 'restrita', 'sovendas']);
    expect(await visibleTo(agent)).toEqual(['aberta', 'sovendas']);
    expect(await visibleTo(support)).toEqual(['aberta']);
  });

  it('adminOnly opens to a user holding the integration claim in claimsIntegrations', async () => {
    const token = await t.tokenFor('acme', 'acme-claim');
    expect(await visibleTo(token)).toEqual(['aberta', 'restrita']);
    expect((await t.api('/api/integration/restrita', { method: 'POST', token, body: { codigo: '1', nome: 'Pode' } })).status).toBe(201);
  });

  it('enforces the same rules on the records API: hidden integrations answer 404', async () => {
    expect((await t.api('/api/integration/sovendas', { method: 'POST', token: agent, body: { codigo: '1', nome: 'Venda' } })).status).toBe(201);
    expect((await t.api('/api/integration/sovendas', { token: support })).status).toBe(404);
    expect((await t.api('/api/integration/sovendas/1', { token: support })).status).toBe(404);
    expect((await t.api('/api/integration/restrita', { token: agent })).status).toBe(404);
    expect((await t.api('/api/integration/inativa', { token: agent })).status).toBe(404);
    expect((await t.api('/api/integration/aberta', { token: support })).status).toBe(200);
    expect((await t.api('/api/integration/nao-existe', { token: admin })).status).toBe(404);
  });
});

describe('live definitions for every user (integration_views)', () => {
  it('tells an agent that a definition changed, without its name, schema or rules', async () => {
    const client = connectClient(t.baseUrl, t.hosts.acme, () => agent);
    try {
      const live = client.subscribe('integration_views', { limit: 500 });
      await waitFor(() => live.state === 'live', 'the snapshot');
      const created = await define(admin, { name: 'Ao vivo', register: 'ao-vivo', collection: 'aovivo', order: 7 });
      expect(created.status).toBe(201);
      const seen = await waitFor(() => live.records.find((r) => r.id === created.body.id), 'the new definition');
      expect(Object.keys(seen).sort()).toEqual(['id', 'lifeControl', 'order']);
      expect(seen.order).toBe(7);
      expect((await t.api(`/api/integrations/${created.body.id}`, { method: 'DELETE', token: admin })).status).toBe(200);
      await waitFor(() => !live.records.some((r) => r.id === created.body.id), 'the deletion');
    } finally {
      client.close();
    }
  });
});

describe('live records of an integration (integration/{collection})', () => {
  it('follows writes on the hub for users who may use the integration, and refuses the others', async () => {
    // The collection becomes live when the definitions are first read (the app does it at start-up).
    expect((await t.api('/api/integration-definitions', { token: admin })).status).toBe(200);
    const client = connectClient(t.baseUrl, t.hosts.acme, () => admin);
    const agentClient = connectClient(t.baseUrl, t.hosts.acme, () => agent);
    try {
      const live = client.subscribe('integration/clientes', { orderBy: [{ field: 'nome', direction: 'asc' }], limit: 50 });
      await waitFor(() => live.state === 'live', 'the snapshot');
      const saved = await t.api('/api/integration/clientes', { method: 'POST', token: admin, body: { codigo: '000900', nome: 'Armazém Ao Vivo' } });
      expect(saved.status).toBe(201);
      await waitFor(() => live.records.find((r) => r.id === '000900' && (r as { nome?: string }).nome === 'Armazém Ao Vivo'), 'the new record');
      expect((await t.api('/api/integration/clientes/000900', { method: 'DELETE', token: admin })).status).toBe(200);
      await waitFor(() => !live.records.some((r) => r.id === '000900'), 'the deletion');

      const refused = agentClient.subscribe('integration/restrita', { limit: 10 });
      await waitFor(() => refused.state === 'error', 'the refusal');
    } finally {
      client.close();
      agentClient.close();
    }
  });
});
