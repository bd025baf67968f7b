import { Writable } from 'node:stream';
import { pino } from 'pino';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { socketAs, startChatServer, stopChatServer, subscribe, settle, received, type ChatTest } from '../chat/chat-helpers';
import type { RawSocket } from '../realtime/realtime-helpers';
import { setTenantClaims } from '../registers/register-test-kit';

/**
 * Issue 21 "secrets never returned to the browser", beyond the channels screen's own routes
 * (channel-admin.spec.ts): an admin saves Meta, 360dialog, Z-API and e-mail channels with known
 * secret values (and rotates some, so `previous` holds old ones), then every other place a
 * browser can read channel data is searched for those values: the `channels` live collection
 * over /ws, the appConfig live collection and the app's configuration route, register exports
 * naming a channel, the OpenAPI document, the routes that list channels, and the log.
 */

const SECRETS = {
  metaAccessToken: 'meta-token-de-acesso-Xq7vK2',
  metaAppSecret: 'meta-chave-do-app-Lp4wZ9',
  metaAppSecretOld: 'meta-chave-antiga-Rt8nB3',
  d360ApiKey: 'd360-chave-api-Hy6mC1',
  d360WebhookSecret: 'd360-segredo-hook-Vb2sN5',
  zapiInstanceToken: 'zapi-token-instancia-Jd3kF8',
  zapiClientToken: 'zapi-client-token-Wm9pQ4',
  zapiWebhookSecret: 'zapi-segredo-url-Gc5tE7',
  zapiWebhookSecretOld: 'zapi-segredo-antigo-Ns1yU6',
  imapPassword: 'senha-imap-caixa-Ko2hA9',
  smtpPassword: 'senha-smtp-caixa-Zu8rD3',
};
const VALUES = Object.values(SECRETS);

const logLines: string[] = [];
let t: ChatTest;
let admin: string;
let adminSocket: RawSocket;
let agentSocket: RawSocket;
const ids: Record<'meta' | 'd360' | 'zapi' | 'mail', string> = { meta: '', d360: '', zapi: '', mail: '' };

function expectNoSecret(where: string, text: string) {
  for (const value of VALUES) expect(text, `${where} carries a secret`).not.toContain(value);
}

async function save(method: 'POST' | 'PUT', path: string, body: Record<string, unknown>) {
  const res = await t.api(path, { method, token: admin, body });
  expect(res.status, res.text).toBe(method === 'POST' ? 201 : 200);
  expectNoSecret(`${method} ${path}`, res.text);
  return res.body.data as { id: string; secretsSet: Record<string, boolean> };
}

beforeAll(async () => {
  const logger = pino({ level: 'debug' }, new Writable({ write(chunk, _enc, done) { logLines.push(String(chunk)); done(); } }));
  t = await startChatServer({ logger });
  admin = t.tokens.admin;
  await setTenantClaims(t, { metaChannel: true });
  await t.patchAppConfig({ api: true });
  // Subscribed before the saves, so the live frames of the creation and the rotation are seen too.
  adminSocket = await socketAs(t, admin);
  agentSocket = await socketAs(t, t.tokens.agente);
  await subscribe(adminSocket, 'canais', 'channels', {});
  await subscribe(agentSocket, 'canais', 'channels', {});
  await subscribe(adminSocket, 'config', 'appConfig', {});

  const meta = await save('POST', '/api/admin/channels', {
    type: 'meta', displayName: 'WhatsApp Segredos', departmentId: 'vendas', phoneNumber: '5511988887777',
    settings: { baseUrl: 'http://127.0.0.1:9', phoneNumberId: 'PN-SEG', businessAccountId: 'WABA-SEG', accessToken: SECRETS.metaAccessToken, appSecret: SECRETS.metaAppSecretOld },
  });
  ids.meta = meta.id;
  // A rotation keeps the old app secret in data.provider.previous for the grace period.
  await save('PUT', `/api/admin/channels/${meta.id}`, { displayName: 'WhatsApp Segredos', settings: { appSecret: SECRETS.metaAppSecret } });
  ids.d360 = (await save('POST', '/api/admin/channels', {
    type: 'dialog360', displayName: '360 Segredos', departmentId: 'vendas',
    settings: { baseUrl: 'http://127.0.0.1:9', apiKey: SECRETS.d360ApiKey, webhookSecret: SECRETS.d360WebhookSecret },
  })).id;
  const zapi = await save('POST', '/api/admin/channels', {
    type: 'zApi', displayName: 'Z-API Segredos', departmentId: 'suporte',
    settings: { baseUrl: 'http://127.0.0.1:9', instanceId: 'INST-SEG', instanceToken: SECRETS.zapiInstanceToken, clientToken: SECRETS.zapiClientToken, webhookSecret: SECRETS.zapiWebhookSecretOld },
  });
  ids.zapi = zapi.id;
  await save('PUT', `/api/admin/channels/${zapi.id}`, { displayName: 'Z-API Segredos', settings: { webhookSecret: SECRETS.zapiWebhookSecret } });
  const mail = await save('POST', '/api/admin/channels', {
    type: 'mail', displayName: 'E-mail Segredos', departmentId: 'vendas',
    settings: {
      fromAddress: 'vendas@acme.test',
      imap: { host: '127.0.0.1', port: 9, secure: false, user: 'vendas@acme.test', password: SECRETS.imapPassword },
      smtp: { host: '127.0.0.1', port: 9, secure: false, user: 'vendas@acme.test', password: SECRETS.smtpPassword },
    },
  });
  ids.mail = mail.id;
  expect(mail.secretsSet).toEqual({ 'imap.password': true, 'smtp.password': true });

  // The values really are stored (sealed), so a clean answer below means "not returned", not "never saved".
  const rows = await t.server.db('channels').where({ tenant_id: 'acme' }).whereIn('id', Object.values(ids)).select('data');
  expect(rows).toHaveLength(4);
  for (const row of rows) expect(String(typeof row.data === 'string' ? row.data : JSON.stringify(row.data))).toContain('sealed:v1:');
});
afterAll(() => stopChatServer(t));

describe('channel secrets never reach the browser (issue 21)', () => {
  it('the `channels` live collection over /ws carries the channels but none of their settings', async () => {
    await settle(t);
    for (const s of [adminSocket, agentSocket]) {
      const seen = received(s, 'canais');
      for (const id of Object.values(ids)) expect(seen.has(id), `live channel ${id}`).toBe(true);
      expect(seen.get(ids.meta)).toMatchObject({ displayName: 'WhatsApp Segredos', phoneNumber: '5511988887777' });
      for (const record of seen.values()) {
        expect(record).not.toHaveProperty('provider');
        expect(record).not.toHaveProperty('settings');
      }
      // Every frame, not only the latest version of each record (the creation, the rotation).
      expectNoSecret('/ws frames', JSON.stringify(s.frames));
    }
    // A fresh subscription's snapshot too.
    const late = await socketAs(t, t.tokens.supervisor);
    const snapshot = await subscribe(late, 'depois', 'channels', {});
    expect(snapshot.records.map((r) => r.id)).toEqual(expect.arrayContaining(Object.values(ids)));
    expectNoSecret('/ws snapshot', JSON.stringify(late.frames));
  });

  it("the tenant's configuration as the app loads it (REST and the appConfig live collection)", async () => {
    const config = await t.api('/api/master/tenants/current/appConfig');
    expect(config.status).toBe(200);
    expect(config.body.data.tenantId).toBe('acme');
    expectNoSecret('appConfig', config.text);
    const signedIn = await t.api('/api/master/tenants/current/appConfig', { token: admin });
    expectNoSecret('appConfig (signed in)', signedIn.text);
    const settings = await t.api('/api/tenant-settings', { token: admin });
    expect(settings.status).toBe(200);
    expectNoSecret('/api/tenant-settings', settings.text);
    await settle(t);
    expect(adminSocket.frames.some((f) => f.type === 'snapshot' && f.id === 'config')).toBe(true);
    expectNoSecret('appConfig frames', JSON.stringify(adminSocket.frames));
  });

  it('a register export naming the channel (QR codes: CSV and XLSX, list and record)', async () => {
    const qr = await t.api('/api/dm_qrcodes', { method: 'POST', token: admin, body: { prefilled_message: 'Olá, quero comprar', generate_qr_image: 'SVG', channelId: ids.meta } });
    expect(qr.status, qr.text).toBe(201);
    expect(qr.body.phoneNumber).toBe('5511988887777');
    expectNoSecret('POST /api/dm_qrcodes', qr.text);
    expectNoSecret('GET /api/dm_qrcodes', (await t.api('/api/dm_qrcodes', { token: admin })).text);
    expectNoSecret('GET /api/dm_qrcodes/:id', (await t.api(`/api/dm_qrcodes/${qr.body.id}`, { token: admin })).text);

    const csv = await t.api('/api/dm_qrcodes/getRawCsvDataReport', { token: admin });
    expect(csv.status).toBe(200);
    expect(csv.text).toContain('5511988887777');
    expectNoSecret('CSV export', csv.text);

    const xlsx = await fetch(`${t.baseUrl}/api/dm_qrcodes/getXlsxDataReport`, { headers: { authorization: `Bearer ${admin}` } });
    expect(xlsx.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await xlsx.arrayBuffer());
    const cells: string[] = [];
    for (const sheet of workbook.worksheets) sheet.eachRow((row) => row.eachCell((cell) => void cells.push(String(cell.value))));
    expect(cells.join('\n')).toContain('5511988887777');
    expectNoSecret('XLSX export', cells.join('\n'));
  });

  it('GET /api/openapi.json', async () => {
    const doc = await t.api('/api/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.paths['/api/admin/channels']).toBeTruthy();
    expectNoSecret('/api/openapi.json', doc.text);
  });

  it('GET /api/channels and every other route that answers channels', async () => {
    // There is no GET /api/channels: the app reads channels from the live collection.
    const plain = await t.api('/api/channels', { token: admin });
    expect(plain.status).toBe(404);
    expectNoSecret('/api/channels', plain.text);

    const contact = await t.api('/api/contacts', { method: 'POST', token: admin, body: { displayName: 'Cliente Segredos', phone: '5511977776666', channels: ['whatsapp'] } });
    expect(contact.status, contact.text).toBe(201);
    const routes: [string, number][] = [
      ['/api/admin/channels', 200],
      ...Object.values(ids).map((id): [string, number] => [`/api/admin/channels/${id}`, 200]),
      ['/api/lookup/channels', 200],
      ['/api/lookup/channels?type=meta', 200],
      [`/api/lookup/channels?ids=${Object.values(ids).join(',')}`, 200],
      [`/api/rooms/activeMessage/options?contactId=${contact.body.id}`, 200],
      ['/api/notifications/options', 200],
      [`/api/templates?channelId=${ids.meta}`, 200],
      ['/api/registers/definitions', 200],
      ['/api/rooms?tab=queuesChats', 200],
      ...Object.values(ids).map((id): [string, number] => [`/api/webchat/${id}/widget.js`, 404]),
    ];
    for (const [path, status] of routes) {
      for (const token of [admin, t.tokens.agente]) {
        const res = await t.api(path, { token });
        if (token === admin) expect(res.status, `${path} ${res.text.slice(0, 200)}`).toBe(status);
        expectNoSecret(path, res.text);
      }
    }
    const lookup = await t.api(`/api/lookup/channels?ids=${Object.values(ids).join(',')}`, { token: admin });
    expect(lookup.body.data.map((c: { id: string }) => c.id).sort()).toEqual(Object.values(ids).sort());
    // The public web-chat session refuses a channel that is not a web chat, without its settings.
    const session = await t.api(`/api/webchat/${ids.zapi}/session`, { method: 'POST', body: { text: 'Oi', displayName: 'Visitante', clientId: 'c-1' } });
    expect(session.status).toBeGreaterThanOrEqual(400);
    expectNoSecret('webchat session', session.text);
  });

  it('nothing logged carries a secret value', () => {
    const log = logLines.join('\n');
    for (const id of Object.values(ids)) expect(log).toContain(id); // the saves were logged, by id
    expectNoSecret('log', log);
  });
});
