import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '@atendimento/schemas';
import { ManualClock } from '@atendimento/server';
import { fixture, META, messageRows, startWhatsappServer, stopWhatsappServer, ZAPI, type WhatsappTest } from '../whatsapp/whatsapp-helpers';
import { waitFor } from '../../helpers/wait-for';

/**
 * Automatic messages go out through the chat's channel (docs/routing.md): on a Meta WhatsApp
 * channel the department's automatic answer and a rule's message reach the provider (the local
 * Graph server) after the commit, and their ticks follow like an agent's message.
 */
let t: WhatsappTest;
const clock = new ManualClock(new Date('2026-01-05T12:00:00.000Z'));
beforeAll(async () => {
  t = await startWhatsappServer({ statusDelayMs: 5, clock });
  const res = await t.api('/api/departaments/vendas', {
    method: 'PATCH', token: t.tokens.admin,
    body: { automaticAnswer: 'Recebemos sua mensagem no WhatsApp!', queueMessages: [{ command: 'sendMessage', arg: 'Ainda precisa de ajuda?', timeInMinutes: 2 }] },
  });
  expect(res.status, res.text).toBe(200);
  await t.server.services.changes.idle();
});
afterAll(() => stopWhatsappServer(t));

function inbound(phone: string, id: string): Buffer {
  return Buffer.from(JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [{ id: 'WABA1', changes: [{ field: 'messages', value: {
      messaging_product: 'whatsapp', metadata: { display_phone_number: '5511999990000', phone_number_id: META.phoneNumberId },
      contacts: [{ profile: { name: 'Cliente WhatsApp' }, wa_id: phone }],
      messages: [{ from: phone, id, timestamp: String(Math.floor(clock.now().getTime() / 1000)), type: 'text', text: { body: 'Oi!' } }],
    } }] }],
  }));
}

describe('automatic messages on a WhatsApp channel', () => {
  it('the automatic answer and a rule message are delivered through the provider, with their ticks', async () => {
    const phone = '5511955554444';
    expect((await t.postMeta('wa-meta', inbound(phone, 'wamid.routing.1'))).status).toBe(200);
    const answer = await waitFor(() => t.graph.sent.find((m) => m.to === phone && m.body.text?.body === 'Recebemos sua mensagem no WhatsApp!'), 'the automatic answer at the provider');
    const [row] = await messageRows(t, 'wa-meta', 'wamid.routing.1');
    const roomId = row!.room_id as string;
    const stored = await waitFor(async () => {
      const res = await t.api(`/api/rooms/${roomId}/messages`, { token: t.tokens.admin });
      return (res.body.data as Message[]).find((m) => m.messageExtId === answer.id && m.status?.sent);
    }, 'the stored answer with its provider id');
    expect(stored.author).toMatchObject({ id: 'system', type: 'system' });

    clock.advance(2 * 60_000);
    await t.server.services.scheduler.tick();
    await waitFor(() => t.graph.sent.find((m) => m.to === phone && m.body.text?.body === 'Ainda precisa de ajuda?'), 'the rule message at the provider');
  });

  it("a WhatsApp group gets no automatic message (it would reach every member); a member's private chat does", async () => {
    await t.addChannel('z-vendas', 'zApi', { baseUrl: t.zapi.baseUrl, ...ZAPI }, 'vendas');
    const base = JSON.parse(fixture('zapi', 'received_text.json').toString('utf8'));
    const post = (body: Record<string, unknown>) => t.post(`/api/webhooks/whatsapp/z-vendas/${ZAPI.webhookSecret}`, Buffer.from(JSON.stringify({ ...base, ...body })));
    const group = { isGroup: true, phone: '120363019502650999-group', chatName: 'Compras Loja Norte' };
    expect((await post({ ...group, messageId: 'GRP-AUTO-1', participantPhone: '5511911112222', senderName: 'Ana', text: { message: 'Bom dia!' } })).status).toBe(200);
    expect((await post({ isGroup: false, phone: '5511911113333', messageId: 'PRIV-AUTO-1', senderName: 'Bruno', chatName: 'Bruno', text: { message: 'Oi' } })).status).toBe(200);
    // The private chat's answer reaches the provider; by then the group's (sent first) would have too.
    await waitFor(() => t.zapi.sent.find((m) => m.phone === '5511911113333' && m.body.message === 'Recebemos sua mensagem no WhatsApp!'), 'the private chat\'s automatic answer');
    await t.server.services.changes.idle();
    expect(t.zapi.sent.filter((m) => m.phone === group.phone)).toEqual([]);
    const [row] = await messageRows(t, 'z-vendas', 'GRP-AUTO-1');
    const messages = (await t.api(`/api/rooms/${row!.room_id}/messages`, { token: t.tokens.admin })).body.data as Message[];
    expect(messages.filter((m) => !m.annotation && m.author.type !== 'client')).toEqual([]);
  });
});
