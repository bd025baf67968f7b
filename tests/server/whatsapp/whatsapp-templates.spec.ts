import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages as texts } from '@atendimento/schemas';
import { META, TEMPLATES, fixture, startWhatsappServer, stopWhatsappServer, type WhatsappTest } from './whatsapp-helpers';

let t: WhatsappTest;
beforeAll(async () => {
  t = await startWhatsappServer({ autoStatuses: false });
});
afterAll(() => stopWhatsappServer(t));

const sync = (token: string) => t.api('/api/cronjob/proccess/syncTemplates', { method: 'POST', body: {}, token });

type Set = { channels: string[]; origin: string; templates: { name: string; language: string; status: string }[] };
const list = async (query = '', token = t.tokens.agente, host?: string) => {
  const res = await t.api(`/api/templates${query}`, { token, ...(host && { host }) });
  expect(res.status, res.text).toBe(200);
  return res.body as { meta: { count: number; limit: number; offset: number; next: number | null }; data: Set[] };
};

describe('templates: sync (admin) into their table, list by page', () => {
  it('pages through the provider lists and stores one row per template', async () => {
    expect((await sync(t.tokens.agente)).status).toBe(403);
    expect(await list()).toEqual({ meta: { count: 0, limit: 100, offset: 0, next: null }, data: [] });
    // A row the provider no longer lists is removed by the sync.
    const iso = new Date().toISOString();
    await t.server.db('whatsapp_templates').insert({ tenant_id: 'acme', channel_id: 'wa-meta', name: 'antigo', language: 'pt_BR', status: 'APPROVED', origin: 'meta', components: '[]', synced_at: iso, updated_at: iso });
    const res = await sync(t.tokens.admin);
    expect(res.status, res.text).toBe(200);
    expect(res.body.meta).toMatchObject({ ok: true, message: texts.chat.templatesSynced, channels: 2, templates: TEMPLATES.length + 3 });
    expect(Number((await t.server.db('whatsapp_templates').where({ tenant_id: 'acme' }).count({ n: '*' }))[0]!.n)).toBe(TEMPLATES.length + 3);
    expect(await t.server.db('whatsapp_templates').where({ tenant_id: 'acme', name: 'antigo' }).first()).toBeUndefined();

    const all = await list('?limit=500');
    expect(all.meta).toEqual({ count: 133, limit: 500, offset: 0, next: null });
    expect(all.data.map((set) => [set.channels[0], set.origin, set.templates.length])).toEqual([['wa-360', 'dialog360', 3], ['wa-meta', 'meta', 130]]);
    const meta = all.data[1]!;
    // 130 templates = two Graph pages (100 + 30), nothing lost or repeated.
    expect(new Set(meta.templates.map((x) => x.name)).size).toBe(130);
    expect(meta.templates.find((x) => x.name === 'boas_vindas')).toMatchObject({ name: 'boas_vindas', elementName: 'boas_vindas', language: 'pt_BR', status: 'APPROVED', origin: 'meta', components: [{ type: 'BODY' }] });
    expect(all.data[0]!.templates.map((x) => [x.name, x.status])).toEqual([['aviso_1', 'APPROVED'], ['aviso_2', 'APPROVED'], ['boas_vindas', 'APPROVED']]);
    expect(all.data[0]!.templates[0]).toMatchObject({ origin: 'dialog360', namespace: 'demo_namespace' });
    // Credentials never travel with the templates.
    expect(JSON.stringify(all)).not.toContain(META.accessToken);
  });

  it('reads page by page, filtered by channel, status, language and name, only the caller tenant', async () => {
    const names: string[] = [];
    let offset: number | null = 0;
    let pages = 0;
    while (offset !== null) {
      const page = await list(`?channelId=wa-meta&limit=50&offset=${offset}`);
      expect(page.meta.count).toBe(130);
      names.push(...page.data.flatMap((set) => set.templates.map((x) => x.name)));
      offset = page.meta.next;
      pages++;
    }
    expect(pages).toBe(3);
    expect(new Set(names).size).toBe(130);
    const approvedPt = TEMPLATES.filter((x) => x.status === 'APPROVED' && x.language === 'pt_BR').length;
    const filtered = await list('?channelId=wa-meta&status=APPROVED&language=pt_BR,pt_PT&limit=500');
    expect(filtered.meta.count).toBe(approvedPt);
    expect(filtered.data[0]!.templates.every((x) => x.status === 'APPROVED' && x.language === 'pt_BR')).toBe(true);
    expect((await list('?q=boas')).data.flatMap((set) => set.templates.map((x) => x.name))).toEqual(['boas_vindas', 'boas_vindas']);
    // Another tenant sees none of acme's templates.
    const outra = await list('', await t.tokenFor('outra', 'outra-admin'), t.hosts.outra);
    expect(outra.meta.count).toBe(0);
    for (const bad of ['?limit=0', '?limit=501', '?limit=abc', '?offset=-1', '?language=pt%27BR']) {
      const res = await t.api(`/api/templates${bad}`, { token: t.tokens.agente });
      expect(res.status, bad).toBe(400);
      expect(res.body.errorMessage).toBe(texts.validation.invalidValue);
    }
  });

  it('a template status webhook keeps the stored row fresh', async () => {
    const body = JSON.parse(fixture('whatsapp', 'template_status_update_rejected.json').toString('utf8'));
    Object.assign(body.entry[0].changes[0].value, { message_template_id: '', message_template_name: 'boas_vindas', message_template_language: 'pt_BR', event: 'REJECTED', reason: 'INCORRECT_CATEGORY' });
    expect((await t.postMeta('wa-meta', Buffer.from(JSON.stringify(body)))).status).toBe(200);
    const row = await t.server.db('whatsapp_templates').where({ tenant_id: 'acme', channel_id: 'wa-meta', name: 'boas_vindas', language: 'pt_BR' }).first();
    expect(row).toMatchObject({ status: 'REJECTED', reason: 'INCORRECT_CATEGORY' });
    // Only that channel's row: 360dialog's boas_vindas stays approved.
    expect((await t.server.db('whatsapp_templates').where({ tenant_id: 'acme', channel_id: 'wa-360', name: 'boas_vindas' }).first()).status).toBe('APPROVED');
    const approved = await list('?channelId=wa-meta&status=APPROVED&q=boas');
    expect(approved.meta.count).toBe(0);
    // By provider id, and REINSTATED means approved again.
    await t.server.db('whatsapp_templates').where({ tenant_id: 'acme', channel_id: 'wa-meta', name: 'boas_vindas' }).update({ provider_id: '9988' });
    Object.assign(body.entry[0].changes[0].value, { message_template_id: '9988', message_template_name: 'outro_nome', event: 'REINSTATED' });
    expect((await t.postMeta('wa-meta', Buffer.from(JSON.stringify(body)))).status).toBe(200);
    expect((await list('?channelId=wa-meta&status=APPROVED&q=boas')).meta.count).toBe(1);
  });

  it("a provider failure answers 'Falha ao Sincronizar' and keeps the previous rows", async () => {
    await t.addChannel('wa-quebrado', 'meta', { baseUrl: 'http://127.0.0.1:1', apiVersion: 'v21.0', ...META });
    const res = await sync(t.tokens.admin);
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ error: 'template_sync_failed', errorMessage: texts.chat.templatesSyncFailed });
    expect((await list('?channelId=wa-meta')).meta.count).toBe(130);
  });
});
