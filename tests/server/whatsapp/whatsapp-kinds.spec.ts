import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages as texts, type Message, type Room } from '@atendimento/schemas';
import { customerMessage } from '@atendimento/integrations/providers/meta-graph-server';
import { parseJson } from '@atendimento/server/db/knex';
import { waitFor } from '../../helpers/wait-for';
import { messageRows, startWhatsappServer, stopWhatsappServer, type WhatsappTest } from './whatsapp-helpers';

/**
 * Every Cloud API message kind beyond plain content, as the local Graph server's scripted
 * customer sends it: a signed webhook through the real route, then the stored message as the
 * console reads it (GET /api/rooms/{id}/messages/{messageId}).
 */
let t: WhatsappTest;
beforeAll(async () => {
  t = await startWhatsappServer({ statusDelayMs: 10 });
});
afterAll(() => stopWhatsappServer(t));

let seq = 0;
/** A customer of a fresh phone sends one message of `kind`; answers the stored message and its room. */
async function says(phone: string, input: Parameters<typeof customerMessage>[0], lastText?: string): Promise<{ id: string; message: Message | null; roomId: string | null }> {
  const built = customerMessage(input, phone, lastText);
  if ('error' in built) throw new Error(built.error);
  const id = await t.graph.customerSays({ phone, name: `Cliente ${phone.slice(-4)}` }, { id: `wamid.kind${++seq}`, ...built.message });
  expect(t.graph.webhookResults.at(-1)?.status, t.graph.webhookResults.at(-1)?.body).toBe(200);
  const [row] = await messageRows(t, 'wa-meta', id);
  if (!row) return { id, message: null, roomId: null };
  const res = await t.api(`/api/rooms/${row.room_id}/messages/${row.id}`, { token: t.tokens.admin });
  expect(res.status, res.text).toBe(200);
  return { id, message: res.body.data as Message, roomId: row.room_id as string };
}

const stored = async (id: string) => {
  const [row] = await messageRows(t, 'wa-meta', id);
  return parseJson<Message>(row!.data, {} as Message);
};

describe('WhatsApp message kinds through the webhook route', () => {
  it('an order: the products with quantity, price and currency, the catalog and the total', async () => {
    const { message } = await says('5511911110001', { kind: 'order', text: 'Para entregar hoje' });
    expect(message).toMatchObject({
      type: 'order',
      text: 'Para entregar hoje',
      order: {
        catalog_id: '354160437058781',
        text: 'Para entregar hoje',
        product_items: [{ product_retailer_id: 'BOLO-CENOURA', quantity: 2, item_price: 35, currency: 'BRL' }, { product_retailer_id: 'CAFE-250G', quantity: 1, item_price: 18.9, currency: 'BRL' }],
        total: 88.9,
      },
    });
    expect((message!.raw as { type: string }).type).toBe('order');
    const room = await t.api(`/api/rooms/${(await messageRows(t, 'wa-meta', message!.messageExtId!))[0]!.room_id}`, { token: t.tokens.admin });
    expect(room.body.data.lastMessage.text).toBe('Para entregar hoje');
  });

  it('a customer who changes number stays the same contact: same room, the old number kept, replies go to the new one', async () => {
    const first = await says('5511911110002', { text: 'Oi, vou trocar de chip' });
    const room = (await t.api(`/api/rooms/${first.roomId}`, { token: t.tokens.admin })).body.data as Room;
    const contactId = room.author.id;
    const notice = await says('5511911110002', { kind: 'changeNumber', newPhone: '5521922220002' });
    expect(notice.roomId).toBe(first.roomId);
    expect(notice.message).toMatchObject({
      type: 'system',
      author: { type: 'system', displayName: 'WhatsApp' },
      system: { type: 'user_changed_number', previousPhone: '5511911110002', newPhone: '5521922220002' },
      text: texts.whatsappKinds.numberChanged.replace('{old}', '+5511911110002').replace('{new}', '+5521922220002'),
    });
    const after = await says('5521922220002', { text: 'Agora é este número' });
    expect(after.roomId).toBe(first.roomId);
    expect(after.message!.author.id).toBe(contactId);
    const moved = (await t.api(`/api/rooms/${first.roomId}`, { token: t.tokens.admin })).body.data as Room;
    expect(moved.chatId).toBe('5521922220002');
    const contact = await t.server.db('contacts').where({ tenant_id: 'acme', id: contactId }).first();
    expect(contact.phone).toBe('5521922220002');
    expect(parseJson<{ phoneAliases: string[] }>(contact.data, { phoneAliases: [] }).phoneAliases).toEqual(['5511911110002']);
    // The old number still reaches the same contact (an alias), and replies go to the new number.
    expect((await t.server.db('contact_identities').where({ tenant_id: 'acme', channel_id: 'wa-meta' }).whereIn('identity', ['5511911110002', '5521922220002'])).map((r) => r.contact_id)).toEqual([contactId, contactId]);
    expect((await t.api(`/api/rooms/${first.roomId}/push`, { method: 'PATCH', body: {}, token: t.tokens.agente })).status).toBe(200);
    const before = t.graph.sent.length;
    expect((await t.api(`/api/rooms/${first.roomId}/message`, { method: 'POST', body: { text: 'Anotado!' }, token: t.tokens.agente })).status).toBe(201);
    await waitFor(async () => (t.graph.sent.length > before ? true : null), 'reply sent');
    expect(t.graph.sent.at(-1)!.to).toBe('5521922220002');
  });

  it("a message naming the customer only by user id (BSUID) lands in the chat of the contact's number, also a changed user id's notice", async () => {
    const phone = '5511911110077';
    const userId = 'BR.7766554433221100';
    const first = await t.graph.customerSays({ phone, name: 'Cliente Bsuid', userId }, { id: 'wamid.bsuid1', type: 'text', text: { body: 'Oi, com número' }, from_user_id: userId });
    const [firstRow] = await messageRows(t, 'wa-meta', first);
    expect(firstRow).toBeTruthy();
    // Later deliveries without the number (Meta's usernames hide it), as Meta's reference shows them.
    const envelope = (messages: unknown[], contacts: unknown[]) => Buffer.from(JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [{ id: 'WABA', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { display_phone_number: '5511999990000', phone_number_id: 'PN1' }, contacts, messages } }] }],
    }));
    const now = String(Math.floor(Date.now() / 1000));
    expect((await t.graph.replay(envelope([{ from_user_id: userId, id: 'wamid.bsuid2', timestamp: now, type: 'text', text: { body: 'Agora sem número' } }], [{ profile: { name: 'Cliente Bsuid' }, user_id: userId }]))).status).toBe(200);
    expect((await t.graph.replay(envelope([{ id: 'wamid.bsuid3', timestamp: now, type: 'system', system: { body: 'User changed', type: 'user_changed_user_id', previous_user_id: userId, new_user_id: 'BR.1122334455667788' } }], [{ profile: { name: 'Cliente Bsuid' }, user_id: userId }]))).status).toBe(200);
    const rows = await messageRows(t, 'wa-meta');
    const ours = rows.filter((r) => ['wamid.bsuid1', 'wamid.bsuid2', 'wamid.bsuid3'].includes(String(r.external_id)));
    expect(ours).toHaveLength(3);
    expect(new Set(ours.map((r) => r.room_id))).toEqual(new Set([firstRow!.room_id]));
    expect(await t.server.db('rooms').where({ tenant_id: 'acme', channel_id: 'wa-meta', active: true }).whereIn('chat_id', [userId, 'BR.1122334455667788'])).toEqual([]);
  });

  it('a notice is not the customer writing: it neither opens the 24-hour window nor marks the chat unread', async () => {
    const notice = await says('5511911110003', { kind: 'changeNumber', newPhone: '5511911110033' });
    const room = (await t.api(`/api/rooms/${notice.roomId}`, { token: t.tokens.admin })).body.data as Room;
    expect(room.unreadCount).toBe(0);
    const contact = await t.server.db('contacts').where({ tenant_id: 'acme', id: room.author.id }).first();
    expect(parseJson<Record<string, unknown>>(contact.data, {})['wa-metaLastReply']).toBeUndefined();
  });

  it('content WhatsApp could not deliver (131051): the error kept, and a pt-BR text of what arrived and what to ask', async () => {
    const { message } = await says('5511911110004', { kind: 'unsupported' });
    expect(message).toMatchObject({
      type: 'unsupported',
      unsupported: { providerType: 'pool' },
      providerErrors: [{ code: 131051, title: 'Message type unknown', details: 'Message type is currently not supported.', titleptBR: 'Tipo de mensagem não suportado' }],
      text: `${texts.whatsappKinds.unsupportedTitle.replace('{kind}', 'uma enquete')} ${texts.whatsappKinds.unsupportedHint}`,
    });
  });

  it('a disappearing (ephemeral) message the API does not deliver is named as such, with what to ask', async () => {
    const phone = '5511911110014';
    const id = await t.graph.customerSays({ phone, name: 'Cliente 0014' }, {
      id: `wamid.kind${++seq}`,
      type: 'unsupported',
      unsupported: { type: 'ephemeral' },
      errors: [{ code: 131051, title: 'Message type unknown', message: 'Message type unknown', error_data: { details: 'Message type is currently not supported.' } }],
    });
    expect(t.graph.webhookResults.at(-1)?.status).toBe(200);
    const message = await stored(id);
    expect(message).toMatchObject({
      type: 'unsupported',
      unsupported: { providerType: 'ephemeral' },
      text: `${texts.whatsappKinds.unsupportedTitle.replace('{kind}', texts.whatsappKinds.kinds.ephemeral!)} ${texts.whatsappKinds.unsupportedHint}`,
    });
    expect(message.text).toContain('uma mensagem temporária');
    // The demo's customer page sends the same kind (a new user can try it without a phone).
    const demo = await says('5511911110015', { kind: 'ephemeral' });
    expect(demo.message).toMatchObject({ type: 'unsupported', unsupported: { providerType: 'ephemeral' }, text: message.text });
  });

  it('a flow reply keeps the form answers (response_json) on the message', async () => {
    const { message } = await says('5511911110005', { kind: 'flow', text: 'Entregar à tarde' });
    expect(message).toMatchObject({ type: 'interactive', text: 'Sent', interactive: { type: 'nfm_reply', nfm_reply: { name: 'flow', body: 'Sent' } } });
    expect(JSON.parse(message!.interactive!.nfm_reply!.response_json!)).toMatchObject({ nome_completo: 'Cliente Demo', comentario: 'Entregar à tarde', avaliacao: '5' });
  });

  it('a location without a name and shared contacts with several phones arrive whole', async () => {
    const location = await says('5511911110006', { kind: 'location' });
    expect(location.message!.location).toEqual({ latitude: -23.561414, longitude: -46.655881, name: 'MASP', address: 'Av. Paulista, 1578 - Bela Vista, São Paulo - SP' });
    const contacts = await says('5511911110006', { kind: 'contacts' });
    expect(contacts.message!.contacts![0]!.phones!.map((p) => p.phone)).toEqual(['+55 11 98765-4321', '+55 11 3333-4444', '+1 415 555 2671']);
  });

  it("the customer edits a message: the text changes, the earlier one kept in 'versions'; a repeated edit changes nothing", async () => {
    const original = await says('5511911110007', { text: 'Quero 2 bolos' });
    const edit = await says('5511911110007', { kind: 'edit', text: 'Quero 3 bolos' }, original.id);
    expect(edit.message).toBeNull();
    const edited = await stored(original.id);
    expect(edited.text).toBe('Quero 3 bolos');
    expect(edited.versions.map((v) => v.text)).toEqual(['Quero 2 bolos']);
    await says('5511911110007', { kind: 'edit', text: 'Quero 3 bolos' }, original.id);
    expect((await stored(original.id)).versions).toHaveLength(1);
  });

  it('the customer deletes a message for everyone: it reads as deleted; its content only for seeDeletedMessages', async () => {
    const original = await says('5511911110008', { text: 'Meu CPF é 123.456.789-00' });
    await says('5511911110008', { kind: 'revoke' }, original.id);
    const gone = await stored(original.id);
    expect(gone).toMatchObject({ text: null, status: { deleted: true } });
    expect(JSON.stringify(gone)).not.toContain('123.456.789-00');
    const admin = await t.api(`/api/rooms/${original.roomId}/messages/${original.message!.id}`, { token: t.tokens.admin });
    expect(admin.body.data.deletedContent.text).toBe('Meu CPF é 123.456.789-00');
  });

  it('a reaction to a message we never stored changes nothing and stores nothing', async () => {
    const reaction = await says('5511911110009', { kind: 'reaction', text: '❤️' }, 'wamid.desconhecido');
    expect(reaction.message).toBeNull();
  });

  it("a 👍 to the agent's answer after the chat was closed goes on that answer and opens no chat", async () => {
    const first = await says('5511911110011', { text: 'Meu pedido sai quando?' });
    expect((await t.api(`/api/rooms/${first.roomId}/push`, { method: 'PATCH', body: {}, token: t.tokens.agente })).status).toBe(200);
    const sent = await t.api(`/api/rooms/${first.roomId}/message`, { method: 'POST', body: { text: 'Sai amanhã!' }, token: t.tokens.agente });
    expect(sent.status, sent.text).toBe(201);
    const answer = await waitFor(async () => {
      const m = (await t.api(`/api/rooms/${first.roomId}/messages/${sent.body.data.id}`, { token: t.tokens.admin })).body.data as Message;
      return m.messageExtId ? m : null;
    }, 'the answer sent to the provider');
    const closed = await t.api(`/api/rooms/${first.roomId}/close`, { method: 'PATCH', body: { closedBy: { justify: 'Resolvido' } }, token: t.tokens.agente });
    expect(closed.status, closed.text).toBe(200);
    const roomsBefore = (await t.server.db('rooms').where({ tenant_id: 'acme' }).count({ n: '*' }))[0]!.n;

    const reaction = await says('5511911110011', { kind: 'reaction', text: '👍' }, answer.messageExtId!);
    expect(reaction.message).toBeNull();
    const after = (await t.api(`/api/rooms/${first.roomId}/messages/${answer.id}`, { token: t.tokens.admin })).body.data as Message;
    expect(after.reactions.map((r) => [r.emoji, r.author.type])).toEqual([['👍', 'client']]);
    expect((await t.server.db('rooms').where({ tenant_id: 'acme' }).count({ n: '*' }))[0]!.n).toBe(roomsBefore);
    // Another customer cannot react on this one's message.
    await says('5511911110012', { kind: 'reaction', text: '😡' }, answer.messageExtId!);
    expect(((await t.api(`/api/rooms/${first.roomId}/messages/${answer.id}`, { token: t.tokens.admin })).body.data as Message).reactions.map((r) => r.emoji)).toEqual(['👍']);
  });

  it("a failed delivery keeps its pt-BR error and 'failed' stays: a later delivered/read never hides it", async () => {
    const first = await says('5511911110010', { text: 'Oi' });
    expect((await t.api(`/api/rooms/${first.roomId}/push`, { method: 'PATCH', body: {}, token: t.tokens.agente })).status).toBe(200);
    t.graph.failNextDelivery(131049, 'This message was not delivered to maintain healthy ecosystem engagement.');
    const sent = await t.api(`/api/rooms/${first.roomId}/message`, { method: 'POST', body: { text: 'Promoção!' }, token: t.tokens.agente });
    expect(sent.status, sent.text).toBe(201);
    const failed = await waitFor(async () => {
      const m = (await t.api(`/api/rooms/${first.roomId}/messages/${sent.body.data.id}`, { token: t.tokens.admin })).body.data as Message;
      return m.status?.failed ? m : null;
    }, 'failed status');
    expect(failed.status!.errors).toEqual([{ code: 131049, title: 'This message was not delivered to maintain healthy ecosystem engagement.', titleptBR: 'A Meta não entregou a mensagem para preservar o engajamento do cliente' }]);
    // A provider replaying receipts after the failure: the failure stays.
    for (const status of ['delivered', 'read']) await t.graph.postStatus(failed.messageExtId!, '5511911110010', status);
    const after = (await t.api(`/api/rooms/${first.roomId}/messages/${sent.body.data.id}`, { token: t.tokens.admin })).body.data as Message;
    expect(after.status).toMatchObject({ sent: true, failed: true });
    expect(after.status!.delivered).toBeFalsy();
    expect(after.status!.read).toBeFalsy();
  });
});
