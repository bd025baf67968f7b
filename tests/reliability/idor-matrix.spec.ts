import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteSpec } from '@atendimento/server/web/access';
import { channelRow, departmentRow } from '../helpers/rows';
import { multipart, MULTIPART_TYPE } from '../helpers/multipart';
import { startChatServer, stopChatServer, socketAs, type ChatTest } from '../server/chat/chat-helpers';
import { RawSocket } from '../server/realtime/realtime-helpers';

/**
 * R6 tenant isolation and IDOR: tenant 'outra' holds data marked SEGREDO-OUTRA (a
 * web-chat room with the visitor's and the agent's messages, a contact, its department and
 * channel). Acme's admin then walks EVERY registered route with outra's real ids in every path
 * parameter, every list/report/export route with outra's ids and marker in its filters, every
 * body-taking route with outra's ids in the usual body fields, and every live collection with
 * outra's ids in its query. Nothing may answer 5xx, no answer may carry outra's data, and every
 * row of outra is byte-for-byte the same afterwards. New routes join by being registered.
 */
const MARKER = 'SEGREDO-OUTRA';
const OUTRA = 'outra';

let t: ChatTest;
let outraIds: string[] = [];
let outraRoomId = '';
let outraVisitorToken = '';
let outraVisitorKey = '';
let outraAdmin = '';
let outraFileName = '';
const freshAdmin = () => t.tokenFor('acme', 'acme-admin');

/** Every table with a tenant column, with outra's rows in a stable order: the "before" and "after" of the matrix. */
async function outraRows(): Promise<Record<string, unknown[]>> {
  const db = t.server.db;
  const client = String(db.client.config.client);
  const tables: string[] = client === 'pg'
    ? (await db.select('table_name').from('information_schema.tables').whereRaw('table_schema = current_schema()')).map((r: { table_name: string }) => r.table_name)
    : (await db.select('name').from('sqlite_master').where('type', 'table')).map((r: { name: string }) => r.name);
  const out: Record<string, unknown[]> = {};
  for (const table of tables.sort()) {
    const columns = await db(table).columnInfo();
    if (!('tenant_id' in columns)) continue;
    const order = Object.keys(columns).sort();
    out[table] = await db(table).where('tenant_id', OUTRA).orderBy(order.map((column) => ({ column })));
  }
  return out;
}

async function seedOutra(): Promise<void> {
  const iso = t.server.clock.now().toISOString();
  const db = t.server.db;
  await db('departments').insert(departmentRow(OUTRA, { id: 'outra-dep', displayName: `${MARKER} Depto`, agents: ['outra-admin'] }, iso));
  await db('department_members').insert({ tenant_id: OUTRA, department_id: 'outra-dep', user_id: 'outra-admin', role: 'agent' });
  await db('channels').insert(channelRow(OUTRA, { id: 'site-outra', type: 'webchat', displayName: `${MARKER} Chat`, departmentId: 'outra-dep' }, iso));

  const host = t.hosts.outra;
  const session = await t.api('/api/webchat/site-outra/session', { method: 'POST', host, body: { text: `${MARKER} primeira mensagem`, displayName: `${MARKER} Visitante`, clientId: randomUUID() } });
  expect(session.status, session.text).toBe(200);
  outraRoomId = session.body.data.roomId;
  outraVisitorToken = session.body.data.accessToken;
  outraVisitorKey = session.body.data.visitorKey;
  const admin = (outraAdmin = await t.tokenFor(OUTRA, 'outra-admin'));
  expect((await t.api(`/api/rooms/${outraRoomId}/push`, { method: 'PATCH', host, token: admin, body: {} })).status).toBe(200);
  const reply = await t.api(`/api/rooms/${outraRoomId}/message`, { method: 'POST', host, token: admin, body: { text: `${MARKER} resposta do agente`, clientId: randomUUID() } });
  expect(reply.status, reply.text).toBeLessThan(300);
  const contact = await t.api('/api/contacts', { method: 'POST', host, token: admin, body: { displayName: `${MARKER} Contato`, email: 'segredo@outra.test', channels: ['webchat'] } });
  expect(contact.status, contact.text).toBeLessThan(300);
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');
  const file = await t.api(`/api/rooms/${outraRoomId}/message/file?type=image`, {
    method: 'POST', host, token: admin, headers: { 'content-type': MULTIPART_TYPE },
    body: multipart({ type: 'image' }, { name: `${MARKER}.png`, type: 'image/png', bytes: png }),
  });
  expect(file.status, file.text).toBeLessThan(300);
  outraFileName = /\/api\/files\/outra\/([^"?]+)/.exec(file.text)?.[1] ?? '';

  const ids = new Set<string>(['outra-admin', 'outra-dep', 'site-outra']);
  for (const rows of Object.values(await outraRows())) {
    for (const row of rows as Record<string, unknown>[]) {
      for (const key of ['id', 'external_id', 'room_id', 'contact_id']) if (typeof row[key] === 'string' && row[key]) ids.add(row[key] as string);
    }
  }
  outraIds = [...ids];
}

/** The route's path once per outra id, every parameter filled: ids by that id, the others by what reaches outra's data. */
function concretePaths(route: RouteSpec): [id: string, path: string][] {
  const params = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  if (params.length === 0) return [];
  const fill = (id: string) => route.path.replace(/:(\w+)/g, (_m, name: string) => {
    if (name === 'tenantId') return OUTRA;
    if (name === 'name') return outraFileName || id;
    if (name === 'index') return '0';
    if (name === 'file') return 'contacts.js';
    return encodeURIComponent(id);
  });
  return [...new Map(outraIds.map((id) => [fill(id), id] as const))].map(([path, id]) => [id, path]);
}

const bodyFor = (route: RouteSpec, id: string): unknown =>
  route.method === 'GET' || route.method === 'DELETE'
    ? undefined
    : { id, ids: [id], roomId: id, roomIds: [id], contactId: id, chatId: id, channelId: id, departmentId: id, messageId: id, userId: id, text: 'x', clientId: randomUUID() };

/** Routes whose side effects would end the caller's own session or sign-in state; their tenant checks are in tests/server/auth.spec.ts. */
const SESSION_ROUTES = /^\/api\/(auth|profile)\b/;

let before: Record<string, unknown[]>;
beforeAll(async () => {
  t = await startChatServer();
  await seedOutra();
  before = await outraRows();
}, 60_000);
afterAll(() => stopChatServer(t));

describe('R6 tenant isolation and IDOR', () => {
  it('has outra data to aim at', async () => {
    expect(outraRoomId).toBeTruthy();
    expect(outraFileName).toBeTruthy();
    expect(outraIds.length).toBeGreaterThan(5);
    expect(JSON.stringify(before)).toContain(MARKER);
    // The same calls as outra's own admin do answer the marker: its absence below means isolation, not an empty answer.
    const own = outraAdmin;
    expect((await t.api(`/api/rooms/${outraRoomId}/messages`, { host: t.hosts.outra, token: own })).text).toContain(MARKER);
    expect((await t.api(`/api/files/outra/${outraFileName}`, { host: t.hosts.outra, token: own })).status).toBe(200);
    expect((await t.api(`/api/contacts?filter=${encodeURIComponent(JSON.stringify({ q: MARKER }))}`, { host: t.hosts.outra, token: own })).text).toContain(MARKER);
  });

  it("answers every route with outra's ids in its path without outra's data", async () => {
    const failures: string[] = [];
    let checked = 0;
    for (const route of t.server.api.routes) {
      if (SESSION_ROUTES.test(route.path)) continue;
      const token = route.access.kind === 'public' ? null : await freshAdmin();
      for (const [id, path] of concretePaths(route)) {
        const res = await t.api(path, { method: route.method, body: bodyFor(route, id), token });
        checked++;
        if (res.status >= 500) failures.push(`${route.method} ${path}: ${res.status} ${res.text.slice(0, 120)}`);
        else if (res.text.includes(MARKER)) failures.push(`${route.method} ${path}: ${res.status} answered outra's data`);
        else if (res.status < 300 && route.path.includes(':id') && route.method !== 'POST') failures.push(`${route.method} ${path}: ${res.status}, want 403/404`);
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  }, 240_000);

  it("finds nothing of outra's through filters, searches, reports and exports", async () => {
    const filter = encodeURIComponent(JSON.stringify({ id: outraIds, q: MARKER }));
    const query = `?filter=${filter}&q=${MARKER}&search=${MARKER}&roomId=${outraRoomId}&chatId=${outraRoomId}&tenantId=${OUTRA}` +
      `&filters=${encodeURIComponent(JSON.stringify([{ field: 'id', operator: 'in', value: outraIds }]))}`;
    const failures: string[] = [];
    let checked = 0;
    for (const route of t.server.api.routes) {
      if (route.path.includes(':') || SESSION_ROUTES.test(route.path)) continue;
      const res = await t.api(route.path + query, { method: route.method, body: bodyFor(route, outraRoomId), token: await freshAdmin() });
      checked++;
      if (res.status >= 500) failures.push(`${route.method} ${route.path}: ${res.status} ${res.text.slice(0, 120)}`);
      else if (res.text.includes(MARKER)) failures.push(`${route.method} ${route.path}: answered outra's data`);
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(50);
  }, 120_000);

  it("leaves every row of outra as it was after the matrices", async () => {
    expect(await outraRows()).toEqual(before);
  });

  it("refuses outra's rooms, messages and visitor on acme's live subscriptions", async () => {
    const s = await socketAs(t, await freshAdmin());
    const queries: [string, Record<string, unknown>][] = [
      ['rooms', { roomId: outraRoomId }],
      ['messages', { roomId: outraRoomId }],
      ['rooms', { tab: 'queuesChats', filter: { id: outraRoomId } }],
      ['rooms', { tab: 'historyChats' }],
    ];
    for (const [index, [collection, query]] of queries.entries()) s.send({ type: 'subscribe', id: `q${index}`, collection, query });
    await s.sync();
    // Outra's visitor writes while acme's subscriptions are open: nothing of it may reach acme.
    const more = await t.api(`/api/webchat/rooms/${outraRoomId}/message`, {
      method: 'POST', host: t.hosts.outra, body: { text: `${MARKER} depois`, clientId: randomUUID() },
      headers: { 'x-visitor-key': outraVisitorKey },
    });
    expect(more.status, more.text).toBe(201);
    await t.server.services.changes.idle();
    await t.server.hub.idle();
    await s.sync();
    expect(JSON.stringify(s.frames)).not.toContain(MARKER);
    expect(s.frames.filter((f) => f.type === 'error').length).toBeGreaterThanOrEqual(1);

    // Outra's tokens do not open a socket on acme's host.
    for (const token of [outraAdmin, outraVisitorToken]) {
      const foreign = new RawSocket(t.baseUrl, t.hosts.acme);
      t.sockets.push(foreign);
      await foreign.opened;
      foreign.send({ type: 'auth', token });
      await foreign.closedWith();
      expect(foreign.frames.some((f) => f.type === 'ready')).toBe(false);
    }
  });

});
