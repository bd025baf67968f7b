import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Room } from '@atendimento/schemas';
import { everSaw, getRoom, received, settle, socketAs, startChatServer, stopChatServer, subscribe, visitorStarts, waitForRecord, type ChatTest } from './chat-helpers';

let t: ChatTest;
beforeAll(async () => {
  t = await startChatServer();
});
afterAll(() => stopChatServer(t));

describe('a new web-chat conversation reaches the right queue, live', () => {
  it('the agent of the channel department gets it in Fila at once; another department never sees it (ws and HTTP)', async () => {
    const agente = await socketAs(t, t.tokens.agente);
    const supervisor = await socketAs(t, t.tokens.supervisor);
    const suporte = await socketAs(t, t.tokens.suporte);
    for (const s of [agente, supervisor, suporte]) await subscribe(s, 'fila', 'rooms', { tab: 'queuesChats' });

    const visitor = await visitorStarts(t, 'site-vendas', 'Olá, quero um orçamento');
    const roomId = visitor.roomId!;

    const room = await waitForRecord<Room>(agente, 'fila', (r) => r.id === roomId, 'the room in the agent queue');
    expect(room).toMatchObject({
      channel: 'webchat', channelId: 'site-vendas', active: true, inAttend: false, destination: 'vueJs', departmentId: 'vendas',
      author: { displayName: 'Maria Visitante', type: 'client' },
      lastMessage: { text: 'Olá, quero um orçamento', unread: true, author: { type: 'client' } },
      unreadCount: 1,
    });
    expect(room.queues.map((q) => q.id)).toEqual(['deptovendas']);
    expect(room.roomInc).toBeGreaterThan(0);
    await waitForRecord<Room>(supervisor, 'fila', (r) => r.id === roomId, 'the room in the supervisor queue');

    await settle(t);
    expect(everSaw(suporte, roomId)).toBe(false);

    // HTTP: the same scope.
    const suporteQueue = await t.api('/api/rooms?tab=queuesChats', { token: t.tokens.suporte });
    expect(suporteQueue.status).toBe(200);
    expect(suporteQueue.body.data.map((r: Room) => r.id)).not.toContain(roomId);
    const agenteQueue = await t.api('/api/rooms?tab=queuesChats', { token: t.tokens.agente });
    expect(agenteQueue.body.data.map((r: Room) => r.id)).toContain(roomId);
    expect((await t.api(`/api/rooms/${roomId}`, { token: t.tokens.suporte })).status).toBe(404);
    expect((await t.api(`/api/rooms/${roomId}/messages`, { token: t.tokens.suporte })).status).toBe(404);
    expect((await t.api(`/api/rooms/${roomId}/push`, { method: 'PATCH', body: {}, token: t.tokens.suporte })).status).toBe(404);
    const search = await t.api('/api/mongodb/search', { method: 'POST', body: { text: 'Maria Visitante' }, token: t.tokens.suporte });
    expect(search.status).toBe(200);
    expect(search.body.data).not.toContain(roomId);

    // Asking for the room by id, or its messages, over ws does not widen the scope either.
    const one = await subscribe(suporte, 'one', 'rooms', { roomId });
    expect(one.records).toEqual([]);
    suporte.send({ type: 'subscribe', id: 'msgs', collection: 'messages', query: { roomId } });
    const refused = await suporte.frame('error', (f) => f.id === 'msgs');
    expect(refused.error).toBe('not_found');
    // A client filter cannot widen a tab: it is ANDed with the server's.
    const widened = await subscribe(suporte, 'wide', 'rooms', { tab: 'queuesChats', filter: { field: 'queues', op: 'array-contains', value: 'deptovendas' } });
    expect(widened.records).toEqual([]);
    await settle(t);
    expect(everSaw(suporte, roomId)).toBe(false);
  });

  it('counts the queue for the badges of the agents who have it, and nobody else', async () => {
    const visitor = await visitorStarts(t, 'site-suporte', 'Preciso de ajuda com meu pedido', 'João Suporte');
    const suporte = await t.api('/api/counter', { token: t.tokens.suporte });
    expect(suporte.status).toBe(200);
    expect(suporte.body.data.tabs.queuesChats).toEqual({ total: 1, unread: 1 });
    const agente = await t.api('/api/counter', { token: t.tokens.agente });
    expect(agente.body.data.tabs.queuesChats.total).toBe(1);
    expect(agente.body.data.tabs.teamChats).toBeUndefined();
    const read = await t.api('/api/read', { token: t.tokens.suporte });
    expect(read.body.data).toMatchObject({ unreadChats: 0, chats: 0 });
    const admin = await t.api('/api/counter', { token: t.tokens.admin });
    expect(admin.body.data.tabs.queuesChats.total).toBe(2);
    expect((await getRoom(t, t.tokens.suporte, visitor.roomId!)).departmentId).toBe('suporte');
  });

  it('the visitor reads only their own room with the anonymous token', async () => {
    const a = await visitorStarts(t, 'site-vendas', 'Primeiro visitante', 'Ana');
    const b = await visitorStarts(t, 'site-vendas', 'Segundo visitante', 'Bia');
    expect(a.roomId).not.toBe(b.roomId);
    expect((await t.api(`/api/rooms/${a.roomId}`, { token: a.accessToken })).status).toBe(200);
    expect((await t.api(`/api/rooms/${b.roomId}`, { token: a.accessToken })).status).toBe(404);
    expect((await t.api('/api/rooms?tab=queuesChats', { token: a.accessToken })).status).toBe(403);
    const s = await socketAs(t, a.accessToken!);
    const mine = await subscribe(s, 'room', 'rooms', {});
    expect(mine.records.map((r) => r.id)).toEqual([a.roomId]);
    s.send({ type: 'subscribe', id: 'other', collection: 'rooms', query: { roomId: b.roomId } });
    expect((await s.frame('error', (f) => f.id === 'other')).error).toBe('forbidden');
    s.send({ type: 'subscribe', id: 'tab', collection: 'rooms', query: { roomId: a.roomId, tab: 'queuesChats' } });
    expect((await s.frame('snapshot', (f) => f.id === 'tab')).records.map((r) => r.id)).toEqual([a.roomId]);
    expect(received(s, 'room').size).toBe(1);
    // The public read-only page (/chat/:publicToken) exchanges the room's unguessable token.
    const room = await getRoom(t, t.tokens.admin, a.roomId!);
    expect(room.publicToken.length).toBeGreaterThanOrEqual(40);
    const anon = await t.api('/api/auth/anonymous', { method: 'POST', body: { roomToken: room.publicToken } });
    expect(anon.status, anon.text).toBe(200);
    expect(anon.body.data.roomId).toBe(a.roomId);
    expect((await t.api(`/api/rooms/${a.roomId}/messages`, { token: anon.body.data.accessToken })).body.data.map((m: { text: string }) => m.text)).toEqual(['Primeiro visitante']);
    expect((await t.api(`/api/rooms/${a.roomId}/push`, { method: 'PATCH', body: {}, token: anon.body.data.accessToken })).status).toBe(403);
    expect((await t.api('/api/auth/anonymous', { method: 'POST', body: { roomToken: String(room.roomInc) } })).status).toBe(400);
    expect((await t.api('/api/auth/anonymous', { method: 'POST', body: { roomToken: room.publicToken.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')) } })).status).toBe(404);
    // Resuming the same visitor key gives the same room, not a new one.
    const again = await t.api('/api/webchat/site-vendas/session', { method: 'POST', body: { visitorKey: a.visitorKey } });
    expect(again.body.data.roomId).toBe(a.roomId);
  });
});
