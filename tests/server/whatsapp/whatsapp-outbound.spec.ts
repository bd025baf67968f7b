import { messages } from '@atendimento/schemas';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '@atendimento/schemas';
import { multipart, MULTIPART_TYPE } from '../../helpers/multipart';
import { META, messageRows, startWhatsappServer, stopWhatsappServer, ZAPI, type WhatsappTest } from './whatsapp-helpers';
import { waitFor } from '../../helpers/wait-for';

let t: WhatsappTest;
beforeAll(async () => {
  t = await startWhatsappServer({ statusDelayMs: 30 });
});
afterAll(() => stopWhatsappServer(t));

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

async function message(id: string, roomId: string): Promise<Message> {
  const res = await t.api(`/api/rooms/${roomId}/messages/${id}`, { token: t.tokens.admin });
  expect(res.status, res.text).toBe(200);
  return res.body.data as Message;
}

/** A customer writes on the Meta channel (unix timestamp `at`); the agent of vendas takes the room. */
async function customerRoom(phone: string, at = Math.floor(Date.now() / 1000), channelId = 'wa-meta'): Promise<string> {
  const id = `wamid.${phone}.${at}`;
  const raw = Buffer.from(JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [{ id: 'WABA1', changes: [{ field: 'messages', value: {
      messaging_product: 'whatsapp', metadata: { display_phone_number: '5511999990000', phone_number_id: META.phoneNumberId },
      contacts: [{ profile: { name: `Cliente ${phone}` }, wa_id: phone }],
      messages: [{ from: phone, id, timestamp: String(at), type: 'text', text: { body: 'Olá, preciso de ajuda' } }],
    } }] }],
  }));
  expect((await t.postMeta(channelId, raw)).status).toBe(200);
  const [row] = await messageRows(t, channelId, id);
  const push = await t.api(`/api/rooms/${row!.room_id}/push`, { method: 'PATCH', body: {}, token: t.tokens.agente });
  expect(push.status, push.text).toBe(200);
  return row!.room_id as string;
}

describe('outbound through the channel adapter (local Meta server)', () => {
  it('sends text and sees the ticks go sent → delivered → read from signed status webhooks', async () => {
    const roomId = await customerRoom('5511900002222');
    const before = t.graph.sent.length;
    const sent = await t.api(`/api/rooms/${roomId}/message`, { method: 'POST', body: { text: 'Olá! Como posso ajudar?' }, token: t.tokens.agente });
    expect(sent.status, sent.text).toBe(201);
    const read = await waitFor(async () => {
      const m = await message(sent.body.data.id, roomId);
      return m.status?.read ? m : null;
    }, 'read tick');
    expect(read.status).toMatchObject({ sent: true, delivered: true, read: true });
    const outgoing = t.graph.sent.slice(before);
    expect(outgoing).toHaveLength(1);
    expect(outgoing[0]!.body).toMatchObject({ messaging_product: 'whatsapp', to: '5511900002222', type: 'text', text: { body: 'Olá! Como posso ajudar?' } });
    expect(read.messageExtId).toBe(outgoing[0]!.id);
  });

  it('sends an image by link to our stored file', async () => {
    const roomId = await customerRoom('5511900003333');
    const before = t.graph.sent.length;
    const body = multipart({ type: 'image', caption: 'Nosso catálogo' }, { name: 'catalogo.png', type: 'image/png', bytes: PNG });
    const res = await t.api(`/api/rooms/${roomId}/message/file?type=image`, { method: 'POST', body, token: t.tokens.agente, headers: { 'content-type': MULTIPART_TYPE } });
    expect(res.status).toBe(201);
    await waitFor(async () => (await message(res.body.data.id, roomId)).status?.sent, 'image sent');
    const outgoing = t.graph.sent.slice(before);
    expect(outgoing).toHaveLength(1);
    expect(outgoing[0]!.body).toMatchObject({ type: 'image', image: { caption: 'Nosso catálogo' } });
    expect(outgoing[0]!.body.image.link).toMatch(/\/api\/files\/acme\/[A-Za-z0-9_-]+\.png$/);
  });

  it('maps provider errors to a failed status with the pt-BR title', async () => {
    const roomId = await customerRoom('5511900004444');
    t.graph.failNext(131026, 'Message undeliverable');
    const sent = await t.api(`/api/rooms/${roomId}/message`, { method: 'POST', body: { text: 'Oi?' }, token: t.tokens.agente });
    expect(sent.status).toBe(201);
    const failed = await waitFor(async () => {
      const m = await message(sent.body.data.id, roomId);
      return m.status?.failed ? m : null;
    }, 'failed status');
    expect(failed.status!.errors![0]).toMatchObject({ code: 131026, titleptBR: 'Mensagem não entregue: número sem WhatsApp ou versão desatualizada' });
  });

  it('retries throttling (130429) with back-off; a client error (above) is not retried', async () => {
    const roomId = await customerRoom('5511900004545');
    const before = t.graph.sent.length;
    t.graph.failNext(130429, '(#130429) Rate limit hit');
    const sent = await t.api(`/api/rooms/${roomId}/message`, { method: 'POST', body: { text: 'Depois do limite' }, token: t.tokens.agente });
    expect(sent.status).toBe(201);
    const ok = await waitFor(async () => {
      const m = await message(sent.body.data.id, roomId);
      return m.status?.sent || m.status?.failed ? m : null;
    }, 'sent after retry');
    expect(ok.status?.failed).toBeFalsy();
    expect(t.graph.sent.slice(before).map((s) => s.body.text?.body)).toEqual(['Depois do limite']);
  });

  it('outside the 24-hour window refuses free-form text with a pt-BR 4xx before calling the provider', async () => {
    const dayAgo = Math.floor(Date.now() / 1000) - 25 * 3600;
    const roomId = await customerRoom('5511900005555', dayAgo);
    const before = t.graph.sent.length;
    const count = (await messageRows(t, 'wa-meta')).length;
    const refused = await t.api(`/api/rooms/${roomId}/message`, { method: 'POST', body: { text: 'Oi, ainda precisa de ajuda?' }, token: t.tokens.agente });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ error: 'whatsapp_window_closed', errorMessage: messages.whatsapp.windowClosed });
    expect(t.graph.sent.length).toBe(before);
    expect((await messageRows(t, 'wa-meta')).length).toBe(count);
    // Internal notes are not messages to the contact: allowed.
    const note = await t.api(`/api/rooms/${roomId}/message`, { method: 'POST', body: { text: 'Cliente sumiu', annotation: true }, token: t.tokens.agente });
    expect(note.status, note.text).toBe(201);
    // A template is what the window lets through.
    const template = await t.api(`/api/rooms/${roomId}/message/template`, { method: 'POST', body: { template: { name: 'retomar_contato', language: 'pt_BR', components: [{ type: 'body', parameters: [{ type: 'text', text: 'Maria' }] }], text: 'Olá Maria! Podemos continuar nosso atendimento?' } }, token: t.tokens.agente });
    expect(template.status, template.text).toBe(201);
    expect(template.body.data).toMatchObject({ type: 'template', text: 'Olá Maria! Podemos continuar nosso atendimento?', template: { name: 'retomar_contato' } });
    await waitFor(async () => (await message(template.body.data.id, roomId)).status?.sent, 'template sent');
    expect(t.graph.sent.slice(before).map((m) => m.body)).toEqual([
      expect.objectContaining({ type: 'template', template: { name: 'retomar_contato', language: { code: 'pt_BR' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Maria' }] }] } }),
    ]);
    const invalid = await t.api(`/api/rooms/${roomId}/message/template`, { method: 'POST', body: { template: { language: 'pt_BR' } }, token: t.tokens.agente });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errorMessage).toBe('Campo obrigatório');
    // The customer writes again: the window reopens.
    await customerRoom('5511900005555');
    const ok = await t.api(`/api/rooms/${roomId}/message`, { method: 'POST', body: { text: 'Que bom falar com você!' }, token: t.tokens.agente });
    expect(ok.status, ok.text).toBe(201);
  });

  it('a receipt that overtakes the send answer is refused (503) and applies on the provider retry', async () => {
    const roomId = await customerRoom('5511900001212');
    const before = t.graph.sent.length;
    const release = t.graph.holdNextSend();
    const sent = await t.api(`/api/rooms/${roomId}/message`, { method: 'POST', body: { text: 'Mensagem lenta' }, token: t.tokens.agente });
    expect(sent.status).toBe(201);
    const out = await waitFor(() => t.graph.sent[before], 'send reached the provider');
    // The provider already knows the id; we do not yet.
    const early = Buffer.from(JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: 'WABA1', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { phone_number_id: META.phoneNumberId }, statuses: [{ id: out.id, status: 'delivered', timestamp: String(Math.floor(Date.now() / 1000)), recipient_id: '5511900001212' }] } }] }] }));
    const refused = await t.postMeta('wa-meta', early);
    expect(refused.status).toBe(503);
    release();
    await waitFor(async () => (await message(sent.body.data.id, roomId)).messageExtId === out.id, 'id stored');
    const retried = await t.postMeta('wa-meta', early);
    expect(retried.status).toBe(200);
    await waitFor(async () => (await message(sent.body.data.id, roomId)).status?.delivered, 'delivered applied');
  });

  it('reading the room sends the provider read receipt for the newest customer message', async () => {
    const roomId = await customerRoom('5511900001313');
    const [row] = (await messageRows(t, 'wa-meta')).filter((r) => r.room_id === roomId);
    const read = await t.api(`/api/rooms/${roomId}`, { method: 'PATCH', body: { lastMessage: { unread: false } }, token: t.tokens.agente });
    expect(read.status, read.text).toBe(200);
    await waitFor(() => t.graph.reads.includes(row!.external_id as string), 'read receipt at the provider');
  });

  it('360dialog: fetches media with D360-API-KEY, sends on /messages and takes ticks from secret-header webhooks', async () => {
    const mediaId = t.d360.addMedia(PNG, 'image/png');
    const id = await t.d360.customerSays({ phone: '5511900009999', name: 'Cliente 360' }, { type: 'image', image: { id: mediaId, mime_type: 'image/png' } });
    const [row] = await messageRows(t, 'wa-360', id);
    const inbound = await message(row!.id, row!.room_id);
    expect(inbound.image?.imageUrl).toMatch(/^\/api\/files\/acme\//);
    expect((await t.api(`/api/rooms/${row!.room_id}/push`, { method: 'PATCH', body: {}, token: t.tokens.agente })).status).toBe(200);
    const sent = await t.api(`/api/rooms/${row!.room_id}/message`, { method: 'POST', body: { text: 'Recebi sua foto' }, token: t.tokens.agente });
    expect(sent.status, sent.text).toBe(201);
    const read = await waitFor(async () => {
      const m = await message(sent.body.data.id, row!.room_id);
      return m.status?.read ? m : null;
    }, '360 read');
    expect(t.d360.sent.find((s) => s.id === read.messageExtId)?.body).toMatchObject({ to: '5511900009999', type: 'text', text: { body: 'Recebi sua foto' } });
  });

  it('Z-API has no window and sends with the Client-Token on the instance path', async () => {
    const raw = Buffer.from(JSON.stringify({ type: 'ReceivedCallback', messageId: 'ZOLD1', phone: '5511900006666', fromMe: false, momment: Date.now() - 48 * 3600_000, senderName: 'Cliente Z', text: { message: 'Oi' } }));
    expect((await t.post(`/api/webhooks/whatsapp/wa-zapi/${ZAPI.webhookSecret}`, raw)).status).toBe(200);
    const [row] = await messageRows(t, 'wa-zapi', 'ZOLD1');
    expect((await t.api(`/api/rooms/${row!.room_id}/push`, { method: 'PATCH', body: {}, token: t.tokens.suporte })).status).toBe(200);
    const sent = await t.api(`/api/rooms/${row!.room_id}/message`, { method: 'POST', body: { text: 'Olá pelo Z-API' }, token: t.tokens.suporte });
    expect(sent.status, sent.text).toBe(201);
    const read = await waitFor(async () => {
      const m = await message(sent.body.data.id, row!.room_id);
      return m.status?.read ? m : null;
    }, 'z-api read');
    expect(t.zapi.sent.find((s) => s.id === read.messageExtId)).toMatchObject({ path: 'send-text', body: { phone: '5511900006666', message: 'Olá pelo Z-API' } });
  });

  it('keeps the SSRF rules for configured channels: an untrusted loopback provider is never called', async () => {
    let calls = 0;
    const trap = http.createServer((_req, res) => {
      calls++;
      res.end('{}');
    });
    await new Promise<void>((r) => trap.listen(0, '127.0.0.1', () => r()));
    try {
      await t.addChannel('wa-interno', 'meta', { baseUrl: `http://127.0.0.1:${(trap.address() as AddressInfo).port}`, apiVersion: 'v21.0', ...META });
      const roomId = await customerRoom('5511900007777', Math.floor(Date.now() / 1000), 'wa-interno');
      const sent = await t.api(`/api/rooms/${roomId}/message`, { method: 'POST', body: { text: 'Oi' }, token: t.tokens.agente });
      expect(sent.status).toBe(201);
      const failed = await waitFor(async () => {
        const m = await message(sent.body.data.id, roomId);
        return m.status?.failed ? m : null;
      }, 'refused send');
      expect(failed.status!.errors![0]!.titleptBR).toBeTruthy();
      expect(calls).toBe(0);
    } finally {
      await new Promise<void>((r) => trap.close(() => r()));
    }
  });

  it('statuses apply as a monotonic max: read never goes back to delivered', async () => {
    const roomId = await customerRoom('5511900008888');
    const sent = await t.api(`/api/rooms/${roomId}/message`, { method: 'POST', body: { text: 'Teste de ordem' }, token: t.tokens.agente });
    const read = await waitFor(async () => {
      const m = await message(sent.body.data.id, roomId);
      return m.status?.read ? m : null;
    }, 'read');
    // Late and duplicated receipts after read.
    for (const status of ['delivered', 'sent', 'delivered', 'failed']) await t.graph.postStatus(read.messageExtId!, '5511900008888', status);
    expect(t.graph.webhookResults.slice(-4).map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const after = await message(sent.body.data.id, roomId);
    expect(after.status).toMatchObject({ sent: true, delivered: true, read: true });
    expect(after.status?.failed).toBeFalsy();
    expect(after.status?.readAt).toBe(read.status?.readAt);
  });
});
