import { JSDOM } from 'jsdom';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages as texts, type Message } from '@atendimento/schemas';
import { toJson } from '@atendimento/server/db/knex';
import { push, startChatServer, stopChatServer, type ChatTest } from './chat-helpers';
import { waitFor } from '../../helpers/wait-for';

let t: ChatTest;
beforeAll(async () => {
  t = await startChatServer();
  const iso = new Date().toISOString();
  await t.server.db('channels').insert({
    id: 'site-hostil', tenant_id: 'acme', type: 'webchat', display_name: 'Hostil', active: true, created_at: iso, updated_at: iso, deleted_at: null,
    data: toJson({ id: 'site-hostil', type: 'webchat', displayName: 'Hostil', active: true, departmentId: 'vendas', color: 'red;background:url(x)', webchat: { title: '<img src=x onerror=alert(1)>"', welcome: '</script><script>alert(2)</script>', allowedOrigins: ["https://ok.example", "* 'unsafe-inline'"] } }),
  });
});
afterAll(() => stopChatServer(t));

describe('web-chat widget assets', () => {
  it('serves the embed script and the hosted page with the channel settings, escaped, framable by the allowed sites', async () => {
    const script = await t.api('/api/webchat/site-vendas/widget.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toContain('application/javascript');
    expect(script.text).toContain('"title":"Fale com Vendas"');
    expect(script.text).toContain(`"openLabel":"${texts.webchat.open}"`);

    const page = await t.api('/api/webchat/site-vendas/page');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['x-frame-options']).toBeUndefined();
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'self' https://loja.example");
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.text).toContain('<script src="/api/webchat/site-vendas/page.js" defer></script>');
    expect(page.text).not.toMatch(/<script>(?!<)/);

    for (const [name, type] of [['page.js', 'application/javascript'], ['page.css', 'text/css']]) {
      const asset = await t.api(`/api/webchat/site-vendas/${name}`);
      expect(asset.status).toBe(200);
      expect(asset.headers['content-type']).toContain(type);
    }
    // Only active web-chat channels have a widget.
    expect((await t.api('/api/webchat/wa-vendas/widget.js')).status).toBe(404);
    expect((await t.api('/api/webchat/nao-existe/page')).status).toBe(404);
    expect((await t.api('/api/webchat/wa-vendas/session', { method: 'POST', body: {} })).status).toBe(404);
  });

  it('hands the page script every text it reads, the notices included, and only those', async () => {
    const script = await t.api('/api/webchat/site-vendas/page.js');
    const read = [...new Set([...script.text.matchAll(/\bT\.(\w+)/g)].map((m) => m[1]!))].sort();
    const page = await t.api('/api/webchat/site-vendas/page');
    const body = new JSDOM(page.text).window.document.body;
    const given = JSON.parse(body.getAttribute('data-texts')!) as Record<string, string>;
    expect(Object.keys(given).sort()).toEqual(read);
    expect(given.invalidSession).toBe(texts.webchat.invalidSession);
    expect(given.connectionLost).toBe(texts.webchat.connectionLost);
    expect(given.channelUnavailable).toBe(texts.webchat.channelUnavailable);
  });

  it('never lets channel settings inject markup, script or CSP directives', async () => {
    const page = await t.api('/api/webchat/site-hostil/page');
    expect(page.status).toBe(200);
    expect(page.text).toContain('&lt;img src=x onerror=alert(1)&gt;&quot;');
    expect(page.text).not.toContain('<img');
    expect(page.text).not.toContain('</script><script>alert(2)');
    expect(page.text).toContain('--accent: #1976D2');
    expect(page.headers['content-security-policy']).toMatch(/frame-ancestors 'self' https:\/\/ok\.example$/);
    const script = await t.api('/api/webchat/site-hostil/widget.js');
    expect(script.text).not.toContain('<img');
    expect(script.text).toContain('\\u003cimg');
  });
});

/**
 * The hosted page in jsdom, talking to the real server: fetch goes through the test HTTP
 * client (it sets the tenant's Host header) and WebSocket is `ws` aimed at the test server.
 */
const widgetSockets: WebSocket[] = [];

/** Closes the page: its sockets first, so no frame reaches a window without a document. */
function closeWidget(dom: JSDOM): void {
  for (const ws of widgetSockets.splice(0)) {
    ws.onmessage = null;
    ws.onclose = null;
    ws.terminate();
  }
  dom.window.close();
}

/** The widget's page; `visitorKey` plays a reload (the key the page kept in localStorage). */
async function openWidget(channelId: string, visitorKey?: string): Promise<JSDOM> {
  const page = await t.api(`/api/webchat/${channelId}/page`);
  const script = await t.api(`/api/webchat/${channelId}/page.js`);
  const dom = new JSDOM(page.text, { url: `http://${t.hosts.acme}/api/webchat/${channelId}/page`, runScripts: 'outside-only', pretendToBeVisual: true });
  if (visitorKey) dom.window.localStorage.setItem(`atendimento.webchat.${channelId}`, visitorKey);
  const win = dom.window as unknown as { fetch: unknown; WebSocket: unknown };
  win.fetch = async (input: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}) => {
    const headers = Object.fromEntries(Object.entries(init.headers ?? {}).filter(([k]) => !/^(content-type|accept)$/i.test(k)).map(([k, v]) => [k.toLowerCase(), v]));
    const res = await t.api(String(input), { method: init.method ?? 'GET', body: init.body, headers });
    return { ok: res.status >= 200 && res.status < 300, status: res.status, json: async () => (typeof res.body === 'string' ? JSON.parse(res.body || '{}') : res.body) };
  };
  const port = new URL(t.baseUrl).port;
  win.WebSocket = class extends WebSocket {
    constructor(url: string) {
      super(url.replace(t.hosts.acme, `127.0.0.1:${port}`), { headers: { host: t.hosts.acme }, perMessageDeflate: false });
      widgetSockets.push(this);
    }
  };
  dom.window.eval(script.text);
  return dom;
}

function submit(dom: JSDOM, formId: string): void {
  const form = dom.window.document.getElementById(formId)!;
  form.dispatchEvent(new dom.window.Event('submit', { bubbles: true, cancelable: true }));
}

describe('web-chat page (visitor side) against the real server', () => {
  it('starts a conversation, shows the agent reply and the closing, renders every text as text, and reports read', async () => {
    const dom = await openWidget('site-vendas');
    const doc = dom.window.document;
    try {
      await waitFor(() => !doc.getElementById('start')!.hidden, 'start form');
      expect(doc.getElementById('title')!.textContent).toBe('Fale com Vendas');
      (doc.getElementById('name') as HTMLInputElement).value = 'Visitante <b>Beta</b>';
      (doc.getElementById('first') as HTMLTextAreaElement).value = '<img src=x onerror="window.__xss=1">Olá, tudo bem?';
      submit(dom, 'start');
      const list = doc.getElementById('messages')!;
      await waitFor(() => list.textContent!.includes('Olá, tudo bem?'), 'first message in the widget');
      expect(list.textContent).toContain('<img src=x onerror="window.__xss=1">Olá, tudo bem?');
      expect(list.querySelector('img')).toBeNull();
      expect(doc.getElementById('composer')!.hidden).toBe(false);
      const visitorKey = dom.window.localStorage.getItem('atendimento.webchat.site-vendas');
      expect(visitorKey).toBeTruthy();

      // The agent finds the room in the queue, enters and replies with markup.
      const queue = await t.api('/api/rooms?tab=queuesChats', { token: t.tokens.agente });
      const room = queue.body.data.find((r: { author: { displayName: string } }) => r.author.displayName === 'Visitante <b>Beta</b>');
      expect(room).toBeTruthy();
      await push(t, t.tokens.agente, room.id);
      const reply = await t.api(`/api/rooms/${room.id}/message`, { method: 'POST', body: { text: '<b>Olá!</b> Em que posso ajudar?' }, token: t.tokens.agente });
      expect(reply.status).toBe(201);
      await waitFor(() => list.textContent!.includes('<b>Olá!</b> Em que posso ajudar?'), 'agent reply in the widget');
      expect(list.querySelector('b')).toBeNull();
      expect(list.textContent).toContain('Agente Acme');
      // Visible page: the widget reports the reply read.
      await waitFor(async () => {
        const msgs = await t.api(`/api/rooms/${room.id}/messages`, { token: t.tokens.agente });
        return msgs.body.data.find((m: Message) => m.id === reply.body.data.id)?.status?.read;
      }, 'read receipt');

      // The visitor answers from the composer.
      (doc.getElementById('text') as HTMLTextAreaElement).value = 'Quero saber o preço';
      submit(dom, 'composer');
      await waitFor(async () => {
        const msgs = await t.api(`/api/rooms/${room.id}/messages`, { token: t.tokens.agente });
        return msgs.body.data.some((m: Message) => m.text === 'Quero saber o preço' && m.author.type === 'client');
      }, 'visitor message for the agent');

      const closed = await t.api(`/api/rooms/${room.id}/close`, { method: 'PATCH', body: { closedBy: { justify: 'Resolvido' } }, token: t.tokens.agente });
      expect(closed.status).toBe(200);
      await waitFor(() => !doc.getElementById('closed')!.hidden, 'closed bar');
      expect(list.textContent).toContain(texts.chatServer.closedNotice);
      expect(doc.getElementById('composer')!.hidden).toBe(true);
      expect((dom.window as unknown as { __xss?: number }).__xss).toBeUndefined();

      // A reload right after the goodbye shows the conversation, closed, with 'Iniciar nova conversa'.
      const again = await openWidget('site-vendas', visitorKey!);
      try {
        const doc2 = again.window.document;
        await waitFor(() => doc2.getElementById('messages')!.textContent!.includes(texts.chatServer.closedNotice), 'closed conversation after a reload');
        expect(doc2.getElementById('messages')!.textContent).toContain('Quero saber o preço');
        expect(doc2.getElementById('closed')!.hidden).toBe(false);
        expect(doc2.getElementById('start')!.hidden).toBe(true);
        expect(doc2.getElementById('composer')!.hidden).toBe(true);
        (doc2.getElementById('restart') as HTMLButtonElement).click();
        expect(doc2.getElementById('start')!.hidden).toBe(false);
      } finally {
        closeWidget(again);
      }
    } finally {
      closeWidget(dom);
    }
  });
});
