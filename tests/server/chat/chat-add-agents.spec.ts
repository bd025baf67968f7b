import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { format, messages as texts, type Message, type Room } from '@atendimento/schemas';
import { push, socketAs, startChatServer, stopChatServer, subscribe, visitorStarts, waitForRecord, type ChatTest } from './chat-helpers';

/**
 * 'Agentes adicionados!' (seed 001 §4, docs/console-operations.md "Add agents"): admins and the
 * department's supervisors add agents to a customer chat (push with agents); a member adds
 * agents to an internal chat. The added agents get the chat live and may write; a note says
 * who added whom. Everybody else is refused.
 */
let t: ChatTest;
beforeAll(async () => {
  t = await startChatServer();
  await t.patchAppConfig({ claims: { publicRegister: true } });
});
afterAll(() => stopChatServer(t));

async function vendasRoomOfAgente(): Promise<string> {
  const visitor = await visitorStarts(t, 'site-vendas', 'Preciso de ajuda');
  await push(t, t.tokens.agente, visitor.roomId!);
  return visitor.roomId!;
}

const addTo = (roomId: string, agents: unknown, token?: string, host?: string) => t.api(`/api/rooms/${roomId}/push`, { method: 'PATCH', body: { agents }, token, ...(host && { host }) });

async function systemNotes(roomId: string, token = t.tokens.admin): Promise<string[]> {
  const res = await t.api(`/api/rooms/${roomId}/messages?limit=50`, { token });
  expect(res.status, res.text).toBe(200);
  return (res.body.data as Message[]).filter((m) => m.annotation && m.author.type === 'system').map((m) => m.text ?? '');
}

describe('add agents to a customer chat', () => {
  it('a supervisor adds suporte@: it arrives live in Meus, suporte@ writes, a note tells who added whom', async () => {
    const roomId = await vendasRoomOfAgente();
    const suporte = await socketAs(t, t.tokens.suporte);
    await subscribe(suporte, 'meus', 'rooms', { tab: 'userChats' });

    const res = await addTo(roomId, ['acme-suporte'], t.tokens.supervisor);
    expect(res.status, res.text).toBe(200);
    expect(res.body.meta.message).toBe(texts.chat.agentsAdded);
    expect((res.body.data as Room).agents.map((a) => a.id).sort()).toEqual(['acme-agente', 'acme-suporte']);
    await waitForRecord(suporte, 'meus', (r: Room) => r.id === roomId, 'the chat in suporte@\'s Meus');

    const sent = await t.api(`/api/rooms/${roomId}/message`, { method: 'POST', body: { text: 'Olá, sou do suporte.', clientId: randomUUID() }, token: t.tokens.suporte });
    expect(sent.status, sent.text).toBe(201);
    const suporteName = (res.body.data as Room).agents.find((a) => a.id === 'acme-suporte')!.displayName;
    const notes = await systemNotes(roomId);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(new RegExp(`adicionou ${suporteName} ao chat\\.$`));
  });

  it('an admin may; adding oneself is entering (no toast, no note)', async () => {
    const roomId = await vendasRoomOfAgente();
    const res = await addTo(roomId, ['acme-suporte', 'acme-supervisor'], t.tokens.admin);
    expect(res.status, res.text).toBe(200);
    expect(res.body.meta.message).toBe(texts.chat.agentsAdded);
    expect((await systemNotes(roomId)).length).toBe(1);
    const self = await t.api(`/api/rooms/${roomId}/push`, { method: 'PATCH', body: {}, token: t.tokens.admin });
    expect(self.status).toBe(200);
    expect(self.body.meta.message).toBeUndefined();
    expect((await systemNotes(roomId)).length).toBe(1);
  });

  it('the attending agent, another department, a stranger, another tenant and a visitor are refused in Portuguese', async () => {
    const roomId = await vendasRoomOfAgente();
    const agent = await addTo(roomId, ['acme-suporte'], t.tokens.agente);
    expect(agent.status).toBe(403);
    expect(agent.body.errorMessage).toBe(texts.chatServer.pushNotAllowed);
    // suporte@ does not see a vendas chat attended by someone else.
    expect((await addTo(roomId, ['acme-suporte'], t.tokens.suporte)).status).toBe(404);
    const signup = await t.api('/api/users', { method: 'POST', body: { displayName: 'Estranho', email: `estranho-${randomUUID()}@acme.test`, password: 'segredo1', confirmPassword: 'segredo1' } });
    expect(signup.status, signup.text).toBe(201);
    expect((await addTo(roomId, ['acme-suporte'], signup.body.data.accessToken)).status).toBe(404);
    const outra = await addTo(roomId, ['acme-suporte'], await t.tokenFor('outra', 'outra-admin'), t.hosts.outra);
    expect(outra.status).toBe(404);
    expect((await addTo(roomId, ['acme-suporte'])).status).toBe(401);
    // Unknown agents and bad bodies: 400 with a message, never a 500.
    const unknown = await addTo(roomId, ['ninguem'], t.tokens.supervisor);
    expect(unknown.status).toBe(400);
    expect(unknown.body.errorMessage).toBeTruthy();
    for (const agents of ['acme-suporte', [1], Array.from({ length: 51 }, (_, i) => `a${i}`)]) {
      const bad = await addTo(roomId, agents, t.tokens.supervisor);
      expect(bad.status, JSON.stringify(agents)).toBe(400);
      expect(bad.body.errorMessage).toBeTruthy();
    }
    expect((await getAgents(roomId)).sort()).toEqual(['acme-agente']);
  });
});

async function getAgents(roomId: string): Promise<string[]> {
  const res = await t.api(`/api/rooms/${roomId}`, { token: t.tokens.admin });
  return (res.body.data as Room).agents.map((a) => a.id);
}

describe('add agents to an internal chat', () => {
  it('a member adds: note, toast text, the new member sees it live; non-members and repeats are refused', async () => {
    const created = await t.api('/api/internalChats', { method: 'POST', body: { agents: ['acme-suporte'] }, token: t.tokens.agente });
    expect(created.status, created.text).toBe(201);
    const room = created.body.data as Room;
    const sup = await socketAs(t, t.tokens.supervisor);
    await subscribe(sup, 'int', 'rooms', { tab: 'internalChats' });

    const added = await t.api(`/api/internalChats/${room.id}/agents`, { method: 'PATCH', body: { agents: ['acme-supervisor'] }, token: t.tokens.suporte });
    expect(added.status, added.text).toBe(200);
    expect(added.body.meta.message).toBe(texts.chat.agentsAdded);
    await waitForRecord(sup, 'int', (r: Room) => r.id === room.id, 'the internal chat in the supervisor\'s Interno');
    const notes = await systemNotes(room.id, t.tokens.supervisor);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toBe(format(texts.chatServer.agentsAddedNote, { by: String(added.body.data.agents.find((a: { id: string }) => a.id === 'acme-suporte').displayName), agents: String(added.body.data.agents.find((a: { id: string }) => a.id === 'acme-supervisor').displayName) }));
    const wrote = await t.api(`/api/rooms/${room.id}/message`, { method: 'POST', body: { text: 'Cheguei', clientId: randomUUID() }, token: t.tokens.supervisor });
    expect(wrote.status, wrote.text).toBe(201);

    const again = await t.api(`/api/internalChats/${room.id}/agents`, { method: 'PATCH', body: { agents: ['acme-supervisor'] }, token: t.tokens.agente });
    expect(again.status).toBe(400);
    expect(again.body.errorMessage).toBe(texts.chatServer.alreadyInChat);
    // Not a member (even an admin), another tenant, a visitor.
    expect((await t.api(`/api/internalChats/${room.id}/agents`, { method: 'PATCH', body: { agents: ['acme-admin'] }, token: t.tokens.admin })).status).toBe(404);
    expect((await t.api(`/api/internalChats/${room.id}/agents`, { method: 'PATCH', body: { agents: ['outra-admin'] }, token: await t.tokenFor('outra', 'outra-admin'), host: t.hosts.outra })).status).toBe(404);
    expect((await t.api(`/api/internalChats/${room.id}/agents`, { method: 'PATCH', body: { agents: ['acme-admin'] } })).status).toBe(401);
    // Another tenant's user is not an agent here.
    const foreign = await t.api(`/api/internalChats/${room.id}/agents`, { method: 'PATCH', body: { agents: ['outra-admin'] }, token: t.tokens.agente });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errorMessage).toBeTruthy();
  });
});
