import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages as texts, type Message, type Room } from '@atendimento/schemas';
import { everSaw, getRoom, push, received, settle, socketAs, startChatServer, stopChatServer, subscribe, visitorStarts, visitorWrites, waitForRecord, type ChatTest } from './chat-helpers';

let t: ChatTest;
beforeAll(async () => {
  t = await startChatServer();
});
afterAll(() => stopChatServer(t));

async function messagesOf(token: string, roomId: string): Promise<Message[]> {
  const res = await t.api(`/api/rooms/${roomId}/messages?limit=200`, { token });
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

describe('an agent attends a web-chat conversation', () => {
  it('enters (push), replies, the visitor reads it live; internal notes never reach the visitor; closing needs a justification', async () => {
    const agenteWs = await socketAs(t, t.tokens.agente);
    await subscribe(agenteWs, 'fila', 'rooms', { tab: 'queuesChats' });
    await subscribe(agenteWs, 'meus', 'rooms', { tab: 'userChats' });
    await subscribe(agenteWs, 'hist', 'rooms', { tab: 'chatsHistories' });

    const visitor = await visitorStarts(t, 'site-vendas', 'Bom dia! <b>urgente</b>');
    const roomId = visitor.roomId!;
    const visitorWs = await socketAs(t, visitor.accessToken!);
    await subscribe(visitorWs, 'room', 'rooms', { roomId });
    await subscribe(visitorWs, 'msgs', 'messages', { roomId });
    await subscribe(agenteWs, 'msgs', 'messages', { roomId });
    await waitForRecord<Room>(agenteWs, 'fila', (r) => r.id === roomId, 'room in Fila');

    // Sending before entering is refused with a message that says what to do.
    const early = await t.api(`/api/rooms/${roomId}/message`, { method: 'POST', body: { text: 'Oi' }, token: t.tokens.agente });
    expect(early.status).toBe(403);
    expect(early.body.errorMessage).toBe(texts.chatServer.enterFirst);

    // Enter: the room leaves Fila and appears in Meus.
    const entered = await push(t, t.tokens.agente, roomId);
    expect(entered).toMatchObject({ inAttend: true, agents: [{ id: 'acme-agente', displayName: 'Agente Acme' }] });
    expect(entered.agentsHistory.map((a) => a.id)).toEqual(['acme-agente']);
    await waitForRecord<Room>(agenteWs, 'meus', (r) => r.id === roomId && r.inAttend, 'room in Meus');
    await settle(t);
    expect(agenteWs.frames.some((f) => f.type === 'changes' && f.id === 'fila' && f.removed.includes(roomId))).toBe(true);

    // Reply, retried with the same idempotency key: one message.
    const clientId = randomUUID();
    const first = await t.api(`/api/rooms/${roomId}/message`, { method: 'POST', body: { text: 'Olá! Como posso ajudar?', clientId }, token: t.tokens.agente });
    expect(first.status, first.text).toBe(201);
    expect(first.body.meta).toEqual({ ok: true, created: true });
    const retry = await t.api(`/api/rooms/${roomId}/message`, { method: 'POST', body: { text: 'Olá! Como posso ajudar?', clientId }, token: t.tokens.agente });
    expect(retry.status).toBe(200);
    expect(retry.body.meta.created).toBe(false);
    expect(retry.body.data.id).toBe(first.body.data.id);
    // The same through the Idempotency-Key header.
    const key = randomUUID();
    const h1 = await t.api(`/api/rooms/${roomId}/message`, { method: 'POST', body: { text: 'Um momento, por favor.' }, headers: { 'idempotency-key': key }, token: t.tokens.agente });
    const h2 = await t.api(`/api/rooms/${roomId}/message`, { method: 'POST', body: { text: 'Um momento, por favor.' }, headers: { 'idempotency-key': key }, token: t.tokens.agente });
    expect([h1.status, h2.status]).toEqual([201, 200]);
    expect(h2.body.data.id).toBe(h1.body.data.id);
    const texts1 = (await messagesOf(t.tokens.agente, roomId)).map((m) => m.text);
    expect(texts1.filter((x) => x === 'Olá! Como posso ajudar?')).toHaveLength(1);
    expect(texts1.filter((x) => x === 'Um momento, por favor.')).toHaveLength(1);

    // An internal note: the agent sees it, the visitor never does.
    const note = await t.api(`/api/rooms/${roomId}/message`, { method: 'POST', body: { text: 'Cliente VIP', annotation: true }, token: t.tokens.agente });
    expect(note.status).toBe(201);
    expect(note.body.data.annotation).toBe(true);
    await waitForRecord<Message>(agenteWs, 'msgs', (m) => m.id === note.body.data.id, 'note for the agent');

    // The visitor gets the reply live, sent; the room shows the agent's last message.
    const reply = await waitForRecord<Message>(visitorWs, 'msgs', (m) => m.id === first.body.data.id, 'reply for the visitor');
    expect(reply).toMatchObject({ text: 'Olá! Como posso ajudar?', author: { type: 'agent', displayName: 'Agente Acme' }, status: { sent: true } });
    await settle(t);
    expect(everSaw(visitorWs, note.body.data.id)).toBe(false);
    expect((await messagesOf(visitor.accessToken!, roomId)).map((m) => m.id)).not.toContain(note.body.data.id);
    expect((await t.api(`/api/rooms/${roomId}/messages/${note.body.data.id}`, { token: visitor.accessToken })).status).toBe(404);

    // Read receipt from the widget: the agent's bubble turns 'read' live.
    const receipts = await t.api(`/api/webchat/rooms/${roomId}/receipts`, { method: 'POST', body: { read: [first.body.data.id] }, headers: { 'x-visitor-key': visitor.visitorKey } });
    expect(receipts.status, receipts.text).toBe(200);
    expect(receipts.body.data.updated).toBe(1);
    await waitForRecord<Message>(agenteWs, 'msgs', (m) => m.id === first.body.data.id && Boolean(m.status?.read), 'read receipt for the agent');
    // Someone else's key cannot send receipts (nor say which rooms exist).
    const stranger = await t.api(`/api/webchat/rooms/${roomId}/receipts`, { method: 'POST', body: { read: [h1.body.data.id] }, headers: { 'x-visitor-key': 'x'.repeat(40) } });
    expect(stranger.status).toBe(404);

    // The visitor answers: unread for the agent, visitor HTML kept as plain text.
    const answer = await visitorWrites(t, visitor, 'Quero <script>alert(1)</script> 3 unidades');
    expect(answer.status).toBe(201);
    const unread = await waitForRecord<Room>(agenteWs, 'meus', (r) => r.id === roomId && r.lastMessage?.unread === true && r.unreadCount === 1, 'unread room');
    expect(unread.lastMessage!.text).toBe('Quero <script>alert(1)</script> 3 unidades');
    // Reading the room marks the contact's messages read (the widget shows 'lida').
    const markRead = await t.api(`/api/rooms/${roomId}`, { method: 'PATCH', body: { lastMessage: { unread: false } }, token: t.tokens.agente });
    expect(markRead.status, markRead.text).toBe(200);
    expect(markRead.body.data).toMatchObject({ unreadCount: 0, lastMessage: { unread: false } });
    await waitForRecord<Message>(visitorWs, 'msgs', (m) => m.id === answer.body.data.id && Boolean(m.status?.read), 'read status for the visitor');

    // Closing without a justification (the closure configuration requires one).
    for (const closedBy of [undefined, { justify: '' }, { justify: 'Inventada' }]) {
      const res = await t.api(`/api/rooms/${roomId}/close`, { method: 'PATCH', body: closedBy ? { closedBy } : {}, token: t.tokens.agente });
      expect(res.status).toBe(400);
      expect(res.body.errorMessage).toBe('Escolha uma justificativa de encerramento!');
    }
    expect((await getRoom(t, t.tokens.agente, roomId)).active).toBe(true);
    // Another department's agent cannot close it.
    expect((await t.api(`/api/rooms/${roomId}/close`, { method: 'PATCH', body: { closedBy: { justify: 'Resolvido' } }, token: t.tokens.suporte })).status).toBe(404);

    const closed = await t.api(`/api/rooms/${roomId}/close`, { method: 'PATCH', body: { closedBy: { justify: 'Resolvido', obs: 'Orçamento enviado' } }, token: t.tokens.agente });
    expect(closed.status, closed.text).toBe(200);
    expect(closed.body.data).toMatchObject({ active: false, inAttend: false, agents: [], closedBy: { id: 'acme-agente', justify: 'Resolvido', obs: 'Orçamento enviado', noMessage: false, mass: false } });
    // It moves to Histórico, the visitor sees the closing notice and the closed room.
    await waitForRecord<Room>(agenteWs, 'hist', (r) => r.id === roomId, 'room in Histórico');
    await waitForRecord<Message>(visitorWs, 'msgs', (m) => m.text === texts.chatServer.closedNotice, 'closing notice');
    await waitForRecord<Room>(visitorWs, 'room', (r) => r.id === roomId && r.active === false, 'closed room for the visitor');
    await settle(t);
    expect(received(agenteWs, 'meus').has(roomId)).toBe(true);
    expect(agenteWs.frames.some((f) => f.type === 'changes' && f.id === 'meus' && f.removed.includes(roomId))).toBe(true);

    // After closing: nobody writes in it; the visitor's next message starts a new conversation.
    expect((await t.api(`/api/rooms/${roomId}/message`, { method: 'POST', body: { text: 'Mais uma coisa' }, token: t.tokens.agente })).status).toBe(409);
    const late = await visitorWrites(t, visitor, 'Ainda está aí?');
    expect(late.status).toBe(409);
    expect(late.body.errorMessage).toBe(texts.webchat.closed);
    // A reload right after the goodbye shows the closed chat (docs/webchat.md); writing starts a new one.
    const resumed = await t.api('/api/webchat/site-vendas/session', { method: 'POST', body: { visitorKey: visitor.visitorKey } });
    expect(resumed.body.data.roomId).toBe(roomId);
    const second = await t.api('/api/webchat/site-vendas/session', { method: 'POST', body: { visitorKey: visitor.visitorKey, text: 'Voltei!' } });
    expect(second.body.data.roomId).toBeTruthy();
    expect(second.body.data.roomId).not.toBe(roomId);
    const newRoom = await getRoom(t, t.tokens.agente, second.body.data.roomId);
    expect(newRoom.author.id).toBe(closed.body.data.author.id);
  });

  it('closes without notice, leaves (pull) back to the queue, and checks pushing others', async () => {
    const visitor = await visitorStarts(t, 'site-vendas', 'Oi de novo');
    const roomId = visitor.roomId!;
    await push(t, t.tokens.agente, roomId);
    const pulled = await t.api(`/api/rooms/${roomId}/pull`, { method: 'PATCH', body: {}, token: t.tokens.agente });
    expect(pulled.body.data).toMatchObject({ agents: [], inAttend: false });
    expect((await t.api('/api/rooms?tab=queuesChats', { token: t.tokens.agente })).body.data.map((r: Room) => r.id)).toContain(roomId);
    // An agent may not push someone else; the department's supervisor may.
    const other = await t.api(`/api/rooms/${roomId}/push`, { method: 'PATCH', body: { agents: ['acme-supervisor'] }, token: t.tokens.agente });
    expect(other.status).toBe(403);
    expect(other.body.errorMessage).toBe(texts.chatServer.pushNotAllowed);
    const bySupervisor = await t.api(`/api/rooms/${roomId}/push`, { method: 'PATCH', body: { agents: ['acme-agente'] }, token: t.tokens.supervisor });
    expect(bySupervisor.status, bySupervisor.text).toBe(200);
    expect(bySupervisor.body.data.agents.map((a: { id: string }) => a.id)).toEqual(['acme-agente']);

    const quiet = await t.api(`/api/rooms/${roomId}/closeNoMessage`, { method: 'PATCH', body: { closedBy: { justify: 'Sem retorno' } }, token: t.tokens.agente });
    expect(quiet.status, quiet.text).toBe(200);
    expect(quiet.body.data.closedBy).toMatchObject({ justify: 'Sem retorno', noMessage: true });
    const msgs = await messagesOf(t.tokens.agente, roomId);
    expect(msgs.map((m) => m.text)).not.toContain(texts.chatServer.closedNotice);
    const again = await t.api(`/api/rooms/${roomId}/close`, { method: 'PATCH', body: { closedBy: { justify: 'Resolvido' } }, token: t.tokens.agente });
    expect(again.status).toBe(409);
    expect(again.body.errorMessage).toBe(texts.chatServer.alreadyClosed);
  });

  it('answers bad input with 4xx and a pt-BR message, never 500', async () => {
    const visitor = await visitorStarts(t, 'site-vendas', 'Teste de validação');
    const roomId = visitor.roomId!;
    await push(t, t.tokens.agente, roomId);
    const cases: [string, string, unknown][] = [
      ['POST', `/api/rooms/${roomId}/message`, {}],
      ['POST', `/api/rooms/${roomId}/message`, { text: 'x'.repeat(4001) }],
      ['POST', `/api/rooms/${roomId}/message`, { text: '   ' }],
      ['POST', `/api/rooms/${roomId}/message`, { text: 'oi', replyTo: 'nao-existe' }],
      ['PATCH', `/api/rooms/${roomId}`, { tags: ['nao-existe'] }],
      ['PATCH', `/api/rooms/${roomId}`, {}],
      ['POST', '/api/rooms', {}],
      ['POST', '/api/rooms', { contact: { displayName: 'Novo', phone: '12' } }],
      ['POST', '/api/rooms/massClose', { chatIds: [] }],
      ['GET', '/api/rooms?tab=inexistente', undefined],
      ['GET', '/api/rooms?tab=userChats&filter={nao-json', undefined],
      ['GET', '/api/rooms?tab=userChats&filter=' + encodeURIComponent(JSON.stringify({ field: 'data', op: '==', value: 'x' })), undefined],
      ['GET', '/api/rooms?tab=userChats&after=lixo', undefined],
      ['GET', `/api/rooms/${roomId}/messages?limit=100000`, undefined],
      ['POST', '/api/mongodb/search', { text: 'ab' }],
      ['POST', '/api/webchat/site-vendas/session', { visitorKey: 'curta' }],
      ['POST', '/api/webchat/site-vendas/session', { text: 'oi', email: 'nao-e-email' }],
    ];
    for (const [method, path, body] of cases) {
      const res = await t.api(path, { method, body, token: t.tokens.agente });
      expect(res.status, `${method} ${path}: ${res.text}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${method} ${path}`).toBeLessThan(500);
      expect(typeof res.body.errorMessage, `${method} ${path}`).toBe('string');
    }
    const short = await t.api('/api/mongodb/search', { method: 'POST', body: { text: '(a)' }, token: t.tokens.agente });
    expect(short.body.errorMessage).toBe('Favor informar pelo menos 3 letras');
    // A chat's number is searchable however short (the console sends '7' or '63' as typed).
    const number = (await t.api(`/api/rooms/${roomId}`, { token: t.tokens.agente })).body.data.roomInc as number;
    expect(String(number).length).toBeLessThan(3);
    const byNumber = await t.api('/api/mongodb/search', { method: 'POST', body: { text: String(number) }, token: t.tokens.agente });
    expect(byNumber.status, byNumber.text).toBe(200);
    expect(JSON.stringify(byNumber.body)).toContain(roomId);
    const long = await t.api(`/api/rooms/${roomId}/message`, { method: 'POST', body: { text: 'x'.repeat(4001) }, token: t.tokens.agente });
    expect(long.body.fields[0].message).toBe('Limite de caracteres excedido');
  });
});
