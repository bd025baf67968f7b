import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { format, messages as texts, type Message, type Room } from '@atendimento/schemas';
import { push, socketAs, startChatServer, stopChatServer, subscribe, visitorStarts, waitForRecord, type ChatTest } from './chat-helpers';

/**
 * 'Voltar ao início do bot' and the 'Bot' tab's hand-off (docs/console-operations.md "Bot"):
 * POST /api/rooms/:id/restart sends the chat back to the bot (agents leave, destination 'bot');
 * it waits in 'Bot' (enableBotTab) until an agent of its department takes it (push).
 */
let t: ChatTest;
beforeAll(async () => {
  t = await startChatServer();
});
afterAll(() => stopChatServer(t));

const CLAIMS = { publicRegister: true, backBeggining: true, enableBotTab: true };
beforeEach(async () => {
  await t.patchAppConfig({ claims: CLAIMS });
});

const restart = (roomId: string, token?: string, host?: string) => t.api(`/api/rooms/${roomId}/restart`, { method: 'POST', token, ...(host && { host }) });

async function vendasRoomOfAgente(): Promise<string> {
  const visitor = await visitorStarts(t, 'site-vendas', 'Quero falar com o bot de novo');
  await push(t, t.tokens.agente, visitor.roomId!);
  return visitor.roomId!;
}

describe('return to the start of the bot', () => {
  it('the agent sends the chat back to the bot: it leaves Meus and appears in Bot live; an agent takes it back', async () => {
    const roomId = await vendasRoomOfAgente();
    const agent = await socketAs(t, t.tokens.agente);
    await subscribe(agent, 'meus', 'rooms', { tab: 'userChats' });
    await subscribe(agent, 'bot', 'rooms', { tab: 'botChats' });

    const res = await restart(roomId, t.tokens.agente);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ agents: [], inAttend: false, destination: 'bot', active: true });
    await waitForRecord(agent, 'bot', (r: Room) => r.id === roomId, 'the chat in Bot');
    const mine = await t.api('/api/rooms?tab=userChats', { token: t.tokens.agente });
    expect((mine.body.data as Room[]).map((r) => r.id)).not.toContain(roomId);
    const msgs = (await t.api(`/api/rooms/${roomId}/messages?limit=50`, { token: t.tokens.admin })).body.data as Message[];
    const note = msgs.find((m) => m.author.type === 'system' && m.annotation);
    expect(note?.text).toBe(format(texts.chatServer.botRestartNote, { by: String(res.body.data.agentsHistory[0].displayName) }));
    // The visitor never gets the note.
    expect(msgs.filter((m) => !m.annotation && m.author.type === 'system')).toHaveLength(0);

    // Hand-off: suporte@ (another department) does not see it; agente@ takes it from Bot.
    expect((await t.api(`/api/rooms/${roomId}/push`, { method: 'PATCH', body: {}, token: t.tokens.suporte })).status).toBe(404);
    const taken = await push(t, t.tokens.agente, roomId);
    expect(taken).toMatchObject({ destination: 'vueJs', inAttend: true });
    await waitForRecord(agent, 'meus', (r: Room) => r.id === roomId, 'back in Meus');
    const bot = await t.api('/api/rooms?tab=botChats', { token: t.tokens.agente });
    expect((bot.body.data as Room[]).map((r) => r.id)).not.toContain(roomId);
  });

  it('without backBeggining nobody may; disableRestartApp binds agents and supervisors, not admins', async () => {
    const roomId = await vendasRoomOfAgente();
    await t.patchAppConfig({ claims: { ...CLAIMS, backBeggining: false } });
    for (const token of [t.tokens.agente, t.tokens.admin]) {
      const off = await restart(roomId, token);
      expect(off.status).toBe(403);
      expect(off.body.errorMessage).toBe(texts.chatServer.restartDisabled);
    }
    await t.patchAppConfig({ claims: { ...CLAIMS, disableRestartApp: true } });
    for (const token of [t.tokens.agente, t.tokens.supervisor]) {
      const bound = await restart(roomId, token);
      expect(bound.status).toBe(403);
      expect(bound.body.errorMessage).toBe(texts.chatServer.restartDisabled);
    }
    expect((await restart(roomId, t.tokens.admin)).status).toBe(200);
  });

  it('who may: the attendant, the supervisor, an admin; others are refused, never a 500', async () => {
    const queued = await visitorStarts(t, 'site-vendas', 'Olá?');
    const notYet = await restart(queued.roomId!, t.tokens.agente);
    expect(notYet.status).toBe(403);
    expect(notYet.body.errorMessage).toBe(texts.chatServer.enterFirst);
    expect((await restart(queued.roomId!, t.tokens.supervisor)).status).toBe(200);

    const roomId = await vendasRoomOfAgente();
    expect((await restart(roomId, t.tokens.suporte)).status).toBe(404);
    const signup = await t.api('/api/users', { method: 'POST', body: { displayName: 'Estranho', email: `estranho-${randomUUID()}@acme.test`, password: 'segredo1', confirmPassword: 'segredo1' } });
    expect(signup.status, signup.text).toBe(201);
    expect((await restart(roomId, signup.body.data.accessToken)).status).toBe(404);
    expect((await restart(roomId, await t.tokenFor('outra', 'outra-admin'), t.hosts.outra)).status).toBe(404);
    expect((await restart(roomId)).status).toBe(401);
    expect((await restart('nao-existe', t.tokens.admin)).status).toBe(404);
    expect((await restart(roomId, t.tokens.admin)).status).toBe(200);

    const closedId = await vendasRoomOfAgente();
    await t.api(`/api/rooms/${closedId}/closeNoMessage`, { method: 'PATCH', body: { closedBy: { justify: 'Resolvido' } }, token: t.tokens.agente });
    const closed = await restart(closedId, t.tokens.admin);
    expect(closed.status).toBe(409);
    expect(closed.body.errorMessage).toBe(texts.chatServer.alreadyClosed);

    const internal = await t.api('/api/internalChats', { method: 'POST', body: { agents: ['acme-suporte'] }, token: t.tokens.agente });
    const refused = await restart(internal.body.data.id, t.tokens.agente);
    expect(refused.status).toBe(400);
    expect(refused.body.errorMessage).toBe(texts.chatServer.restartUnavailable);
  });
});
