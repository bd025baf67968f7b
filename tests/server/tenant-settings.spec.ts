import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingsOf, type AppConfig } from '@atendimento/schemas';
import { createLgpdRepository } from '@atendimento/server/db/repositories/lgpd-repository';
import { push, startChatServer, stopChatServer, visitorStarts, type ChatTest } from './chat/chat-helpers';
import { connectClient } from './realtime/realtime-helpers';
import { waitFor } from '../helpers/wait-for';

/**
 * The tenant settings screen's API (docs/tenancy.md "Settings"): the grouped settings document
 * validated with its JSON Schema (pt-BR messages per field), applied at once (the close rules
 * the server enforces follow), announced on the `appConfig` live collection, and audited.
 */
let t: ChatTest;
let admin: string;
beforeAll(async () => {
  t = await startChatServer();
  admin = await t.tokenFor('acme', 'acme-admin');
});
afterAll(() => stopChatServer(t));

async function current() {
  const res = await t.api('/api/tenant-settings', { token: admin });
  expect(res.status).toBe(200);
  return res.body as { data: ReturnType<typeof settingsOf>; schema: object; uiSchema: Record<string, unknown>; validatorUrl: string };
}

describe('tenant settings', () => {
  it('answers the grouped document, its schema with a pt-BR help per claim, and a validator module', async () => {
    const body = await current();
    expect(Object.keys(body.data)).toEqual(['atendimento', 'encerramento', 'transferencia', 'pesquisas', 'aparencia', 'erp', 'visoes']);
    expect(body.data.atendimento.publicRegister).toBe(true);
    expect((body.schema as unknown as { properties: Record<string, { properties: Record<string, { title: string }> }> }).properties.encerramento!.properties.disableCloseChat?.title).toMatch(/Encerrar/);
    expect((body.uiSchema.encerramento as Record<string, { 'ui:help': string }>).disableCloseChat?.['ui:help']).toBe('Chave: disableCloseChat');
    const module = await t.api(body.validatorUrl.replace(/\?.*$/, ''));
    expect(module.status).toBe(200);
    expect(module.text).toContain('export default function load');
  });

  // Before any other test saves the settings: the seeded tenant has no remainInChat.
  it("shows 'continua no chat ao transferir' on while the tenant never set it, as the transfer applies it; off once saved off", async () => {
    const stored = (await t.api('/api/master/tenants/current/appConfig', { host: t.hosts.acme })).body.data as AppConfig;
    expect(stored.claims.remainInChat).toBeUndefined();
    const before = await current();
    expect(before.data.transferencia.remainInChat).toBe(true);
    const settings = structuredClone(before.data);
    settings.transferencia.remainInChat = false;
    expect((await t.api('/api/tenant-settings', { method: 'PUT', token: admin, body: settings })).status).toBe(200);
    expect((await current()).data.transferencia.remainInChat).toBe(false);
    const config = (await t.api('/api/master/tenants/current/appConfig', { host: t.hosts.acme })).body.data as AppConfig;
    expect(config.claims.remainInChat).toBe(false);
    expect((await t.api('/api/tenant-settings', { method: 'PUT', token: admin, body: before.data })).status).toBe(200);
  });

  it('a closing-justification change applies at once: the server demands one of the new list', async () => {
    const before = await current();
    const settings = structuredClone(before.data);
    settings.encerramento.justifies = ['Resolvido pela tela', 'Sem retorno'];
    settings.encerramento.reportOnly = false;
    // A signed-in app watching appConfig hears of it.
    const client = connectClient(t.baseUrl, t.hosts.acme, () => t.tokens.agente);
    const sub = client.subscribe('appConfig', {});
    const updates: string[] = [];
    sub.onUpdate((u) => updates.push(u.kind));
    await waitFor(() => updates.includes('snapshot'), 'appConfig snapshot');

    const saved = await t.api('/api/tenant-settings', { method: 'PUT', token: admin, body: settings });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.data.encerramento.justifies).toEqual(['Resolvido pela tela', 'Sem retorno']);
    await waitFor(() => updates.includes('changes'), 'appConfig change');
    client.close();

    const config = (await t.api('/api/master/tenants/current/appConfig', { host: t.hosts.acme })).body.data as AppConfig;
    expect(config.closeJustify.justifies).toEqual(['Resolvido pela tela', 'Sem retorno']);
    // Untouched parts of the configuration are kept.
    expect(config.claims.publicRegister).toBe(true);

    const visitor = await visitorStarts(t, 'site-vendas', 'Quero fechar');
    await push(t, t.tokens.agente, visitor.roomId!);
    const refused = await t.api(`/api/rooms/${visitor.roomId}/close`, { method: 'PATCH', body: { closedBy: { justify: 'Resolvido' } }, token: t.tokens.agente });
    expect(refused.status).toBe(400);
    const accepted = await t.api(`/api/rooms/${visitor.roomId}/close`, { method: 'PATCH', body: { closedBy: { justify: 'Sem retorno' } }, token: t.tokens.agente });
    expect(accepted.status, accepted.text).toBe(200);
  });

  it('records who changed what, when, before and after, for admins', async () => {
    const res = await t.api('/api/tenant-settings/audit', { token: admin });
    expect(res.status).toBe(200);
    const [entry] = res.body.data;
    expect(entry.userName).toBe('Admin Acme');
    expect(entry.userId).toBe('acme-admin');
    expect(Date.parse(entry.at)).not.toBeNaN();
    expect(entry.changes).toEqual(expect.arrayContaining([{ field: 'encerramento.justifies', before: expect.any(Array), after: ['Resolvido pela tela', 'Sem retorno'] }]));
    expect(entry.changes.find((c: { field: string }) => c.field === 'atendimento.publicRegister')).toBeUndefined();
  });

  it('refuses invalid settings with pt-BR messages per field and changes nothing', async () => {
    const before = await current();
    const cases: [(s: ReturnType<typeof settingsOf>) => void, string, RegExp][] = [
      [(s) => { s.encerramento.nextMaxDate = 0; }, 'encerramento.nextMaxDate', /entre 1 e 5000/],
      [(s) => { (s.aparencia.statusList as { text: string; color: string }[]).push({ text: 'pausa', color: 'verde' }); }, 'aparencia.statusList.3.color', /Cor inválida/],
      [(s) => { s.erp.urls = ['ftp://erp']; }, 'erp.urls.0', /http\(s\)/],
      [(s) => { s.aparencia.toastPosition = 'meio'; }, 'aparencia.toastPosition', /Escolha uma posição/],
      [(s) => { s.encerramento.justifies = ['']; }, 'encerramento.justifies.0', /Preencha justificativa/],
    ];
    for (const [change, field, message] of cases) {
      const settings = structuredClone(before.data);
      change(settings);
      const res = await t.api('/api/tenant-settings', { method: 'PUT', token: admin, body: settings });
      expect(res.status, field).toBe(400);
      expect(res.body.error).toBe('validation_failed');
      const hit = (res.body.fields as { field: string; message: string }[]).find((f) => f.field === field);
      expect(hit?.message, JSON.stringify(res.body.fields)).toMatch(message);
    }
    const unknown = await t.api('/api/tenant-settings', { method: 'PUT', token: admin, body: { ...before.data, segredo: 1 } });
    expect(unknown.status).toBe(400);
    expect((await current()).data).toEqual(before.data);
  });

  it('saves the tenant time zone onto app_config.timeZone, audited; an unknown zone answers 400 in Portuguese', async () => {
    const before = await current();
    expect(before.data.atendimento.timeZone).toBe('America/Sao_Paulo');
    expect((before.schema as { properties: { atendimento: { properties: { timeZone: { title: string; enum: string[] } } } } }).properties.atendimento.properties.timeZone).toMatchObject({ title: 'Fuso horário', enum: expect.arrayContaining(['America/Manaus']) });

    const bad = structuredClone(before.data);
    bad.atendimento.timeZone = 'America/Atlantida';
    const refused = await t.api('/api/tenant-settings', { method: 'PUT', token: admin, body: bad });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'validation_failed', errorMessage: 'Dados inválidos: Escolha um fuso horário da lista' });
    expect(refused.body.fields).toEqual([{ field: 'atendimento.timeZone', message: 'Escolha um fuso horário da lista' }]);
    expect((await current()).data).toEqual(before.data);

    const settings = structuredClone(before.data);
    settings.atendimento.timeZone = 'America/Manaus';
    const saved = await t.api('/api/tenant-settings', { method: 'PUT', token: admin, body: settings });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.data.atendimento.timeZone).toBe('America/Manaus');
    const config = (await t.api('/api/master/tenants/current/appConfig', { host: t.hosts.acme })).body.data as AppConfig;
    expect(config.timeZone).toBe('America/Manaus');
    const [entry] = (await t.api('/api/tenant-settings/audit', { token: admin })).body.data;
    expect(entry.changes).toEqual([{ field: 'atendimento.timeZone', before: 'America/Sao_Paulo', after: 'America/Manaus' }]);

    const back = await t.api('/api/tenant-settings', { method: 'PUT', token: admin, body: before.data });
    expect(back.status, back.text).toBe(200);
  });

  it('edits the claims the console reads (transfer, lists, composer) onto app_config.claims', async () => {
    const before = await current();
    const settings = structuredClone(before.data);
    Object.assign(settings.transferencia, { transferWithQueue: true, disableChooseQueue: true });
    Object.assign(settings.aparencia, { ascOrder: true, disableCopyToast: true });
    Object.assign(settings.atendimento, { fixedDDI: true, fixedMessages: true, hideBlockedContacts: true, disableQueuesTab: true });
    const saved = await t.api('/api/tenant-settings', { method: 'PUT', token: admin, body: settings });
    expect(saved.status, saved.text).toBe(200);
    const config = (await t.api('/api/master/tenants/current/appConfig', { host: t.hosts.acme })).body.data as AppConfig;
    expect(config.claims).toMatchObject({ transferWithQueue: true, disableChooseQueue: true, ascOrder: true, disableCopyToast: true, fixedDDI: true, fixedMessages: true, hideBlockedContacts: true, disableQueuesTab: true, publicRegister: true });
    const back = await t.api('/api/tenant-settings', { method: 'PUT', token: admin, body: before.data });
    expect(back.status, back.text).toBe(200);
  });

  it('saves the LGPD retention onto app_config.retention (read by the retention clock), audited; bad days answer 400 in Portuguese', async () => {
    const before = await current();
    expect(before.data.encerramento.retention).toEqual({ closedChatsDays: null, mediaDays: null });
    const put = (settings: unknown) => t.api('/api/tenant-settings', { method: 'PUT', token: admin, body: settings });

    const tooLong = structuredClone(before.data);
    tooLong.encerramento.retention = { closedChatsDays: 5000 };
    const refused = await put(tooLong);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'validation_failed', errorMessage: expect.stringMatching(/^Dados inválidos: Informe um número inteiro de dias entre 0 e 3650/) });
    expect(refused.body.fields).toEqual([{ field: 'encerramento.retention.closedChatsDays', message: expect.stringMatching(/entre 0 e 3650/) }]);
    // Files kept longer than the chats they belong to: the service's own rule.
    const mediaAfterChats = structuredClone(before.data);
    mediaAfterChats.encerramento.retention = { closedChatsDays: 30, mediaDays: 90 };
    const crossed = await put(mediaAfterChats);
    expect(crossed.status).toBe(400);
    expect(crossed.body).toMatchObject({ error: 'validation_failed', errorMessage: 'Dados inválidos: Os arquivos devem ser apagados no máximo junto com os chats: informe até 30 dias' });
    expect(crossed.body.fields).toEqual([{ field: 'encerramento.retention.mediaDays', message: expect.stringMatching(/até 30 dias/) }]);
    expect((await current()).data).toEqual(before.data);

    const settings = structuredClone(before.data);
    settings.encerramento.retention = { closedChatsDays: 1825, mediaDays: 90 };
    const saved = await put(settings);
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.data.encerramento.retention).toEqual({ closedChatsDays: 1825, mediaDays: 90 });
    const config = (await t.api('/api/master/tenants/current/appConfig', { host: t.hosts.acme })).body.data as AppConfig;
    expect(config.retention).toEqual({ closedChatsDays: 1825, mediaDays: 90 });
    expect(config.claims.publicRegister).toBe(true);
    expect(await createLgpdRepository(t.server.db).tenantsWithRetention()).toContainEqual({ tenantId: 'acme', retention: { closedChatsDays: 1825, mediaDays: 90 } });
    const [entry] = (await t.api('/api/tenant-settings/audit', { token: admin })).body.data;
    expect(entry.changes).toEqual([
      { field: 'encerramento.retention.closedChatsDays', before: null, after: 1825 },
      { field: 'encerramento.retention.mediaDays', before: null, after: 90 },
    ]);

    const back = await put(before.data);
    expect(back.status, back.text).toBe(200);
    expect(((await t.api('/api/master/tenants/current/appConfig', { host: t.hosts.acme })).body.data as AppConfig).retention).toBeNull();
  });

  it("chatTabs (Visões) orders, renames and hides the chat tabs on the server too: a hidden tab answers 403, and it never grants one", async () => {
    const before = await current();
    const put = (settings: unknown) => t.api('/api/tenant-settings', { method: 'PUT', token: admin, body: settings });
    const status = async (tab: string, token: string) => (await t.api(`/api/rooms?tab=${tab}`, { token })).status;
    expect(await status('queuesChats', t.tokens.agente)).toBe(200);
    expect(await status('teamChats', t.tokens.agente)).toBe(403);

    const hideMine = structuredClone(before.data);
    hideMine.visoes.chatTabs = [{ id: 'userChats', hidden: true }];
    const refused = await put(hideMine);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'validation_failed', errorMessage: "Dados inválidos: A aba 'Meus' não pode ser oculta" });

    const settings = structuredClone(before.data);
    settings.visoes.chatTabs = [{ id: 'teamChats', label: 'Time' }, { id: 'allQueuesChats' }, { id: 'queuesChats', hidden: true }, { id: 'chatsHistories', label: 'Passados' }];
    const saved = await put(settings);
    expect(saved.status, saved.text).toBe(200);
    const config = (await t.api('/api/master/tenants/current/appConfig', { host: t.hosts.acme })).body.data as AppConfig;
    expect(config.chatTabs).toEqual([{ id: 'teamChats', label: 'Time' }, { id: 'allQueuesChats' }, { id: 'queuesChats', hidden: true }, { id: 'chatsHistories', label: 'Passados' }]);
    const [entry] = (await t.api('/api/tenant-settings/audit', { token: admin })).body.data;
    expect(entry.changes).toEqual([{ field: 'visoes.chatTabs', before: [], after: expect.any(Array) }]);

    // Hidden for everyone, admins included: the list, the live subscription and the counters.
    for (const token of [t.tokens.agente, t.tokens.supervisor, t.tokens.admin]) expect(await status('queuesChats', token)).toBe(403);
    const counters = (await t.api('/api/counter', { token: t.tokens.agente })).body.data.tabs;
    expect(counters.queuesChats).toBeUndefined();
    expect(counters.userChats).toBeDefined();
    // Listed, but the claims deny them to an agent (no supervisor, no enableAllQueuesTab): still 403.
    expect(await status('teamChats', t.tokens.agente)).toBe(403);
    expect(await status('allQueuesChats', t.tokens.agente)).toBe(403);
    expect(await status('teamChats', t.tokens.supervisor)).toBe(200);
    expect(await status('chatsHistories', t.tokens.agente)).toBe(200);
    expect(await status('userChats', t.tokens.agente)).toBe(200);

    const back = await put(before.data);
    expect(back.status, back.text).toBe(200);
    expect(await status('queuesChats', t.tokens.agente)).toBe(200);
  });

  it('only admins of the tenant read or change settings', async () => {
    const callers = { supervisor: await t.tokenFor('acme', 'acme-supervisor'), agente: t.tokens.agente, outraAdmin: await t.tokenFor('outra', 'outra-admin') };
    const before = await current();
    for (const [who, token] of Object.entries(callers)) {
      for (const [method, path, body] of [['GET', '/api/tenant-settings'], ['PUT', '/api/tenant-settings', before.data], ['GET', '/api/tenant-settings/audit']] as const) {
        const res = await t.api(path, { method, token, body });
        expect(res.status, `${who} ${method} ${path}`).toBe(who === 'outraAdmin' ? 401 : 403);
      }
    }
  });
});
