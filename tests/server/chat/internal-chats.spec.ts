import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages as texts, type Room } from '@atendimento/schemas';
import { multipart, MULTIPART_TYPE } from '../../helpers/multipart';
import { everSaw, settle, socketAs, startChatServer, stopChatServer, subscribe, waitForRecord, type ChatTest } from './chat-helpers';

let t: ChatTest;
beforeAll(async () => {
  t = await startChatServer();
});
afterAll(() => stopChatServer(t));

async function startInternal(token: string, agents: string[], internalChatName?: string) {
  return t.api('/api/internalChats', { method: 'POST', body: { agents, ...(internalChatName !== undefined && { internalChatName }) }, token });
}

describe('internal chats between agents', () => {
  it('needs at least one other agent ("Escolha agentes para conversar!"); a 1:1 chat is found again, not duplicated', async () => {
    const none = await startInternal(t.tokens.agente, []);
    expect(none.status).toBe(400);
    expect(none.body.errorMessage).toBe(texts.chat.chooseInternalAgents);
    const self = await startInternal(t.tokens.agente, ['acme-agente']);
    expect(self.status).toBe(400);
    expect((await startInternal(t.tokens.agente, ['ninguem'])).status).toBe(400);
    const first = await startInternal(t.tokens.agente, ['acme-suporte'], 'ignorado');
    expect(first.status, first.text).toBe(201);
    const room = first.body.data as Room;
    expect(room.internal).toBe(true);
    expect(room.internalChatName).toBeNull();
    expect(room.chatId).toBe(['acme-agente', 'acme-suporte'].sort().join('_'));
    const again = await startInternal(t.tokens.suporte, ['acme-agente']);
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(room.id);
  });

  it('a group of three: the third sees messages live; an outsider (even an admin) gets 404 on REST and nothing on /ws', async () => {
    const outsider = await socketAs(t, t.tokens.admin);
    await subscribe(outsider, 'int', 'rooms', { tab: 'internalChats' });
    await subscribe(outsider, 'meus', 'rooms', { tab: 'userChats' });
    const third = await socketAs(t, t.tokens.suporte);
    await subscribe(third, 'int', 'rooms', { tab: 'internalChats' });

    const created = await startInternal(t.tokens.agente, ['acme-supervisor', 'acme-suporte'], 'Plantão');
    expect(created.status, created.text).toBe(201);
    const room = created.body.data as Room;
    expect(room.internalChatName).toBe('Plantão');
    expect(room.agents.map((a) => a.id).sort()).toEqual(['acme-agente', 'acme-supervisor', 'acme-suporte']);
    await waitForRecord(third, 'int', (r: { id: string }) => r.id === room.id, 'the group in the third member\'s Interno tab');
    await subscribe(third, 'msgs', 'messages', { roomId: room.id });

    const sent = await t.api(`/api/rooms/${room.id}/message`, { method: 'POST', body: { text: 'Alguém cobre o turno?', clientId: randomUUID() }, token: t.tokens.agente });
    expect(sent.status, sent.text).toBe(201);
    await waitForRecord(third, 'msgs', (m: { id: string }) => m.id === sent.body.data.id, 'the message live for the third member');
    await waitForRecord(third, 'int', (r: Room) => r.id === room.id && r.lastMessage?.unread === true, 'unread for the others');
    const answer = await t.api(`/api/rooms/${room.id}/message`, { method: 'POST', body: { text: 'Eu cubro.', clientId: randomUUID() }, token: t.tokens.suporte });
    expect(answer.status).toBe(201);

    // The outsider: nothing over REST...
    for (const path of [`/api/rooms/${room.id}`, `/api/rooms/${room.id}/messages`, `/api/rooms/${room.id}/messages/${sent.body.data.id}`]) {
      expect((await t.api(path, { token: t.tokens.admin })).status, path).toBe(404);
    }
    expect((await t.api(`/api/rooms/${room.id}/message`, { method: 'POST', body: { text: 'intruso' }, token: t.tokens.admin })).status).toBe(404);
    expect((await t.api(`/api/internalChats/${room.id}/agents`, { method: 'PATCH', body: { agents: ['acme-admin'] }, token: t.tokens.admin })).status).toBe(404);
    const tab = await t.api('/api/rooms?tab=internalChats', { token: t.tokens.admin });
    expect(tab.body.data.map((r: Room) => r.id)).not.toContain(room.id);
    // ...and nothing over /ws, not even when asking for the room by id.
    outsider.send({ type: 'subscribe', id: 'one', collection: 'rooms', query: { roomId: room.id } });
    outsider.send({ type: 'subscribe', id: 'om', collection: 'messages', query: { roomId: room.id } });
    await settle(t);
    expect(everSaw(outsider, room.id)).toBe(false);
    expect(everSaw(outsider, sent.body.data.id)).toBe(false);
    // The public-link exchange never opens an internal chat.
    expect((await t.api('/api/auth/anonymous', { method: 'POST', body: { roomToken: room.publicToken } })).status).toBeGreaterThanOrEqual(400);
  });

  it('members add agents and leave; read/unread; images and documents but no audio', async () => {
    const created = await startInternal(t.tokens.supervisor, ['acme-agente', 'acme-suporte'], 'Equipe');
    const room = created.body.data as Room;
    const added = await t.api(`/api/internalChats/${room.id}/agents`, { method: 'PATCH', body: { agents: ['acme-admin'] }, token: t.tokens.agente });
    expect(added.status, added.text).toBe(200);
    expect(added.body.data.agents.map((a: { id: string }) => a.id)).toContain('acme-admin');
    expect((await t.api(`/api/rooms/${room.id}`, { token: t.tokens.admin })).status).toBe(200);

    await t.api(`/api/rooms/${room.id}/message`, { method: 'POST', body: { text: 'Oi equipe', clientId: randomUUID() }, token: t.tokens.supervisor });
    const read = await t.api(`/api/rooms/${room.id}`, { method: 'PATCH', body: { lastMessage: { unread: false } }, token: t.tokens.agente });
    expect(read.status, read.text).toBe(200);
    expect(read.body.data.lastMessage.unread).toBe(false);

    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
    const image = multipart({ type: 'image', clientId: randomUUID() }, { name: 'a.png', type: 'image/png', bytes: png });
    const img = await t.api(`/api/rooms/${room.id}/message/file?type=image`, { method: 'POST', body: image, headers: { 'content-type': MULTIPART_TYPE }, token: t.tokens.agente });
    expect(img.status, img.text).toBe(201);
    const mp3 = Buffer.concat([Buffer.from('ID3'), Buffer.alloc(512)]);
    const audio = multipart({ type: 'audio', clientId: randomUUID() }, { name: 'a.mp3', type: 'audio/mpeg', bytes: mp3 });
    const aud = await t.api(`/api/rooms/${room.id}/message/file?type=audio`, { method: 'POST', body: audio, headers: { 'content-type': MULTIPART_TYPE }, token: t.tokens.agente });
    expect(aud.status).toBe(400);
    expect(aud.body.errorMessage).toBe(texts.internalChat.audioNotAllowed);

    const left = await t.api(`/api/internalChats/${room.id}/leave`, { method: 'PATCH', token: t.tokens.agente });
    expect(left.status).toBe(200);
    expect((await t.api(`/api/rooms/${room.id}`, { token: t.tokens.agente })).status).toBe(404);
    expect((await t.api(`/api/internalChats/${room.id}/leave`, { method: 'PATCH', token: t.tokens.agente })).status).toBe(404);
    // A visitor token may not start one.
    expect((await t.api('/api/internalChats', { method: 'POST', body: { agents: ['acme-agente'] } })).status).toBe(401);
  });
});
