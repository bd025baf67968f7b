import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { ChangesFrame, Room, ServerFrame, SnapshotFrame, WebchatSessionAnswer } from '@atendimento/schemas';
import { startTestServer, type TestServer } from '../../helpers/test-server';
import { channelRow } from '../../helpers/rows';
import { RawSocket } from '../realtime/realtime-helpers';
import { waitFor } from '../../helpers/wait-for';

/**
 * The chat fixture on top of the test server's tenants (acme: vendas with agente@ and
 * supervisor@, suporte with suporte@):
 * - web-chat channels 'site-vendas' (queue of vendas) and 'site-suporte' (queue of suporte),
 *   a WhatsApp-type channel 'wa-vendas' (no provider configured: sends fail);
 * - acme's closure configuration requires a justification from ['Resolvido', 'Sem retorno'].
 */
export const JUSTIFIES = ['Resolvido', 'Sem retorno'];
export const USERS = { admin: 'acme-admin', agente: 'acme-agente', supervisor: 'acme-supervisor', suporte: 'acme-suporte' } as const;
export type ChatUser = keyof typeof USERS;

export interface ChatTest extends TestServer {
  tokens: Record<ChatUser, string>;
  sockets: RawSocket[];
}

/** `options` go to startTestServer (the console's browser test passes `staticDir` to serve the built engine). */
export async function startChatServer(options: Parameters<typeof startTestServer>[0] = {}): Promise<ChatTest> {
  const t = await startTestServer(options);
  const now = t.server.clock.now();
  const iso = now.toISOString();
  const channel = (id: string, type: string, displayName: string, departmentId: string, extra: Record<string, unknown> = {}) =>
    channelRow('acme', { id, type, displayName, departmentId, ...extra }, iso);
  await t.server.db('channels').insert([
    channel('site-vendas', 'webchat', 'Chat Vendas', 'vendas', { webchat: { title: 'Fale com Vendas', allowedOrigins: ['https://loja.example'] } }),
    channel('site-suporte', 'webchat', 'Chat Suporte', 'suporte'),
    channel('wa-vendas', 'meta', 'WhatsApp Vendas', 'vendas'),
  ]);
  await t.patchAppConfig({ closeJustify: { justifies: JUSTIFIES, obsRules: [], reportOnly: false, nextMaxDate: 5000 } });
  const tokens = {} as Record<ChatUser, string>;
  for (const [name, id] of Object.entries(USERS)) tokens[name as ChatUser] = await t.tokenFor('acme', id);
  return Object.assign(t, { tokens, sockets: [] as RawSocket[] });
}

export async function stopChatServer(t: ChatTest | undefined): Promise<void> {
  if (!t) return;
  for (const s of t.sockets) s.close();
  await t.close();
}

/** A visitor opens the widget of `channelId` and writes the first message. */
export async function visitorStarts(t: ChatTest, channelId: string, text: string, displayName = 'Maria Visitante'): Promise<WebchatSessionAnswer['data']> {
  const res = await t.api(`/api/webchat/${channelId}/session`, { method: 'POST', body: { text, displayName, clientId: randomUUID() } });
  expect(res.status, res.text).toBe(200);
  expect(res.body.data.roomId).toBeTruthy();
  return res.body.data;
}

/** The visitor writes again in their room (header X-Visitor-Key). */
export async function visitorWrites(t: ChatTest, session: WebchatSessionAnswer['data'], text: string, clientId = randomUUID()) {
  return t.api(`/api/webchat/rooms/${session.roomId}/message`, { method: 'POST', body: { text, clientId }, headers: { 'x-visitor-key': session.visitorKey } });
}

export async function socketAs(t: ChatTest, token: string): Promise<RawSocket> {
  const s = new RawSocket(t.baseUrl, t.hosts.acme);
  t.sockets.push(s);
  await s.auth(token);
  return s;
}

/** Subscribes and waits for the snapshot. */
export async function subscribe(s: RawSocket, id: string, collection: string, query: Record<string, unknown>): Promise<SnapshotFrame> {
  s.send({ type: 'subscribe', id, collection, query });
  return s.frame('snapshot', (f) => f.id === id);
}

/** Every record a subscription received (snapshot and changes), by id, latest version. */
export function received(s: RawSocket, id: string): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const f of s.frames as ServerFrame[]) {
    if ((f.type !== 'snapshot' && f.type !== 'changes') || f.id !== id) continue;
    const records = f.type === 'snapshot' ? f.records : [...(f as ChangesFrame).added, ...(f as ChangesFrame).modified];
    for (const r of records) out.set(r.id, r as Record<string, unknown>);
  }
  return out;
}

/** Whether any frame of the socket ever carried this id (in records, added, modified or removed). */
export function everSaw(s: RawSocket, recordId: string): boolean {
  return s.frames.some((f) => {
    if (f.type === 'snapshot') return f.records.some((r) => r.id === recordId);
    if (f.type === 'changes') return [...f.added, ...f.modified].some((r) => r.id === recordId) || f.removed.includes(recordId);
    return false;
  });
}

/** Waits until subscription `id` holds a record matching `check`. */
export async function waitForRecord<T = Record<string, unknown>>(s: RawSocket, id: string, check: (r: T) => boolean, what: string): Promise<T> {
  return waitFor(() => [...received(s, id).values()].find((r) => check(r as T)) as T | undefined, what);
}

/** Lets every change already committed reach every socket. */
export async function settle(t: ChatTest): Promise<void> {
  await t.server.services.changes.idle();
  await t.server.hub.idle();
  for (const s of t.sockets) if (!s.closed) await s.sync();
}

export async function getRoom(t: ChatTest, token: string, roomId: string): Promise<Room> {
  const res = await t.api(`/api/rooms/${roomId}`, { token });
  expect(res.status, res.text).toBe(200);
  return res.body.data as Room;
}

export async function push(t: ChatTest, token: string, roomId: string): Promise<Room> {
  const res = await t.api(`/api/rooms/${roomId}/push`, { method: 'PATCH', body: {}, token });
  expect(res.status, res.text).toBe(200);
  return res.body.data as Room;
}
