import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages as texts, type Message, type Room } from '@atendimento/schemas';
import { toJson } from '@atendimento/server/db/knex';
import { push, received, settle, socketAs, startChatServer, stopChatServer, subscribe, visitorStarts, waitForRecord, type ChatTest } from './chat-helpers';
import { waitFor } from '../../helpers/wait-for';

let t: ChatTest;
beforeAll(async () => {
  t = await startChatServer();
  const iso = new Date().toISOString();
  const row = (table: string, id: string, data: Record<string, unknown>, extra: Record<string, unknown>) => t.server.db(table).insert({ id, tenant_id: 'acme', data: toJson({ id, ...data }), created_at: iso, updated_at: iso, deleted_at: null, active: true, ...extra });
  await row('fixed_messages', 'fm-boas-vindas', { message: 'Seja bem-vindo à Acme!', active: true }, { owner_id: null });
  await row('fixed_messages', 'fm-do-suporte', { message: 'Mensagem pessoal', active: true, uid: 'acme-suporte' }, { owner_id: 'acme-suporte' });
  await row('tags', 'tag-venda', { name: 'Venda', active: true }, { name: 'Venda' });
  await row('tags', 'tag-duvida', { name: 'Dúvida', active: true }, { name: 'Dúvida' });
});
afterAll(() => stopChatServer(t));

const send = (roomId: string, body: Record<string, unknown>, token = t.tokens.agente) => t.api(`/api/rooms/${roomId}/message`, { method: 'POST', body, token });

describe('message actions of the open chat', () => {
  it('replies with a quote, edits and deletes own messages, reacts, sends fixed messages; the visitor sees each change live', async () => {
    const visitor = await visitorStarts(t, 'site-vendas', 'Qual o prazo de entrega?');
    const roomId = visitor.roomId!;
    await push(t, t.tokens.agente, roomId);
    const visitorWs = await socketAs(t, visitor.accessToken!);
    const snap = await subscribe(visitorWs, 'msgs', 'messages', { roomId });
    const question = snap.records[0] as unknown as Message;
    expect(question.text).toBe('Qual o prazo de entrega?');

    // Reply with the quote of the visitor's message.
    const reply = await send(roomId, { text: 'Cinco dias úteis.', replyTo: question.id });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.data.replied).toMatchObject({ id: question.id, text: 'Qual o prazo de entrega?', author: { type: 'client' } });

    // Edit: the text changes, the earlier text goes to versions; only one's own text messages.
    const edited = await send(roomId, { text: 'Três dias úteis.', editMessageId: reply.body.data.id });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body.data).toMatchObject({ id: reply.body.data.id, text: 'Três dias úteis.', versions: [{ text: 'Cinco dias úteis.', editedBy: 'acme-agente' }] });
    await waitForRecord<Message>(visitorWs, 'msgs', (m) => m.id === reply.body.data.id && m.text === 'Três dias úteis.', 'edit for the visitor');
    const notMine = await send(roomId, { text: 'hack', editMessageId: question.id });
    expect(notMine.status).toBe(403);
    expect(notMine.body.errorMessage).toBe(texts.chatServer.editOwnOnly);

    // Reaction on the visitor's message, then removed with an empty reaction.
    const reacted = await t.api(`/api/rooms/${roomId}/message/${question.id}/sendReaction`, { method: 'POST', body: { reaction: '👍' }, token: t.tokens.agente });
    expect(reacted.status, reacted.text).toBe(200);
    expect(reacted.body.data).toMatchObject({ reaction: '👍', reactions: [{ emoji: '👍', author: { id: 'acme-agente' } }] });
    const unreacted = await t.api(`/api/rooms/${roomId}/message/${question.id}/sendReaction`, { method: 'POST', body: { reaction: '' }, token: t.tokens.agente });
    expect(unreacted.body.data).toMatchObject({ reaction: null, reactions: [] });

    // Fixed message (POST .../message/fileUrl): global ones for everyone, personal ones for their owner.
    const fixed = await t.api(`/api/rooms/${roomId}/message/fileUrl`, { method: 'POST', body: { fixedMessageId: 'fm-boas-vindas', clientId: 'fixo-1' }, token: t.tokens.agente });
    expect(fixed.status, fixed.text).toBe(201);
    expect(fixed.body.data).toMatchObject({ type: 'text', text: 'Seja bem-vindo à Acme!' });
    const others = await t.api(`/api/rooms/${roomId}/message/fileUrl`, { method: 'POST', body: { fixedMessageId: 'fm-do-suporte' }, token: t.tokens.agente });
    expect(others.status).toBe(404);

    // Delete own message: 'Mensagem apagada' for everyone; the content stays for admins.
    const removed = await t.api('/api/zApi/deleteMessage', { method: 'POST', body: { roomId, messageIntId: fixed.body.data.id, messageId: null, channelId: 'site-vendas', phone: null }, token: t.tokens.agente });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.data).toMatchObject({ text: null, status: { deleted: true } });
    await waitForRecord<Message>(visitorWs, 'msgs', (m) => m.id === fixed.body.data.id && Boolean(m.status?.deleted), 'deletion for the visitor');
    await settle(t);
    expect(received(visitorWs, 'msgs').get(fixed.body.data.id)!.text).toBeNull();
    const room = (await t.api(`/api/rooms/${roomId}`, { token: t.tokens.agente })).body.data as Room;
    expect(room.lastMessage!.text).toBe(texts.chat.messageDeleted);
    const asAdmin = await t.api(`/api/rooms/${roomId}/messages/${fixed.body.data.id}`, { token: t.tokens.admin });
    expect(asAdmin.body.data.deletedContent).toMatchObject({ text: 'Seja bem-vindo à Acme!' });
    const asAgent = await t.api(`/api/rooms/${roomId}/messages/${fixed.body.data.id}`, { token: t.tokens.agente });
    expect(asAgent.body.data.deletedContent).toBeUndefined();
    const deleteOthers = await t.api('/api/zApi/deleteMessage', { method: 'POST', body: { roomId, messageIntId: question.id }, token: t.tokens.agente });
    expect(deleteOthers.status).toBe(403);
  });

  it('changes tags (one unless multiTags), marks unread and read, and keeps on-hold behind its claim', async () => {
    const visitor = await visitorStarts(t, 'site-vendas', 'Quero comprar');
    const roomId = visitor.roomId!;
    await push(t, t.tokens.agente, roomId);
    const tagged = await t.api(`/api/rooms/${roomId}`, { method: 'PATCH', body: { tags: ['tag-venda'] }, token: t.tokens.agente });
    expect(tagged.status, tagged.text).toBe(200);
    expect(tagged.body.data).toMatchObject({ tags: ['tag-venda'], tagsNames: ['Venda'] });
    expect((await t.api(`/api/rooms/${roomId}`, { method: 'PATCH', body: { tags: ['tag-venda', 'tag-duvida'] }, token: t.tokens.agente })).status).toBe(400);
    const byTag = await t.api('/api/mongodb/search', { method: 'POST', body: { tags: ['tag-venda'] }, token: t.tokens.agente });
    expect(byTag.body.data).toEqual([roomId]);

    const unread = await t.api(`/api/rooms/${roomId}`, { method: 'PATCH', body: { lastMessage: { unread: true } }, token: t.tokens.agente });
    expect(unread.body.data.lastMessage.unread).toBe(true);
    const read = await t.api('/api/read', { token: t.tokens.agente });
    // Two own chats: this one and the one of the first test, still open.
    expect(read.body.data).toMatchObject({ unreadChats: 1, chats: 2 });
    await t.api(`/api/rooms/${roomId}`, { method: 'PATCH', body: { lastMessage: { unread: false } }, token: t.tokens.agente });
    expect((await t.api('/api/read', { token: t.tokens.agente })).body.data).toMatchObject({ unreadChats: 0, unreadMessages: 0, chats: 2 });

    expect((await t.api(`/api/rooms/${roomId}`, { method: 'PATCH', body: { onHold: { active: true, message: 'Aguarde' } }, token: t.tokens.agente })).status).toBe(403);
  });

  it('marks a send to a channel without a provider as failed, and resends only failed messages', async () => {
    const created = await t.api('/api/rooms', { method: 'POST', body: { contact: { displayName: 'Cliente WhatsApp', phone: '5511912345678' }, channelId: 'wa-vendas' }, token: t.tokens.agente });
    expect(created.status, created.text).toBe(201);
    const roomId = created.body.data.id;
    const agenteWs = await socketAs(t, t.tokens.agente);
    await subscribe(agenteWs, 'msgs', 'messages', { roomId });
    const sent = await send(roomId, { text: 'Olá, aqui é da Acme' });
    expect(sent.status).toBe(201);
    const failed = await waitForRecord<Message>(agenteWs, 'msgs', (m) => m.id === sent.body.data.id && Boolean(m.status?.failed), 'failed status');
    expect(failed.status!.errors![0]!.titleptBR).toBe(texts.chat.sendFailed);
    const resent = await t.api(`/api/rooms/resendMessage/${roomId}/message/${sent.body.data.id}`, { method: 'POST', body: {}, token: t.tokens.agente });
    expect(resent.status, resent.text).toBe(200);
    await waitFor(async () => {
      const m = await t.api(`/api/rooms/${roomId}/messages/${sent.body.data.id}`, { token: t.tokens.agente });
      return m.body.data.status?.failed;
    }, 'failed again');
    // A message that did not fail is not resent.
    const visitor = await visitorStarts(t, 'site-vendas', 'Oi');
    await push(t, t.tokens.agente, visitor.roomId!);
    const ok = await send(visitor.roomId!, { text: 'Oi!' });
    const refused = await t.api(`/api/rooms/resendMessage/${visitor.roomId}/message/${ok.body.data.id}`, { method: 'POST', body: {}, token: t.tokens.agente });
    expect(refused.status).toBe(409);
    expect(refused.body.errorMessage).toBe(texts.chatServer.resendNotFailed);
  });
});
