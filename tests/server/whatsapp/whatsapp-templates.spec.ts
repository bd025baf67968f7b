import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages as texts } from '@atendimento/schemas';
import { META, TEMPLATES, fixture, startWhatsappServer, stopWhatsappServer, type WhatsappTest } from './whatsapp-helpers';

let t: WhatsappTest;
beforeAll(async () => {
  t = await startWhatsappServer({ autoStatuses: false });
});
afterAll(() => stopWhatsappServer(t));

const sync = (token: string) => t.api('/api/cronjob/proccess/syncTemplates', { method: 'POST', body: {}, token });

describe('templates: sync (admin) and list', () => {
  it('pages through the provider lists and serves one set per channel', async () => {
    expect((await sync(t.tokens.agente)).status).toBe(403);
    expect((await t.api('/api/templates', { token: t.tokens.agente })).body).toEqual({ meta: { count: 0 }, data: [] });
    const res = await sync(t.tokens.admin);
    expect(res.status, res.text).toBe(200);
    expect(res.body.meta).toMatchObject({ ok: true, message: texts.chat.templatesSynced, channels: 2, templates: TEMPLATES.length + 3 });

    const list = await t.api('/api/templates', { token: t.tokens.agente });
    expect(list.status).toBe(200);
    expect(list.body.meta.count).toBe(2);
    const meta = list.body.data.find((s: { channels: string[] }) => s.channels[0] === 'wa-meta');
    // 130 templates = two Graph pages (100 + 30), nothing lost or repeated.
    expect(meta.templates).toHaveLength(130);
    expect(new Set(meta.templates.map((x: { name: string }) => x.name)).size).toBe(130);
    expect(meta.templates[0]).toMatchObject({ name: 'boas_vindas', elementName: 'boas_vindas', language: 'pt_BR', status: 'APPROVED', origin: 'meta', components: [{ type: 'BODY' }] });
    const d360 = list.body.data.find((s: { channels: string[] }) => s.channels[0] === 'wa-360');
    expect(d360.templates.map((x: { name: string; status: string }) => [x.name, x.status])).toEqual([['boas_vindas', 'APPROVED'], ['aviso_1', 'APPROVED'], ['aviso_2', 'APPROVED']]);
    expect(d360.templates[0]).toMatchObject({ origin: 'dialog360', namespace: 'demo_namespace' });
    // Credentials never travel with the templates.
    expect(list.text).not.toContain(META.accessToken);
  });

  it('a template status webhook keeps the list fresh', async () => {
    const body = JSON.parse(fixture('whatsapp', 'template_status_update_rejected.json').toString('utf8'));
    Object.assign(body.entry[0].changes[0].value, { message_template_id: '', message_template_name: 'boas_vindas', message_template_language: 'pt_BR', event: 'REJECTED' });
    expect((await t.postMeta('wa-meta', Buffer.from(JSON.stringify(body)))).status).toBe(200);
    const list = await t.api('/api/templates', { token: t.tokens.agente });
    const meta = list.body.data.find((s: { channels: string[] }) => s.channels[0] === 'wa-meta');
    expect(meta.templates.find((x: { name: string }) => x.name === 'boas_vindas').status).toBe('REJECTED');
  });

  it("a provider failure answers 'Falha ao Sincronizar' and keeps the previous lists", async () => {
    await t.addChannel('wa-quebrado', 'meta', { baseUrl: 'http://127.0.0.1:1', apiVersion: 'v21.0', ...META });
    const res = await sync(t.tokens.admin);
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ error: 'template_sync_failed', errorMessage: texts.chat.templatesSyncFailed });
    const list = await t.api('/api/templates', { token: t.tokens.agente });
    expect(list.body.data.find((s: { channels: string[] }) => s.channels[0] === 'wa-meta').templates).toHaveLength(130);
  });
});
