import { messages } from '@atendimento/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '@atendimento/schemas';
import { createChannelAdapter, ProviderError } from '@atendimento/integrations';
import { META, ZAPI, messageRows, startWhatsappServer, stopWhatsappServer, type WhatsappTest } from './whatsapp-helpers';
import { waitFor } from '../../helpers/wait-for';

/**
 * Interactive sends (buttons and lists) through each adapter, validated by the local
 * provider servers: Meta and 360dialog take the Cloud API `interactive` body, Z-API its
 * send-button-list / send-option-list.
 */
let t: WhatsappTest;
beforeAll(async () => {
  t = await startWhatsappServer({ statusDelayMs: 20 });
});
afterAll(() => stopWhatsappServer(t));

const BUTTONS = {
  type: 'button', header: { type: 'text', text: 'Pedido 123' }, body: { text: 'Seu pedido saiu para entrega. Confirma o endereço?' }, footer: { text: 'Acme' },
  action: { buttons: [{ type: 'reply', reply: { id: 'sim', title: 'Sim' } }, { type: 'reply', reply: { id: 'nao', title: 'Não, alterar' } }] },
} as const;
const LIST = {
  type: 'list', body: { text: 'Escolha o assunto' },
  action: { button: 'Ver opções', sections: [
    { title: 'Pedidos', rows: [{ id: 'status', title: 'Status do pedido', description: 'Onde está meu pedido' }, { id: 'troca', title: 'Troca' }] },
    { title: 'Financeiro', rows: [{ id: 'boleto', title: '2ª via de boleto' }] },
  ] },
} as const;

async function message(id: string, roomId: string): Promise<Message> {
  const res = await t.api(`/api/rooms/${roomId}/messages/${id}`, { token: t.tokens.admin });
  expect(res.status, res.text).toBe(200);
  return res.body.data as Message;
}

/** A customer writes on a Cloud API channel (now, or `hoursAgo`); the agent of vendas takes the room. */
async function cloudRoom(channelId: 'wa-meta' | 'wa-360', phone: string, hoursAgo = 0): Promise<string> {
  const at = Math.floor(Date.now() / 1000) - hoursAgo * 3600;
  const id = `wamid.int.${phone}.${at}`;
  const raw = Buffer.from(JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: 'WABA1', changes: [{ field: 'messages', value: {
    messaging_product: 'whatsapp', metadata: { display_phone_number: '5511999990000', phone_number_id: channelId === 'wa-meta' ? META.phoneNumberId : 'PN360' },
    contacts: [{ profile: { name: `Cliente ${phone}` }, wa_id: phone }], messages: [{ from: phone, id, timestamp: String(at), type: 'text', text: { body: 'Oi' } }],
  } }] }] }));
  const res = channelId === 'wa-meta' ? await t.postMeta(channelId, raw) : await t.post(`/api/webhooks/whatsapp/wa-360`, raw, { 'x-atendimento-secret': 'segredo-360' });
  expect(res.status, res.text).toBe(200);
  const [row] = await messageRows(t, channelId, id);
  expect((await t.api(`/api/rooms/${row!.room_id}/push`, { method: 'PATCH', body: {}, token: t.tokens.agente })).status).toBe(200);
  return row!.room_id as string;
}

const send = (roomId: string, interactive: unknown, token = t.tokens.agente) => t.api(`/api/rooms/${roomId}/message/interactive`, { method: 'POST', body: { interactive }, token });

describe('interactive messages (buttons, list)', () => {
  it('Meta: buttons go out as the Cloud API interactive body and take ticks to read', async () => {
    const roomId = await cloudRoom('wa-meta', '5511922220001');
    const before = t.graph.sent.length;
    const res = await send(roomId, BUTTONS);
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({ type: 'interactive', text: BUTTONS.body.text, interactive: BUTTONS });
    const read = await waitFor(async () => {
      const m = await message(res.body.data.id, roomId);
      return m.status?.read ? m : null;
    }, 'read tick');
    const out = t.graph.sent.slice(before);
    expect(out).toHaveLength(1);
    expect(out[0]!.body).toEqual({ messaging_product: 'whatsapp', recipient_type: 'individual', to: '5511922220001', type: 'interactive', interactive: BUTTONS });
    expect(read.messageExtId).toBe(out[0]!.id);
  });

  it('360dialog: a list goes out on /messages with the D360-API-KEY', async () => {
    const roomId = await cloudRoom('wa-360', '5511922220002');
    const before = t.d360.sent.length;
    const res = await send(roomId, LIST);
    expect(res.status, res.text).toBe(201);
    await waitFor(async () => (await message(res.body.data.id, roomId)).status?.sent, 'sent');
    expect(t.d360.sent.slice(before).map((s) => s.body)).toEqual([expect.objectContaining({ type: 'interactive', interactive: LIST })]);
  });

  it('Z-API: buttons through send-button-list and a list through send-option-list', async () => {
    const raw = Buffer.from(JSON.stringify({ type: 'ReceivedCallback', messageId: 'ZINT1', phone: '5511922220003', fromMe: false, momment: Date.now(), senderName: 'Cliente Z', text: { message: 'Oi' } }));
    expect((await t.post(`/api/webhooks/whatsapp/wa-zapi/${ZAPI.webhookSecret}`, raw)).status).toBe(200);
    const [row] = await messageRows(t, 'wa-zapi', 'ZINT1');
    const roomId = row!.room_id as string;
    expect((await t.api(`/api/rooms/${roomId}/push`, { method: 'PATCH', body: {}, token: t.tokens.suporte })).status).toBe(200);
    const before = t.zapi.sent.length;
    const buttons = await send(roomId, BUTTONS, t.tokens.suporte);
    expect(buttons.status, buttons.text).toBe(201);
    const list = await send(roomId, LIST, t.tokens.suporte);
    expect(list.status, list.text).toBe(201);
    await waitFor(async () => (await message(list.body.data.id, roomId)).status?.read && (await message(buttons.body.data.id, roomId)).status?.read, 'z-api ticks');
    const out = t.zapi.sent.slice(before);
    expect(out.find((s) => s.path === 'send-button-list')!.body).toEqual({
      phone: '5511922220003', message: '*Pedido 123*\n\nSeu pedido saiu para entrega. Confirma o endereço?\n\n_Acme_',
      buttonList: { buttons: [{ id: 'sim', label: 'Sim' }, { id: 'nao', label: 'Não, alterar' }] },
    });
    expect(out.find((s) => s.path === 'send-option-list')!.body).toEqual({
      phone: '5511922220003', message: 'Escolha o assunto',
      optionList: { title: 'Pedidos', buttonLabel: 'Ver opções', options: [{ id: 'status', title: 'Status do pedido', description: 'Onde está meu pedido' }, { id: 'troca', title: 'Troca' }, { id: 'boleto', title: '2ª via de boleto' }] },
    });
  });

  it('refuses what WhatsApp would refuse, in Portuguese, before storing or calling the provider', async () => {
    const roomId = await cloudRoom('wa-meta', '5511922220004');
    const before = t.graph.sent.length;
    const count = (await messageRows(t, 'wa-meta')).length;
    const reply = (id: string, title: string) => ({ type: 'reply', reply: { id, title } });
    const cases: [unknown, string][] = [
      [{ ...BUTTONS, action: { buttons: [reply('a', 'A'), reply('b', 'B'), reply('c', 'C'), reply('d', 'D')] } }, messages.whatsapp.interactiveInvalid],
      [{ ...BUTTONS, action: { buttons: [reply('a', 'Um título longo demais aqui')] } }, messages.whatsapp.interactiveInvalid],
      [{ ...BUTTONS, action: { buttons: [reply('a', 'A'), reply('a', 'B')] } }, messages.whatsapp.interactiveInvalid],
      [{ ...BUTTONS, body: { text: '   ' } }, messages.whatsapp.interactiveInvalid],
      [{ ...LIST, action: { button: 'Ver', sections: [{ title: 'A', rows: Array.from({ length: 6 }, (_, i) => ({ id: `a${i}`, title: `A${i}` })) }, { title: 'B', rows: Array.from({ length: 5 }, (_, i) => ({ id: `b${i}`, title: `B${i}` })) }] } }, messages.whatsapp.interactiveTooManyRows],
      [{ ...LIST, action: { button: 'Ver', sections: [{ rows: [{ id: 'a', title: 'A' }] }, { rows: [{ id: 'b', title: 'B' }] }] } }, messages.whatsapp.interactiveInvalid],
      [{ type: 'flow', body: { text: 'x' }, action: {} }, messages.whatsapp.interactiveInvalid],
    ];
    for (const [body, errorMessage] of cases) {
      const res = await send(roomId, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errorMessage).toBe(errorMessage);
    }
    expect(t.graph.sent.length).toBe(before);
    expect((await messageRows(t, 'wa-meta')).length).toBe(count);
  });

  it('is free-form for the 24-hour window (422 outside it)', async () => {
    const roomId = await cloudRoom('wa-meta', '5511922220005', 30);
    const res = await send(roomId, BUTTONS);
    expect(res.status).toBe(422);
    expect(res.body.errorMessage).toBe(messages.whatsapp.windowClosed);
  });

  it('the local servers validate the bodies as the providers do', async () => {
    const logger = { info() {}, warn() {}, error() {} };
    const meta = createChannelAdapter('meta', { fetch, logger, config: { baseUrl: t.graph.baseUrl, apiVersion: 'v21.0', ...META } });
    const twoUntitled = { type: 'list', body: { text: 'x' }, action: { button: 'Ver', sections: [{ rows: [{ id: 'a', title: 'A' }] }, { rows: [{ id: 'b', title: 'B' }] }] } } as const;
    await expect(meta.sendInteractive('5511922220006', twoUntitled as never)).rejects.toBeInstanceOf(ProviderError);
    await expect(meta.sendInteractive('5511922220006', { ...BUTTONS, action: { buttons: [] } } as never)).rejects.toBeInstanceOf(ProviderError);
    const zapi = createChannelAdapter('zApi', { fetch, logger, config: { baseUrl: t.zapi.baseUrl, ...ZAPI } });
    await expect(zapi.sendInteractive('5511922220006', { ...LIST, action: { button: '', sections: LIST.action.sections } } as never)).rejects.toBeInstanceOf(ProviderError);
    expect((await zapi.sendInteractive('5511922220006', BUTTONS as never)).externalId).toMatch(/^[0-9A-F]+$/);
  });
});
