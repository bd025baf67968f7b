import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { messages as texts, type Room } from '@atendimento/schemas';
import { push, socketAs, startChatServer, stopChatServer, subscribe, visitorStarts, waitForRecord, type ChatTest } from './chat-helpers';

/**
 * 'Marcar como lido' / 'Marcar como não lido' (seed 001 §4, docs/console-operations.md
 * "Read / unread"): PATCH /api/rooms/:id { lastMessage: { unread } } by whoever attends the chat;
 * tenant claim disableSetUnread refuses 'unread' to non-admins; live for everyone who sees it.
 */
let t: ChatTest;
beforeAll(async () => {
  t = await startChatServer();
});
afterAll(() => stopChatServer(t));
beforeEach(async () => {
  await t.patchAppConfig({ claims: { publicRegister: true } });
});

const mark = (roomId: string, unread: boolean, token?: string, host?: string) =>
  t.api(`/api/rooms/${roomId}`, { method: 'PATCH', body: { lastMessage: { unread } }, token, ...(host && { host }) });

async function vendasRoomOfAgente(): Promise<string> {
  const visitor = await visitorStarts(t, 'site-vendas', 'Vocês abrem sábado?');
  await push(t, t.tokens.agente, visitor.roomId!);
  return visitor.roomId!;
}

describe('mark read / unread', () => {
  it('the attending agent marks it read and unread again; the supervisor watching Equipe sees both live', async () => {
    const roomId = await vendasRoomOfAgente();
    const sup = await socketAs(t, t.tokens.supervisor);
    await subscribe(sup, 'equipe', 'rooms', { tab: 'teamChats' });

    const read = await mark(roomId, false, t.tokens.agente);
    expect(read.status, read.text).toBe(200);
    expect(read.body.data).toMatchObject({ unreadCount: 0, lastMessage: { unread: false } });
    await waitForRecord(sup, 'equipe', (r: Room) => r.id === roomId && r.lastMessage?.unread === false, 'read, live');

    const unread = await mark(roomId, true, t.tokens.agente);
    expect(unread.status, unread.text).toBe(200);
    expect(unread.body.data.lastMessage.unread).toBe(true);
    expect(unread.body.data.unreadCount).toBeGreaterThanOrEqual(1);
    await waitForRecord(sup, 'equipe', (r: Room) => r.id === roomId && r.lastMessage?.unread === true, 'unread, live');
    // The agents' list agrees (the unread filter of Meus reads the same field).
    const mine = await t.api('/api/rooms?tab=userChats', { token: t.tokens.agente });
    expect((mine.body.data as Room[]).find((r) => r.id === roomId)?.lastMessage?.unread).toBe(true);
  });

  it('disableSetUnread refuses unread to agents and supervisors (in Portuguese), not to admins; read stays allowed', async () => {
    const roomId = await vendasRoomOfAgente();
    await t.patchAppConfig({ claims: { publicRegister: true, disableSetUnread: true } });
    for (const token of [t.tokens.agente, t.tokens.supervisor]) {
      const refused = await mark(roomId, true, token);
      expect(refused.status).toBe(403);
      expect(refused.body.errorMessage).toBe(texts.chatServer.unreadDisabled);
    }
    expect((await mark(roomId, false, t.tokens.agente)).status).toBe(200);
    const admin = await mark(roomId, true, t.tokens.admin);
    expect(admin.status, admin.text).toBe(200);
    expect(admin.body.data.lastMessage.unread).toBe(true);
  });

  it('who may: the attendant, the supervisor, an admin; a queued chat must be entered first; others never see it', async () => {
    const queued = await visitorStarts(t, 'site-vendas', 'Alguém aí?');
    // agente@ sees the queued chat in Fila but does not attend it yet.
    const notYet = await mark(queued.roomId!, false, t.tokens.agente);
    expect(notYet.status).toBe(403);
    expect(notYet.body.errorMessage).toBe(texts.chatServer.enterFirst);
    expect((await mark(queued.roomId!, false, t.tokens.supervisor)).status).toBe(200);
    expect((await mark(queued.roomId!, true, t.tokens.admin)).status).toBe(200);

    const roomId = await vendasRoomOfAgente();
    expect((await mark(roomId, false, t.tokens.suporte)).status).toBe(404);
    const signup = await t.api('/api/users', { method: 'POST', body: { displayName: 'Estranho', email: `estranho-${randomUUID()}@acme.test`, password: 'segredo1', confirmPassword: 'segredo1' } });
    expect(signup.status, signup.text).toBe(201);
    expect((await mark(roomId, true, signup.body.data.accessToken)).status).toBe(404);
    expect((await mark(roomId, true, await t.tokenFor('outra', 'outra-admin'), t.hosts.outra)).status).toBe(404);
    expect((await mark(roomId, true)).status).toBe(401);
    // Bad bodies: 400 with a message.
    for (const body of [{ lastMessage: { unread: 'sim' } }, { lastMessage: 'x' }]) {
      const bad = await t.api(`/api/rooms/${roomId}`, { method: 'PATCH', body, token: t.tokens.agente });
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.errorMessage).toBeTruthy();
    }
  });

  it('a closed chat is 409', async () => {
    const roomId = await vendasRoomOfAgente();
    const closed = await t.api(`/api/rooms/${roomId}/closeNoMessage`, { method: 'PATCH', body: { closedBy: { justify: 'Resolvido' } }, token: t.tokens.agente });
    expect(closed.status, closed.text).toBe(200);
    const res = await mark(roomId, true, t.tokens.admin);
    expect(res.status).toBe(409);
    expect(res.body.errorMessage).toBe(texts.chatServer.alreadyClosed);
  });
});
