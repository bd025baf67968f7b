import { JSDOM } from 'jsdom';
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
      const list = (await (await fetch(`${demo.graph.baseUrl}/cliente/mensagens?phone=5511987650000`)).json()) as { data: { from: string; text: string }[] };
      return list.data.length > 1 ? list.data : null;
    }, 'reply on the customer page');
    // One conversation, in order: what the customer wrote, then the company's answer.
    expect(seen.map((m) => `${m.from}: ${m.text}`)).toEqual(['cliente: Quero um orçamento', 'empresa: Olá! Já te mando.']);
  });

  it('a customer typing while the previous message is on its way keeps what they typed, and both arrive', async () => {
    expect(await wireDemoWhatsapp(t.server.db, 'acme', demo, Number(new URL(t.baseUrl).port))).toBe(true);
    const html = await (await fetch(`${demo.graph.baseUrl}/cliente`)).text();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let sends = 0;
    let refreshedAfterSend = 0;
    // The page's own script in jsdom, its fetch sent to the demo server; the first send's answer is held.
    const dom = new JSDOM(html, {
      url: `${demo.graph.baseUrl}/cliente`,
      runScripts: 'dangerously',
      beforeParse(win) {
        (win as unknown as { fetch: unknown }).fetch = async (input: string, init?: RequestInit) => {
          const res = await fetch(new URL(String(input), demo.graph.baseUrl), init);
          if (String(input).startsWith('/cliente/enviar') && ++sends === 1) await held;
          if (String(input).startsWith('/cliente/mensagens') && sends > 0) refreshedAfterSend++;
          return res;
        };
      },
    });
    try {
      const doc = dom.window.document;
      const box = doc.getElementById('text') as HTMLInputElement;
      const send = () => doc.getElementById('f')!.dispatchEvent(new dom.window.Event('submit', { bubbles: true, cancelable: true }));
      (doc.getElementById('phone') as HTMLInputElement).value = '5511987650009';
      box.value = 'Oi, boa tarde';
      send();
      await waitFor(() => sends === 1, 'first send on its way');
      box.value = 'Quero saber do pedido 4521';
      release();
      await waitFor(() => refreshedAfterSend > 0, 'the first send handled');
      expect(box.value).toBe('Quero saber do pedido 4521');
      send();
      const seen = await waitFor(async () => {
        const list = (await (await fetch(`${demo.graph.baseUrl}/cliente/mensagens?phone=5511987650009`)).json()) as { data: { text: string }[] };
        return list.data.length >= 2 ? list.data : null;
      }, 'both messages');
      expect(seen.map((m) => m.text)).toEqual(['Oi, boa tarde', 'Quero saber do pedido 4521']);
    } finally {
      dom.window.close();
    }
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
