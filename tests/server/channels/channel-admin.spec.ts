import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hubSignature } from '@atendimento/integrations';
import type { Room } from '@atendimento/schemas';
import { META, startWhatsappServer, stopWhatsappServer, type WhatsappTest } from '../whatsapp/whatsapp-helpers';
import { waitFor } from '../../helpers/wait-for';

/**
 * The channels screen's API (docs/channels.md "The channels screen"): an admin adds a Meta
 * channel without touching the database, the local Meta server posts to the webhook URL the
 * answer shows, and the customer's message lands in the department's queue. Secrets are
 * sealed at rest and never come back: every answer, the stored row and the log are searched
 * for their values.
 */

const SECRETS = { accessToken: META.accessToken, appSecret: 'segredo-novo-do-app-tela-canais' };
const logLines: string[] = [];
let t: WhatsappTest;
let admin: string;

const allText = () => logLines.join('\n');

beforeAll(async () => {
  const logger = pino({ level: 'debug' }, new Writable({ write(chunk, _enc, done) { logLines.push(String(chunk)); done(); } }));
  t = await startWhatsappServer({ logger });
  admin = t.tokens.admin;
});
afterAll(() => stopWhatsappServer(t));

function expectNoSecret(text: string, ...values: string[]) {
  for (const value of values) expect(text).not.toContain(value);
}

describe('channels screen API', () => {
  let channelId = '';
  let webhookUrl = '';
  const answers: string[] = [];

  it('creates a Meta channel: the answer says which secrets are set, never their values, and shows the webhook URL and verify token', async () => {
    const res = await t.api('/api/admin/channels', {
      method: 'POST', token: admin,
      body: {
        type: 'meta', displayName: 'WhatsApp Vendas', departmentId: 'vendas', color: '#25D366', menuOrder: 3, claims: { closeChat: true },
        settings: { baseUrl: t.graph.baseUrl, apiVersion: 'v21.0', phoneNumberId: META.phoneNumberId, businessAccountId: META.businessAccountId, ...SECRETS },
      },
    });
    expect(res.status).toBe(201);
    answers.push(res.text);
    const view = res.body.data;
    channelId = view.id;
    expect(view.secretsSet).toEqual({ accessToken: true, appSecret: true });
    expect(view.settings.phoneNumberId).toBe(META.phoneNumberId);
    expect(typeof view.settings.verifyToken).toBe('string');
    expect(view.webhookUrl).toBe(`http://${t.hosts.acme}/api/webhooks/whatsapp/${channelId}`);
    expectNoSecret(res.text, ...Object.values(SECRETS));
    expect(res.headers['cache-control']).toBe('no-store');
    webhookUrl = view.webhookUrl;
  });

  it('stores the secrets sealed (AES-GCM), not in plain text', async () => {
    const row = await t.server.db('channels').where({ tenant_id: 'acme', id: channelId }).first('data');
    const raw = typeof row.data === 'string' ? row.data : JSON.stringify(row.data);
    expectNoSecret(raw, ...Object.values(SECRETS));
    expect(raw).toContain('sealed:v1:');
  });

  it('a customer message posted by the local Meta server to the shown URL lands in the department queue', async () => {
    // The local server reaches us on 127.0.0.1 (the default tenant here is acme), same path.
    t.graph.setWebhookUrl(`${t.baseUrl}${new URL(webhookUrl).pathname}`);
    // The local server signs with its own app secret: the admin types that one.
    const put = await t.api(`/api/admin/channels/${channelId}`, { method: 'PUT', token: admin, body: { displayName: 'WhatsApp Vendas', settings: { appSecret: META.appSecret } } });
    expect(put.status).toBe(200);
    answers.push(put.text);
    await t.graph.customerSays({ phone: '5511955554444', name: 'Cliente Tela Canais' }, { type: 'text', text: { body: 'Olá pela tela de canais' } });
    expect(t.graph.webhookResults.at(-1)?.status).toBe(200);
    const room = await waitFor(async () => {
      const queue = await t.api('/api/rooms?tab=queuesChats', { token: t.tokens.agente });
      return (queue.body.data as Room[]).find((r) => r.channelId === channelId) ?? null;
    }, 'the room of the new channel in the vendas queue');
    expect(room.departmentId).toBe('vendas');
    // The agent of another department does not see it.
    const other = await t.api('/api/rooms?tab=queuesChats', { token: t.tokens.suporte });
    expect((other.body.data as Room[]).some((r) => r.channelId === channelId)).toBe(false);
  });

  it('after a rotation the previous app secret still verifies during the grace period; a wrong one does not', async () => {
    const put = await t.api(`/api/admin/channels/${channelId}`, { method: 'PUT', token: admin, body: { displayName: 'WhatsApp Vendas', settings: { appSecret: SECRETS.appSecret } } });
    expect(put.status).toBe(200);
    answers.push(put.text);
    const raw = Buffer.from(JSON.stringify({ object: 'whatsapp_business_account', entry: [] }));
    const path = `/api/webhooks/whatsapp/${channelId}`;
    expect((await t.post(path, raw, { 'x-hub-signature-256': hubSignature(META.appSecret, raw) })).status).toBe(200);
    expect((await t.post(path, raw, { 'x-hub-signature-256': hubSignature(SECRETS.appSecret, raw) })).status).toBe(200);
    expect((await t.post(path, raw, { 'x-hub-signature-256': hubSignature('outro-segredo', raw) })).status).toBe(403);
  });

  it('a new secret verifies the very next delivery, although the webhook path remembers channels for a moment', async () => {
    const raw = Buffer.from(JSON.stringify({ object: 'whatsapp_business_account', entry: [] }));
    const path = `/api/webhooks/whatsapp/${channelId}`;
    const fresh = 'segredo-trocado-agora-mesmo';
    // A delivery just before the edit puts the channel in the webhook path's memory (docs/ingest.md).
    expect((await t.post(path, raw, { 'x-hub-signature-256': hubSignature(SECRETS.appSecret, raw) })).status).toBe(200);
    expect((await t.post(path, raw, { 'x-hub-signature-256': hubSignature(fresh, raw) })).status).toBe(403);
    const put = await t.api(`/api/admin/channels/${channelId}`, { method: 'PUT', token: admin, body: { displayName: 'WhatsApp Vendas', settings: { appSecret: fresh } } });
    expect(put.status).toBe(200);
    expect((await t.post(path, raw, { 'x-hub-signature-256': hubSignature(fresh, raw) })).status).toBe(200);
    const back = await t.api(`/api/admin/channels/${channelId}`, { method: 'PUT', token: admin, body: { displayName: 'WhatsApp Vendas', settings: { appSecret: SECRETS.appSecret } } });
    expect(back.status).toBe(200);
  });

  it('"Testar conexão" calls the provider and answers in Portuguese', async () => {
    const ok = await t.api(`/api/admin/channels/${channelId}/test`, { method: 'POST', token: admin });
    expect(ok.status).toBe(200);
    expect(ok.body.data.ok).toBe(true);
    expect(ok.body.data.message).toMatch(/^Conexão bem-sucedida/);
    answers.push(ok.text);
    const bad = await t.api(`/api/admin/channels/${channelId}`, { method: 'PUT', token: admin, body: { displayName: 'WhatsApp Vendas', settings: { accessToken: 'token-errado-xyz' } } });
    expect(bad.status).toBe(200);
    const refused = await t.api(`/api/admin/channels/${channelId}/test`, { method: 'POST', token: admin });
    expect(refused.body.data).toEqual({ ok: false, message: 'O provedor recusou as credenciais (token ou chave inválidos).' });
    expectNoSecret(refused.text + bad.text, 'token-errado-xyz');
    await t.api(`/api/admin/channels/${channelId}`, { method: 'PUT', token: admin, body: { displayName: 'WhatsApp Vendas', settings: { accessToken: META.accessToken } } });
  });

  it('lists channels (the seeded ones too) without any secret value', async () => {
    const list = await t.api('/api/admin/channels', { token: admin });
    expect(list.status).toBe(200);
    answers.push(list.text);
    const one = await t.api(`/api/admin/channels/${channelId}`, { token: admin });
    answers.push(one.text);
    const lookup = await t.api('/api/lookup/channels', { token: admin });
    answers.push(lookup.text);
    const rooms = await t.api('/api/rooms?tab=queuesChats', { token: admin });
    answers.push(rooms.text);
    expect(list.body.data.map((c: { id: string }) => c.id)).toEqual(expect.arrayContaining(['wa-meta', 'wa-360', 'wa-zapi', channelId]));
    expect(list.body.types.map((x: { type: string }) => x.type)).toEqual(expect.arrayContaining(['meta', 'dialog360', 'zApi', 'mail']));
    expectNoSecret(answers.join('\n'), ...Object.values(SECRETS), META.appSecret, 'token-errado-xyz', 'segredo-360', 'chave-360', 'TOKINST', 'CLIENTTOK', 'segredo-zapi-na-url');
  });

  it('validation errors are 400 in Portuguese, per field', async () => {
    const cases: [unknown, string, RegExp][] = [
      [{ type: 'meta', displayName: '' }, 'displayName', /Informe o nome do canal/],
      [{ type: 'telegram', displayName: 'X' }, 'type', /Tipo de canal inválido/],
      [{ type: 'meta', displayName: 'X', departmentId: 'nao-existe', settings: {} }, 'departmentId', /Departamento não encontrado/],
      [{ type: 'meta', displayName: 'X', settings: { phoneNumberId: '1' } }, 'settings.businessAccountId', /Informe ID da conta/],
      [{ type: 'meta', displayName: 'X', settings: { baseUrl: 'javascript:alert(1)', phoneNumberId: '1', businessAccountId: '2', accessToken: 'a', appSecret: 'b' } }, 'settings.baseUrl', /URL da API inválido/],
      [{ type: 'meta', displayName: 'X', settings: { senha: 'x' } }, 'settings.senha', /Configuração desconhecida/],
      [{ type: 'meta', displayName: 'X', color: 'azul' }, 'color', /Cor inválida/],
      [{ type: 'meta', displayName: 'X', extra: 1 }, '', /./],
    ];
    for (const [body, field, message] of cases) {
      const res = await t.api('/api/admin/channels', { method: 'POST', token: admin, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('validation_failed');
      expect(res.body.errorMessage).toMatch(message);
      if (field) expect(res.body.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    const locked = await t.api(`/api/admin/channels/${channelId}`, { method: 'PUT', token: admin, body: { type: 'zApi', displayName: 'X' } });
    expect(locked.status).toBe(400);
    expect(locked.body.errorMessage).toMatch(/não pode ser alterado/);
  });

  it('only admins of the tenant: supervisor, agent, agent with a screen claim, another tenant', async () => {
    const callers = {
      supervisor: await t.tokenFor('acme', 'acme-supervisor'),
      agente: t.tokens.agente,
      outraAdmin: await t.tokenFor('outra', 'outra-admin'),
    };
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/admin/channels'],
      ['GET', `/api/admin/channels/${channelId}`],
      ['POST', '/api/admin/channels', { type: 'meta', displayName: 'Intruso' }],
      ['PUT', `/api/admin/channels/${channelId}`, { displayName: 'Intruso' }],
      ['POST', `/api/admin/channels/${channelId}/test`],
    ];
    for (const [who, token] of Object.entries(callers)) {
      for (const [method, path, body] of calls) {
        const res = await t.api(path, { method, token, body });
        const expected = who === 'outraAdmin' ? 401 : 403;
        expect(res.status, `${who} ${method} ${path}`).toBe(expected);
        expectNoSecret(res.text, ...Object.values(SECRETS));
      }
    }
    // Another tenant's admin on its own host does not find acme's channel.
    const outra = await t.api(`/api/admin/channels/${channelId}`, { token: callers.outraAdmin, host: t.hosts.outra });
    expect(outra.status).toBe(404);
  });

  it('nothing logged carries a secret value', () => {
    expect(logLines.length).toBeGreaterThan(0);
    expectNoSecret(allText(), ...Object.values(SECRETS), META.appSecret, 'token-errado-xyz');
  });
});
