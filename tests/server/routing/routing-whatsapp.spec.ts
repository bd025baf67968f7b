import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '@atendimento/schemas';
import { ManualClock } from '@atendimento/server';
import { META, messageRows, startWhatsappServer, stopWhatsappServer, type WhatsappTest } from '../whatsapp/whatsapp-helpers';
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
});
