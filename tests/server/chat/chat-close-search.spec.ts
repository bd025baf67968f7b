import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCursor, messages as texts, type Message, type Room } from '@atendimento/schemas';
import { getRoom, push, startChatServer, stopChatServer, visitorStarts, type ChatTest } from './chat-helpers';

let t: ChatTest;
beforeAll(async () => {
  t = await startChatServer();
});
afterAll(() => stopChatServer(t));

describe('mass close (POST /api/rooms/massClose)', () => {
  it('closes the rooms the caller attends with the note, reports the others, and tells each visitor', async () => {
    const [a, b, c, d] = await Promise.all([
      visitorStarts(t, 'site-vendas', 'Sala A', 'Alice'),
      visitorStarts(t, 'site-vendas', 'Sala B', 'Bruno'),
      visitorStarts(t, 'site-vendas', 'Sala C', 'Carla'),
      visitorStarts(t, 'site-suporte', 'Sala D', 'Davi'),
    ]);
    await push(t, t.tokens.agente, a.roomId!);
    await push(t, t.tokens.agente, b.roomId!);

    const res = await t.api('/api/rooms/massClose', {
      method: 'POST',
      body: { chatIds: [a.roomId, b.roomId, c.roomId, d.roomId, 'nao-existe'], closedBy: { justify: texts.chat.massCloseNote } },
      token: t.tokens.agente,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.meta).toEqual({ ok: true, message: 'Chats Encerrados', closed: 2 });
    expect(res.body.data.closed.sort()).toEqual([a.roomId, b.roomId].sort());
    expect(res.body.data.skipped).toEqual(
      expect.arrayContaining([
        { id: c.roomId, errorMessage: texts.chatServer.enterFirst },
        { id: d.roomId, errorMessage: texts.errors.notFound },
        { id: 'nao-existe', errorMessage: texts.errors.notFound },
      ]),
    );

    const closedA = await getRoom(t, t.tokens.agente, a.roomId!);
    expect(closedA).toMatchObject({ active: false, closedBy: { id: 'acme-agente', justify: 'Encerramento em massa', obs: 'Encerramento em massa', mass: true } });
    // No justification was asked (the closure configuration requires one for single closes).
    const visitorMessages = await t.api(`/api/rooms/${a.roomId}/messages`, { token: a.accessToken });
    expect(visitorMessages.body.data.map((m: Message) => m.text)).toContain(texts.chatServer.closedNotice);
    expect((await getRoom(t, t.tokens.agente, c.roomId!)).active).toBe(true);
    expect((await getRoom(t, t.tokens.suporte, d.roomId!)).active).toBe(true);

    // The department's supervisor may close a queued room of the department.
    const bySupervisor = await t.api('/api/rooms/massClose', { method: 'POST', body: { chatIds: [c.roomId] }, token: t.tokens.supervisor });
    expect(bySupervisor.body.data.closed).toEqual([c.roomId]);
    const history = await t.api('/api/rooms?tab=chatsHistories&limit=50', { token: t.tokens.supervisor });
    expect(history.body.data.map((r: Room) => r.id)).toEqual(expect.arrayContaining([a.roomId, b.roomId, c.roomId]));
    // Closing twice is reported, not an error.
    const twice = await t.api('/api/rooms/massClose', { method: 'POST', body: { chatIds: [a.roomId] }, token: t.tokens.admin });
    expect(twice.body.data).toEqual({ closed: [], skipped: [{ id: a.roomId, errorMessage: texts.chatServer.alreadyClosed }] });
  });
});

describe('search (POST /api/mongodb/search) and the contact history (GET /api/rooms/chatid/:chatId)', () => {
  it('finds by name, phone tail and room number within what the caller may see', async () => {
    const created = await t.api('/api/rooms', { method: 'POST', body: { contact: { displayName: 'Roberto Carlos', phone: '+55 (11) 98765-4321' } }, token: t.tokens.agente });
    expect(created.status, created.text).toBe(201);
    const room = created.body.data as Room;
    expect(room).toMatchObject({ chatId: '5511987654321', channel: 'meta', channelId: 'wa-vendas', inAttend: true, agents: [{ id: 'acme-agente' }], departmentId: 'vendas' });
    // The same contact again: the open room, not a second one.
    const again = await t.api('/api/rooms', { method: 'POST', body: { contact: { displayName: 'Roberto Carlos', phone: '5511987654321' } }, token: t.tokens.agente });
    expect(again.status).toBe(200);
    expect(again.body.meta.created).toBe(false);
    expect(again.body.data.id).toBe(room.id);

    const search = (token: string, body: Record<string, unknown>) => t.api('/api/mongodb/search', { method: 'POST', body, token });
    const byName = await search(t.tokens.agente, { text: 'roberto' });
    expect(byName.status, byName.text).toBe(200);
    expect(byName.body.data).toEqual([room.id]);
    expect(byName.body.meta).toEqual({ count: 1, collection: 'rooms', busca: 'roberto', last: room.id });
    expect(byName.body.rooms[0].author.displayName).toBe('Roberto Carlos');
    expect((await search(t.tokens.agente, { text: '(11) 9876-54321' })).body.data).toEqual([room.id]);
    expect((await search(t.tokens.agente, { text: '87654321' })).body.data).toEqual([room.id]);
    expect((await search(t.tokens.agente, { text: String(room.roomInc).padStart(3, '0') })).body.data).toContain(room.id);
    // Another department's agent does not find it; an admin does.
    expect((await search(t.tokens.suporte, { text: 'roberto' })).body.data).toEqual([]);
    expect((await search(t.tokens.admin, { text: 'roberto' })).body.data).toEqual([room.id]);
    // Filters only: channels and tab; nothing set clears the search.
    expect((await search(t.tokens.agente, { channels: ['wa-vendas'] })).body.data).toEqual([room.id]);
    expect((await search(t.tokens.agente, { tab: 'userChats', text: 'roberto' })).body.data).toEqual([room.id]);
    expect((await search(t.tokens.agente, {})).body).toMatchObject({ data: [], meta: { count: 0 } });

    const history = await t.api('/api/rooms/chatid/5511987654321?channelId=wa-vendas', { token: t.tokens.agente });
    expect(history.status).toBe(200);
    expect(history.body.data.map((r: Room) => r.id)).toEqual([room.id]);
    expect((await t.api('/api/rooms/chatid/5511987654321', { token: t.tokens.suporte })).body.data).toEqual([]);
  });

  it('pages a tab with a keyset cursor and no duplicates', async () => {
    for (let i = 0; i < 5; i++) await visitorStarts(t, 'site-suporte', `Fila ${i}`, `Pessoa ${i}`);
    const seen: string[] = [];
    let after: string | null = null;
    do {
      const params: URLSearchParams = new URLSearchParams({ tab: 'queuesChats', limit: '2', ...(after && { after }) });
      const res: { status: number; text: string; body: any } = await t.api(`/api/rooms?${params}`, { token: t.tokens.suporte });
      expect(res.status, res.text).toBe(200);
      seen.push(...res.body.data.map((r: Room) => r.id));
      after = res.body.meta.next;
    } while (after);
    expect(seen.length).toBeGreaterThanOrEqual(5);
    expect(new Set(seen).size).toBe(seen.length);
    const all = await t.api('/api/rooms?tab=queuesChats&limit=100', { token: t.tokens.suporte });
    expect(seen).toEqual(all.body.data.map((r: Room) => r.id));
    // The console continues after a room it holds with a cursor it makes (schemas' encodeCursor).
    const held = all.body.data[1] as Room;
    const rest = await t.api(`/api/rooms?tab=queuesChats&limit=100&after=${encodeCursor(held.lastMessageAt, held.id)}`, { token: t.tokens.suporte });
    expect(rest.body.data.map((r: Room) => r.id)).toEqual(seen.slice(2));
    const asc = await t.api('/api/rooms?tab=queuesChats&limit=100&order=asc', { token: t.tokens.suporte });
    const ascRooms = asc.body.data as Room[];
    expect(ascRooms.map((r) => r.id).sort()).toEqual([...seen].sort());
    expect(ascRooms.map((r) => r.lastMessageAt)).toEqual(ascRooms.map((r) => r.lastMessageAt).sort());
  });
});
