import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalErp } from '@atendimento/integrations/erp/index';
import { startDemoErp, wireDemoErp } from '@atendimento/server/demo/erp-demo';
import { startTestServer, type TestServer } from '../../helpers/test-server';

/** `npm start`'s demo ERP: a newcomer can try an ERP integration without a customer's ERP. */
let erp: LocalErp;
let t: TestServer;
const deps = () => ({
  db: t.server.db, clock: t.server.clock, invalidateTenants: () => t.server.services.tenants.invalidate(),
  registers: t.server.services.registers.registers, integrations: t.server.services.integrations.service,
});
const accounts = { adminId: 'acme-admin', agentId: 'acme-agente' };

beforeAll(async () => {
  erp = await startDemoErp(0);
  t = await startTestServer({ env: { PROVIDER_TRUSTED_HOSTS: new URL(erp.url).host } });
});
afterAll(async () => {
  await t?.close();
  await erp?.close();
});

describe('npm start demo: the local ERP and its order integration', () => {
  it("defines 'Pedidos (ERP)' on the first start; an agent lists the orders and gets the ERP's PDF", async () => {
    expect(await wireDemoErp(deps(), 'acme', erp, true, accounts)).toBe(true);
    const agent = await t.tokenFor('acme', 'acme-agente');
    const views = (await t.api('/api/integration-definitions', { token: agent })).body.data as { collection: string; name: string }[];
    expect(views.find((v) => v.collection === 'pedidos')?.name).toBe('Pedidos (ERP)');
    const list = await t.api('/api/integration/pedidos', { token: agent });
    expect(list.body.map((o: { numero: string }) => o.numero).sort()).toEqual(['000101', '000102']);
    const doc = await t.api('/api/integration/pedidos/000101/documents/0', { method: 'POST', token: agent, body: {} });
    expect(doc.status).toBe(201);
    const file = await t.api(doc.body.data.url, { token: agent });
    expect(file.status).toBe(200);
    expect(String(file.headers['content-type'])).toContain('pdf');
    expect(erp.requests.some((r) => r.path.endsWith('/documentos/pedido'))).toBe(true);
  });

  it('a later start only follows the new port; a real ERP configuration is never overwritten', async () => {
    expect(await wireDemoErp(deps(), 'acme', erp, false, accounts)).toBe(true);
    const admin = await t.tokenFor('acme', 'acme-admin');
    expect((await t.api('/api/integrations', { token: admin })).body.filter((d: { collection: string }) => d.collection === 'pedidos')).toHaveLength(1);
    await t.patchAppConfig({ erp: { urls: ['https://erp.cliente.com.br/rest'] } as never });
    expect(await wireDemoErp(deps(), 'acme', erp, false, accounts)).toBe(false);
    expect((await t.server.repos.tenants.findById('acme'))!.appConfig.erp?.urls).toEqual(['https://erp.cliente.com.br/rest']);
  });
});
