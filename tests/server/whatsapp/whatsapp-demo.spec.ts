import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson, toJson } from '@atendimento/server/db/knex';
import { DEMO_WHATSAPP_CHANNEL, startDemoGraph, wireDemoWhatsapp, type DemoGraph } from '@atendimento/server/demo/whatsapp-demo';
import { startTestServer, type TestServer } from '../../helpers/test-server';
import { waitFor } from '../../helpers/wait-for';

let demo: DemoGraph;
let t: TestServer;
beforeAll(async () => {
  demo = await startDemoGraph(0);
  t = await startTestServer({ env: { PROVIDER_TRUSTED_HOSTS: new URL(demo.graph.baseUrl).host } });
  const iso = new Date().toISOString();
  await t.server.db('channels').insert({
    id: DEMO_WHATSAPP_CHANNEL, tenant_id: 'acme', type: 'meta', display_name: 'WhatsApp Comercial', active: true, created_at: iso, updated_at: iso, deleted_at: null,
    data: toJson({ id: DEMO_WHATSAPP_CHANNEL, type: 'meta', displayName: 'WhatsApp Comercial', active: true, departmentId: 'vendas' }),
  });
});
afterAll(async () => {
  await t?.close();
  await demo?.graph.close();
});

describe('npm start demo: WhatsApp channel wired to the local Meta server', () => {
  it('a customer writing on /cliente arrives in the queue and sees the reply', async () => {
    expect(await wireDemoWhatsapp(t.server.db, 'acme', demo, Number(new URL(t.baseUrl).port))).toBe(true);
    const page = await fetch(`${demo.graph.baseUrl}/cliente`);
    expect(page.headers.get('content-type')).toContain('text/html');
    const sent = await fetch(`${demo.graph.baseUrl}/cliente/enviar`, { method: 'POST', body: JSON.stringify({ phone: '5511987650000', name: 'Cliente Demo', text: 'Quero um orçamento' }) });
    expect(sent.status).toBe(202);
    const agent = await t.tokenFor('acme', 'acme-agente');
    const room = await waitFor(async () => (await t.api('/api/rooms/chatid/5511987650000', { token: agent })).body.data?.[0], 'demo room');
    expect(room).toMatchObject({ channelId: DEMO_WHATSAPP_CHANNEL, departmentId: 'vendas', inAttend: false });
    expect((await t.api(`/api/rooms/${room.id}/push`, { method: 'PATCH', body: {}, token: agent })).status).toBe(200);
    expect((await t.api(`/api/rooms/${room.id}/message`, { method: 'POST', body: { text: 'Olá! Já te mando.' }, token: agent })).status).toBe(201);
    const seen = await waitFor(async () => {
      const list = (await (await fetch(`${demo.graph.baseUrl}/cliente/mensagens?phone=5511987650000`)).json()) as { data: { text: string }[] };
      return list.data.length ? list.data : null;
    }, 'reply on the customer page');
    expect(seen.map((m) => m.text)).toEqual(['Olá! Já te mando.']);
  });

  it('never overwrites a real provider configuration', async () => {
    const row = await t.server.db('channels').where({ tenant_id: 'acme', id: DEMO_WHATSAPP_CHANNEL }).first();
    const data = parseJson<Record<string, unknown>>(row.data, {});
    const real = { baseUrl: 'https://graph.facebook.com', apiVersion: 'v21.0', accessToken: 'real-token', appSecret: 'real-secret' };
    await t.server.db('channels').where({ tenant_id: 'acme', id: DEMO_WHATSAPP_CHANNEL }).update({ data: toJson({ ...data, provider: real }) });
    expect(await wireDemoWhatsapp(t.server.db, 'acme', demo, 1)).toBe(false);
    const after = await t.server.db('channels').where({ tenant_id: 'acme', id: DEMO_WHATSAPP_CHANNEL }).first();
    expect(parseJson<Record<string, unknown>>(after.data, {}).provider).toEqual(real);
  });
});
