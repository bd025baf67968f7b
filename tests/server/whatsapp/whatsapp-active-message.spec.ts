import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages as texts } from '@atendimento/schemas';
import { createChatContactRepository, type ChatContact } from '@atendimento/server/db/repositories/chat-contact-repository';
import { ninthDigitTwin } from '@atendimento/server/services/whatsapp/active-message';
import { META, messageRows, startWhatsappServer, stopWhatsappServer, type WhatsappTest } from './whatsapp-helpers';
import { waitFor } from '../../helpers/wait-for';

/**
 * 'Mensagem Ativa' (seed 001 §2/§5): claim allowActiveMessage enforced by the server,
 * the seed's texts for the channel and department choices, the 24-hour window checked before
 * a room opens, and the room attended by the caller.
 */
let t: WhatsappTest;
beforeAll(async () => {
  t = await startWhatsappServer({ autoStatuses: false });
  await t.server.repos.users.update('acme', 'acme-agente', { claims: { allowFollowMe: true, allowActiveMessage: true } }, new Date());
});
afterAll(() => stopWhatsappServer(t));

const contacts = createChatContactRepository();

/** A contact who last wrote on wa-meta `hoursAgo` hours ago (null: never). */
async function contact(id: string, phone: string, hoursAgo: number | null, extra: Partial<ChatContact> = {}): Promise<string> {
  const now = new Date().toISOString();
  await t.server.db.transaction((trx) =>
    contacts.insert(trx, 'acme', {
      id, displayName: `Cliente ${id}`, name: null, phone, email: null, photoUrl: null, channels: ['whatsapp'], agents: [], clients: [], prospects: [], salesmen: [],
      vendId: null, group: false, chatId: phone, active: true, blockedSending: false, blockedReceiving: false, autoBlocked: false, chatsHistory: [], clientsName: [],
      lifeControl: { createdAt: now, deletedAt: null },
      ...(hoursAgo !== null && { 'wa-metaLastReply': new Date(Date.now() - hoursAgo * 3600_000).toISOString() }),
      ...extra,
    }),
  );
  return id;
}

const roomCount = async (chatId: string) => Number((await t.server.db('rooms').where({ tenant_id: 'acme', chat_id: chatId }).count({ n: '*' }))[0]!.n);

const send = (body: Record<string, unknown>, token = t.tokens.agente) => t.api('/api/rooms/activeMessage', { method: 'POST', body, token });

describe('Mensagem Ativa', () => {
  it('needs the claim allowActiveMessage (403 in Portuguese) for the options and the send', async () => {
    const id = await contact('c-sem-claim', '5511911110000', 1);
    const refused = await send({ contactId: id, channelId: 'wa-zapi', text: 'Olá' }, t.tokens.suporte);
    expect(refused.status).toBe(403);
    expect(refused.body.errorMessage).toBe(texts.auth.forbidden);
    expect((await t.api(`/api/rooms/activeMessage/options?contactId=${id}`, { token: t.tokens.suporte })).status).toBe(403);
    expect(await roomCount('5511911110000')).toBe(0);
  });

  it('offers the visible WhatsApp channels with the window state, and the caller departments', async () => {
    const id = await contact('c-opcoes', '5511911110001', 2);
    const res = await t.api(`/api/rooms/activeMessage/options?contactId=${id}`, { token: t.tokens.agente });
    expect(res.status, res.text).toBe(200);
    const byId = Object.fromEntries(res.body.data.channels.map((c: { id: string }) => [c.id, c]));
    expect(byId['wa-meta']).toMatchObject({ windowOpen: true, templates: true, type: 'meta' });
    expect(byId['wa-360']).toMatchObject({ windowOpen: false, templates: true });
    expect(byId['wa-zapi']).toMatchObject({ windowOpen: true, templates: false });
    expect(res.body.data.departments).toEqual([{ id: 'vendas', displayName: 'Vendas' }]);
    expect(res.text).not.toContain(META.accessToken);
  });

  it("answers the seed's texts without a channel or a department", async () => {
    const id = await contact('c-escolhas', '5511911110002', 1);
    const noChannel = await send({ contactId: id, departmentId: 'vendas', text: 'Olá' });
    expect(noChannel.status).toBe(400);
    expect(noChannel.body.errorMessage).toBe('Selecione o número para continuar o atendimento');
    const noDepartment = await send({ contactId: id, channelId: 'wa-meta', text: 'Olá' });
    expect(noDepartment.status).toBe(400);
    expect(noDepartment.body.errorMessage).toBe('Selecione um departamento para continuar o atendimento');
    const otherDepartment = await send({ contactId: id, channelId: 'wa-meta', departmentId: 'suporte', text: 'Olá' });
    expect(otherDepartment.status).toBe(400);
    expect(otherDepartment.body.errorMessage).toBe('Selecione um departamento para continuar o atendimento');
    const noContent = await send({ contactId: id, channelId: 'wa-meta', departmentId: 'vendas' });
    expect(noContent.status).toBe(400);
    expect(noContent.body.errorMessage).toBe('Escreva a mensagem ou escolha um template.');
  });

  it('inside the window: opens a room attended by the caller and sends the text through the provider', async () => {
    const id = await contact('c-janela', '5511911110003', 3);
    const before = t.graph.sent.length;
    const res = await send({ contactId: id, channelId: 'wa-meta', departmentId: 'vendas', text: 'Olá! Aqui é da Acme.', clientId: 'am-1' });
    expect(res.status, res.text).toBe(201);
    const { room, message } = res.body.data;
    // No room of this contact on the channel yet: the seed's 9th-digit rule (13 digits lose the 9).
    expect(room).toMatchObject({ channelId: 'wa-meta', chatId: '551111110003', departmentId: 'vendas', inAttend: true, active: true });
    expect(room.agents.map((a: { id: string }) => a.id)).toEqual(['acme-agente']);
    expect(message).toMatchObject({ type: 'text', text: 'Olá! Aqui é da Acme.', roomId: room.id });
    await waitFor(() => t.graph.sent.length > before, 'text at the provider');
    expect(t.graph.sent.slice(before).map((s) => s.body)).toEqual([expect.objectContaining({ to: '551111110003', type: 'text', text: expect.objectContaining({ body: 'Olá! Aqui é da Acme.' }) })]);
    // The same click again (same clientId): the same message, nothing new.
    const again = await send({ contactId: id, channelId: 'wa-meta', departmentId: 'vendas', text: 'Olá! Aqui é da Acme.', clientId: 'am-1' });
    expect(again.status).toBe(200);
    expect(again.body.data.message.id).toBe(message.id);
    expect(again.body.data.room.id).toBe(room.id);
  });

  it('outside the window: free text is refused (422) before any room opens; a template goes out', async () => {
    const id = await contact('c-fora', '5511911110004', 30);
    const before = t.graph.sent.length;
    const refused = await send({ contactId: id, channelId: 'wa-meta', departmentId: 'vendas', text: 'Oi!' });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ error: 'whatsapp_window_closed', errorMessage: texts.whatsapp.windowClosed });
    expect(await roomCount('5511911110004')).toBe(0);
    const never = await contact('c-nunca', '5511911110005', null);
    expect((await send({ contactId: never, channelId: 'wa-meta', departmentId: 'vendas', text: 'Oi!' })).status).toBe(422);

    const template = { name: 'boas_vindas', language: 'pt_BR', components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ana' }] }], text: 'Olá Ana, aviso 0.' };
    const ok = await send({ contactId: id, channelId: 'wa-meta', departmentId: 'vendas', template });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.data.message).toMatchObject({ type: 'template', text: 'Olá Ana, aviso 0.', template: { name: 'boas_vindas' } });
    expect(ok.body.data.room.agents.map((a: { id: string }) => a.id)).toEqual(['acme-agente']);
    await waitFor(() => t.graph.sent.length > before, 'template at the provider');
    expect(t.graph.sent.slice(before).map((s) => s.body)).toEqual([
      expect.objectContaining({ type: 'template', template: { name: 'boas_vindas', language: { code: 'pt_BR' }, components: template.components } }),
    ]);
  });

  it('a template header uploaded to us reaches the provider as an absolute link', async () => {
    const id = await contact('c-cabecalho', '5511911110009', 40);
    const before = t.graph.sent.length;
    const template = { name: 'promocao', language: 'pt_BR', components: [{ type: 'header', parameters: [{ type: 'image', image: { link: '/api/files/acme/promo.png' } }] }], text: 'Promoção!' };
    const ok = await send({ contactId: id, channelId: 'wa-meta', departmentId: 'vendas', template });
    expect(ok.status, ok.text).toBe(201);
    await waitFor(() => t.graph.sent.length > before, 'template at the provider');
    const link = t.graph.sent[before]!.body.template.components[0].parameters[0].image.link as string;
    expect(link).toMatch(/^https?:\/\/[^/]+\/api\/files\/acme\/promo\.png$/);
  });

  it('takes the open room of the contact from the queue instead of opening another', async () => {
    const phone = '5511911110006';
    const at = Math.floor(Date.now() / 1000);
    const raw = Buffer.from(JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: 'WABA1', changes: [{ field: 'messages', value: {
      messaging_product: 'whatsapp', metadata: { display_phone_number: '5511999990000', phone_number_id: META.phoneNumberId },
      contacts: [{ profile: { name: 'Cliente na fila' }, wa_id: phone }], messages: [{ from: phone, id: `wamid.fila.${at}`, timestamp: String(at), type: 'text', text: { body: 'Alguém?' } }],
    } }] }] }));
    expect((await t.postMeta('wa-meta', raw)).status).toBe(200);
    const [row] = await messageRows(t, 'wa-meta', `wamid.fila.${at}`);
    const queued = (await t.api(`/api/rooms/${row!.room_id}`, { token: t.tokens.admin })).body.data;
    expect(queued.agents).toEqual([]);
    const res = await send({ contactId: queued.author.id, channelId: 'wa-meta', departmentId: 'vendas', text: 'Estou aqui!' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.room.id).toBe(row!.room_id);
    expect(res.body.data.room.agents.map((a: { id: string }) => a.id)).toEqual(['acme-agente']);
  });

  it('refuses a blocked contact (403), a template on Z-API and a hidden channel', async () => {
    const blocked = await contact('c-bloqueado', '5511911110007', 1, { blockedSending: true });
    const b = await send({ contactId: blocked, channelId: 'wa-meta', departmentId: 'vendas', text: 'Oi' });
    expect(b.status).toBe(403);
    expect(b.body.errorMessage).toBe(texts.chatServer.contactBlocked);
    const id = await contact('c-zapi', '5511911110008', 1);
    const z = await send({ contactId: id, channelId: 'wa-zapi', departmentId: 'vendas', template: { name: 'boas_vindas', language: 'pt_BR' } });
    expect(z.status).toBe(400);
    await t.addChannel('wa-oculto', 'meta', { baseUrl: t.graph.baseUrl, apiVersion: 'v21.0', ...META });
    const stored = (await t.server.db('channels').where({ tenant_id: 'acme', id: 'wa-oculto' }).first('data')).data;
    const data = typeof stored === 'string' ? JSON.parse(stored) : stored;
    await t.server.db('channels').where({ tenant_id: 'acme', id: 'wa-oculto' }).update({ data: JSON.stringify({ ...data, hide: true }) });
    const hidden = await send({ contactId: id, channelId: 'wa-oculto', departmentId: 'vendas', text: 'Oi' });
    expect(hidden.status).toBe(400);
    expect(hidden.body.errorMessage).toBe('Selecione o número para continuar o atendimento');
  });
});

/** A customer message on wa-meta from WhatsApp id `waId`; answers the room it landed in. */
async function inbound(waId: string, tag: string): Promise<string> {
  const at = Math.floor(Date.now() / 1000);
  const raw = Buffer.from(JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: 'WABA1', changes: [{ field: 'messages', value: {
    messaging_product: 'whatsapp', metadata: { display_phone_number: '5511999990000', phone_number_id: META.phoneNumberId },
    contacts: [{ profile: { name: `Cliente ${tag}` }, wa_id: waId }], messages: [{ from: waId, id: `wamid.${tag}.${at}`, timestamp: String(at), type: 'text', text: { body: 'Oi' } }],
  } }] }] }));
  expect((await t.postMeta('wa-meta', raw)).status).toBe(200);
  const [row] = await messageRows(t, 'wa-meta', `wamid.${tag}.${at}`);
  return String(row!.room_id);
}

describe("Mensagem Ativa: the chat id's Brazilian 9th digit (seed 001 §5)", () => {
  it('inserts the 9 at position 5 in 12-digit Brazilian mobiles and removes it from 13-digit ones', () => {
    expect(ninthDigitTwin('551187654321')).toBe('5511987654321');
    expect(ninthDigitTwin('5511987654321')).toBe('551187654321');
    expect(ninthDigitTwin('552196543210')).toBe('5521996543210');
    // No twin: landlines (2–5 after the DDD), 13 digits without the 9, other countries, short or non-numeric ids.
    expect(ninthDigitTwin('551133334444')).toBeNull();
    expect(ninthDigitTwin('5511887654321')).toBeNull();
    expect(ninthDigitTwin('14155550123')).toBeNull();
    expect(ninthDigitTwin('351912345678')).toBeNull();
    expect(ninthDigitTwin('5511987')).toBeNull();
    expect(ninthDigitTwin('maria@exemplo.com.br')).toBeNull();
    expect(ninthDigitTwin('+5511987654321')).toBeNull();
  });

  it('a 12-digit mobile with no room on the channel: the room and the provider get the 9 inserted', async () => {
    const id = await contact('c-nono-insere', '551187650010', 1);
    const before = t.graph.sent.length;
    const res = await send({ contactId: id, channelId: 'wa-meta', departmentId: 'vendas', text: 'Olá!' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.room.chatId).toBe('5511987650010');
    expect(res.body.data.room.author).toMatchObject({ id, chatId: '5511987650010' });
    await waitFor(() => t.graph.sent.length > before, 'text at the provider');
    expect(t.graph.sent.slice(before).map((s) => s.body.to)).toEqual(['5511987650010']);
    expect(await roomCount('551187650010')).toBe(0);
  });

  it("a landline (no twin) keeps the contact's phone as the chat id", async () => {
    const id = await contact('c-fixo', '551133330020', 1);
    const res = await send({ contactId: id, channelId: 'wa-meta', departmentId: 'vendas', text: 'Olá!' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.room.chatId).toBe('551133330020');
  });

  it("the contact's open room under the twin id (how WhatsApp wrote) is reused, not a second room", async () => {
    const roomId = await inbound('551187650030', 'gemeo');
    const id = await contact('c-nono-aberto', '5511987650030', 1);
    const res = await send({ contactId: id, channelId: 'wa-meta', departmentId: 'vendas', text: 'Estou aqui!' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.room).toMatchObject({ id: roomId, chatId: '551187650030' });
    expect(await roomCount('5511987650030')).toBe(0);
  });

  it('a past room on the channel wins over the rule: the form WhatsApp used stays the chat id', async () => {
    const roomId = await inbound('5511987650040', 'historico');
    const closed = await t.api(`/api/rooms/${roomId}/closeNoMessage`, { method: 'PATCH', body: {}, token: t.tokens.admin });
    expect(closed.status, closed.text).toBe(200);
    const author = (await t.api(`/api/rooms/${roomId}`, { token: t.tokens.admin })).body.data.author.id as string;
    const res = await send({ contactId: author, channelId: 'wa-meta', departmentId: 'vendas', text: 'Voltando a falar' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.room.id).not.toBe(roomId);
    expect(res.body.data.room.chatId).toBe('5511987650040');
    expect(await roomCount('551187650040')).toBe(0);
  });
});
