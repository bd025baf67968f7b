import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages as texts } from '@atendimento/schemas';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../helpers/test-server';
import { waitFor } from '../helpers/wait-for';

/**
 * The 'agents' screen permission was enough to become admin, and a
 * stranger who had just signed up through the public page could write queues, delete
 * integration records, read every contact's and user's name through /api/lookup/* and send
 * raw SQL to the ERP. docs/security.md says who may do what.
 */
let t: TestServer;
let admin: string;
let agentsEditor: string;
let stranger: string;

const STRONG = 'Girassol-Azul-2026';

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.tokenFor('acme', 'acme-admin');
  await t.server.repos.users.create('acme', { id: 'acme-rh', email: 'rh@acme.test', displayName: 'RH Acme', passwordHash: null, claims: { agents: true } }, t.server.clock.now());
  agentsEditor = await t.tokenFor('acme', 'acme-rh');
  // The public sign-up is on for acme (test-server): a stranger signs up and is signed in.
  const signUp = await t.api('/api/users', { method: 'POST', body: { displayName: 'Estranho', email: 'estranho@fora.test', password: STRONG, confirmPassword: STRONG } });
  expect(signUp.status, signUp.text).toBe(201);
  stranger = signUp.body.data.accessToken;
});
afterAll(() => t?.close());

async function signIn(email: string, password: string) {
  return t.api('/api/auth/login', { method: 'POST', body: { email, password } });
}

describe("the 'agents' permission is not a way to become admin", () => {
  it("refuses changing an admin's password, e-mail or status, and anyone's claims", async () => {
    const current = (await t.api('/api/agents/acme-admin', { token: agentsEditor })).body;
    expect(current.id).toBe('acme-admin');
    const attempts: [string, Record<string, unknown>][] = [
      ['password', { ...current, password: 'Nova-Senha-Do-Admin-1' }],
      ['email', { ...current, email: 'rh-controla@acme.test' }],
      ['active', { ...current, active: false }],
    ];
    for (const [what, body] of attempts) {
      const res = await t.api('/api/agents/acme-admin', { method: 'PUT', token: agentsEditor, body });
      expect(res.status, `${what}: ${res.text}`).toBe(403);
      expect(res.body.errorMessage).toBe(texts.auth.adminOnlyAccount);
    }
    const patch = await t.api('/api/agents/acme-admin', { method: 'PATCH', token: agentsEditor, body: { password: 'Nova-Senha-Do-Admin-1' } });
    expect(patch.status).toBe(403);
    // The admin still signs in with the old password, and the address did not change.
    expect((await signIn('admin@acme.test', TEST_PASSWORD)).status).toBe(200);
    expect((await signIn('rh-controla@acme.test', 'Nova-Senha-Do-Admin-1')).status).toBe(401);
    // Deleting an admin is refused too.
    expect((await t.api('/api/agents/acme-admin', { method: 'DELETE', token: agentsEditor })).status).toBe(403);

    // One's own claims, or another agent's, change only by an admin.
    const self = (await t.api('/api/agents/acme-rh', { token: agentsEditor })).body;
    const own = await t.api('/api/agents/acme-rh', { method: 'PUT', token: agentsEditor, body: { ...self, claims: { ...self.claims, admin: true } } });
    expect(own.status, own.text).toBe(403);
    expect(own.body.errorMessage).toBe(texts.auth.adminOnlyClaims);
    const other = await t.api('/api/agents/acme-agente', { method: 'PATCH', token: agentsEditor, body: { claims: { admin: true } } });
    expect(other.status).toBe(403);
    const me = await t.api('/api/auth/me', { token: agentsEditor });
    expect(me.body.data.claims.admin).toBeFalsy();

    // What the permission is for still works: an ordinary agent's name.
    const rename = await t.api('/api/agents/acme-suporte', { method: 'PATCH', token: agentsEditor, body: { displayName: 'Suporte Renomeado' } });
    expect(rename.status, rename.text).toBe(200);
  });

  it("an admin may, and the old address hears of an e-mail or password change", async () => {
    const res = await t.api('/api/agents/acme-agente', { method: 'PATCH', token: admin, body: { email: 'agente-novo@acme.test', password: 'Outra-Senha-Boa-77' } });
    expect(res.status, res.text).toBe(200);
    const notice = await t.smtp.waitFor('agente@acme.test');
    expect(notice.subject).toContain('Alteração na sua conta');
    expect(notice.text).toContain('agente-novo@acme.test');
    expect(notice.text).toContain(texts.auth.accountNotice.password);
    expect((await signIn('agente-novo@acme.test', 'Outra-Senha-Boa-77')).status).toBe(200);
  });
});

describe('a stranger who just signed up', () => {
  it('cannot create, rename or delete queues', async () => {
    const created = await t.api('/api/queues', { method: 'POST', token: admin, body: { name: 'Fila Oficial', active: true } });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id;
    expect((await t.api('/api/queues', { method: 'POST', token: stranger, body: { name: 'Fila do Estranho', active: true } })).status).toBe(403);
    expect((await t.api(`/api/queues/${id}`, { method: 'PATCH', token: stranger, body: { name: 'Renomeada' } })).status).toBe(403);
    expect((await t.api(`/api/queues/${id}`, { method: 'DELETE', token: stranger })).status).toBe(403);
    expect((await t.api('/api/queues/remove', { method: 'PATCH', token: stranger, body: [id] })).status).toBe(403);
    const after = await t.api(`/api/queues/${id}`, { token: admin });
    expect(after.body.name).toBe('Fila Oficial');
  });

  it('cannot read names through lookups of registers it may not open', async () => {
    for (const collection of ['agents', 'contacts', 'departaments', 'tags']) {
      const res = await t.api(`/api/lookup/${collection}?q=a`, { token: stranger });
      expect(res.status, `${collection}: ${res.text}`).toBe(403);
    }
    // Admins still get them.
    const ok = await t.api('/api/lookup/agents?q=admin', { token: admin });
    expect(ok.status).toBe(200);
    expect(ok.body.data.map((o: { id: string }) => o.id)).toContain('acme-admin');
  });

  it('cannot write or delete integration records', async () => {
    const schema = { type: 'object', required: ['nome'], properties: { nome: { type: 'string', title: 'Nome' } } };
    const defined = await t.api('/api/integrations', { method: 'POST', token: admin, body: { active: true, menu: true, order: 1, name: 'Pedidos', register: 'pedidos', collection: 'pedidos', vjsfSchemaMaster: schema } });
    expect(defined.status, defined.text).toBe(201);
    await waitFor(async () => (await t.api('/api/integration/pedidos', { token: admin })).status === 200, 'integration live');
    const record = await t.api('/api/integration/pedidos', { method: 'POST', token: admin, body: { nome: 'Pedido 1' } });
    expect(record.status, record.text).toBe(201);
    const id = record.body.data.id;
    expect((await t.api(`/api/integration/pedidos/${id}`, { method: 'DELETE', token: stranger })).status).toBe(403);
    expect((await t.api('/api/integration/pedidos/remove', { method: 'PATCH', token: stranger, body: [id] })).status).toBe(403);
    expect((await t.api(`/api/integration/pedidos/${id}`, { method: 'PATCH', token: stranger, body: { nome: 'Trocado' } })).status).toBe(403);
    expect((await t.api('/api/integration/pedidos', { method: 'POST', token: stranger, body: { nome: 'Meu' } })).status).toBe(403);
    expect((await t.api(`/api/integration/pedidos/${id}`, { token: admin })).body.nome).toBe('Pedido 1');
  });

  it('cannot reach the ERP through its proxy in either form; a member may not send DIRECT (admin only)', async () => {
    for (const body of [{ DIRECT: true, QUERY: 'SELECT * FROM USUARIOS' }, { ENDPOINT: 'clientes' }]) {
      const res = await t.api('/api/erp-proxy?path=/consulta', { method: 'POST', token: stranger, body });
      expect(res.status, JSON.stringify(body)).toBe(403);
      expect(res.body.errorMessage).toBeTruthy();
    }
    const agent = await t.tokenFor('acme', 'acme-suporte');
    const direct = await t.api('/api/erp-proxy?path=/consulta', { method: 'POST', token: agent, body: { DIRECT: true, QUERY: 'SELECT 1' } });
    expect(direct.status).toBe(403);
    expect(direct.body.errorMessage).toBe(texts.integrations.erpDirectAdminOnly);
    expect((await t.api('/api/erp-proxy?path=/consulta', { method: 'POST', token: agent, body: { DIRECT: 'S', QUERY: 'SELECT 1' } })).status).toBe(403);
  });
});
