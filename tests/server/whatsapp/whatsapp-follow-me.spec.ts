import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages as texts } from '@atendimento/schemas';
import { parseJson } from '@atendimento/server/db/knex';
import { META, messageRows, startWhatsappServer, stopWhatsappServer, type WhatsappTest } from './whatsapp-helpers';
import { waitFor } from '../../helpers/wait-for';

/**
 * Follow-me ('Siga-me', docs/console-operations.md "Follow-me"): with tenant and user claim
 * allowFollowMe, followMe on and a WhatsApp number in the profile, the customer's messages of
 * the agent's chats go to the agent's WhatsApp through the tenant's WhatsApp channel; what the
 * agent's phone sends back is not a customer chat.
 */
let t: WhatsappTest;
const AGENT_PHONE = '5511955550000';
beforeAll(async () => {
  t = await startWhatsappServer();
  await t.patchAppConfig({ claims: { allowFollowMe: true } });
  const row = await t.server.db('users').where({ tenant_id: 'acme', id: 'acme-agente' }).first();
  const data = parseJson<{ claims?: Record<string, unknown> }>(row.data, {});
  await t.server.db('users').where({ tenant_id: 'acme', id: 'acme-agente' }).update({ data: JSON.stringify({ ...data, claims: { ...data.claims, allowFollowMe: true } }) });
});
afterAll(() => stopWhatsappServer(t));

let seq = 0;
async function fromPhone(phone: string, text: string, name = 'Cliente Siga-me'): Promise<string> {
  const id = `wamid.follow.${phone}.${++seq}`;
  const raw = Buffer.from(JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: 'WABA1', changes: [{ field: 'messages', value: {
    messaging_product: 'whatsapp', metadata: { display_phone_number: '5511999990000', phone_number_id: META.phoneNumberId },
    contacts: [{ profile: { name }, wa_id: phone }], messages: [{ from: phone, id, timestamp: String(Math.floor(Date.now() / 1000) + seq), type: 'text', text: { body: text } }],
  } }] }] }));
  expect((await t.postMeta('wa-meta', raw)).status).toBe(200);
  return id;
}

const profile = (body: unknown, token = t.tokens.agente) => t.api('/api/profile', { method: 'PATCH', body, token });
const sentTo = (phone: string) => t.graph.sent.filter((m) => m.to.replace(/^\+/, '') === phone).map((m) => String(m.body.text?.body ?? ''));

describe('follow-me', () => {
  it('the switch needs the claims and a WhatsApp number, refused in Portuguese', async () => {
    const noNumber = await profile({ followMe: true });
    expect(noNumber.status).toBe(400);
    expect(noNumber.body.errorMessage).toBe(texts.chatServer.followMeNeedsWhatsapp);
    const other = await profile({ followMe: true, whatsapp: '5511944440000' }, t.tokens.suporte);
    expect(other.status).toBe(403);
    expect(other.body.errorMessage).toBe(texts.chatServer.followMeNotAllowed);
    expect((await t.api('/api/profile', { method: 'PATCH', body: { followMe: true } })).status).toBe(401);
    const on = await profile({ whatsapp: `+${AGENT_PHONE}`, followMe: true });
    expect(on.status, on.text).toBe(200);
  });

  it("forwards the customer's messages of the agent's chats; the agent's phone gets a notice, never a chat; off stops it", async () => {
    const customer = '5511977770001';
    const first = await fromPhone(customer, 'Primeira mensagem');
    const [row] = await messageRows(t, 'wa-meta', first);
    const roomId = row!.room_id as string;
    // Not the agent's chat yet: nothing forwarded.
    expect((await t.api(`/api/rooms/${roomId}/push`, { method: 'PATCH', body: {}, token: t.tokens.agente })).status).toBe(200);
    await fromPhone(customer, 'Vocês têm o modelo azul?');
    await waitFor(() => sentTo(AGENT_PHONE).some((s) => s.includes('Vocês têm o modelo azul?')), 'the message on the agent\'s WhatsApp');
    const forwarded = sentTo(AGENT_PHONE).find((s) => s.includes('Vocês têm o modelo azul?'))!;
    expect(forwarded).toMatch(/^\*Cliente Siga-me\* \(chat #\d+\): Vocês têm o modelo azul\?$/);
    expect(sentTo(AGENT_PHONE).some((s) => s.includes('Primeira mensagem'))).toBe(false);

    // The agent answers from the phone: not stored as a chat; one line back.
    const reply = await fromPhone(AGENT_PHONE, 'Temos sim', 'Agente no celular');
    await waitFor(() => sentTo(AGENT_PHONE).includes(texts.chatServer.followMeReply), 'the notice to the agent\'s phone');
    expect(await messageRows(t, 'wa-meta', reply)).toHaveLength(0);
    expect(sentTo(customer).some((s) => s.includes('Temos sim'))).toBe(false);

    // Off: no more forwarding (the next 'on' message is the marker that the off one was handled first).
    expect((await profile({ followMe: false })).status).toBe(200);
    await fromPhone(customer, 'Mensagem com siga-me desligado');
    expect((await profile({ followMe: true })).status).toBe(200);
    await fromPhone(customer, 'Mensagem com siga-me ligado');
    await waitFor(() => sentTo(AGENT_PHONE).some((s) => s.includes('Mensagem com siga-me ligado')), 'forwarded again');
    expect(sentTo(AGENT_PHONE).some((s) => s.includes('desligado'))).toBe(false);
  });
});
