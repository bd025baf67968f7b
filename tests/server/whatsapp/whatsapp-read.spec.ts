import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { META, messageRows, startWhatsappServer, stopWhatsappServer, type WhatsappTest } from './whatsapp-helpers';
import { waitFor } from '../../helpers/wait-for';

/**
 * The mark-read rule (docs/whatsapp.md "Read receipts"): marking a room read (the console does
 * it when an agent of the room reads it, and 'Marcar como lido') sends ONE provider receipt for
 * the newest customer message not yet read; 'Marcar como não lido' is ours only.
 */
let t: WhatsappTest;
beforeAll(async () => {
  t = await startWhatsappServer({ autoStatuses: false });
});
afterAll(() => stopWhatsappServer(t));

async function customerSays(phone: string, n: number): Promise<{ roomId: string; id: string }> {
  const at = Math.floor(Date.now() / 1000);
  const id = `wamid.read.${phone}.${n}`;
  const raw = Buffer.from(JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: 'WABA1', changes: [{ field: 'messages', value: {
    messaging_product: 'whatsapp', metadata: { display_phone_number: '5511999990000', phone_number_id: META.phoneNumberId },
    contacts: [{ profile: { name: 'Cliente Leitura' }, wa_id: phone }], messages: [{ from: phone, id, timestamp: String(at + n), type: 'text', text: { body: `mensagem ${n}` } }],
  } }] }] }));
  expect((await t.postMeta('wa-meta', raw)).status).toBe(200);
  const [row] = await messageRows(t, 'wa-meta', id);
  return { roomId: row!.room_id as string, id };
}

const mark = (roomId: string, unread: boolean) => t.api(`/api/rooms/${roomId}`, { method: 'PATCH', body: { lastMessage: { unread } }, token: t.tokens.agente });

describe('provider read receipts', () => {
  it('one receipt for the newest unread customer message; none for unread, none twice', async () => {
    const phone = '5511933330001';
    await customerSays(phone, 1);
    const { roomId, id: second } = await customerSays(phone, 2);
    expect((await t.api(`/api/rooms/${roomId}/push`, { method: 'PATCH', body: {}, token: t.tokens.agente })).status).toBe(200);
    const before = t.graph.reads.length;
    expect((await mark(roomId, false)).status).toBe(200);
    await waitFor(() => t.graph.reads.length > before, 'read receipt');
    expect(t.graph.reads.slice(before)[0]).toBe(second);

    // 'Marcar como não lido' and reading again with nothing new: no provider call.
    expect((await mark(roomId, true)).status).toBe(200);
    expect((await mark(roomId, false)).status).toBe(200);

    // A new customer message read later gets its own receipt. It is also the marker: a receipt
    // for message 1, a second one for message 2, or one for the steps above would have gone
    // out through the same path before it, so once it arrives the list is complete.
    const { id: third } = await customerSays(phone, 3);
    expect((await mark(roomId, false)).status).toBe(200);
    await waitFor(() => t.graph.reads.includes(third), 'second receipt');
    expect(t.graph.reads.slice(before)).toEqual([second, third]);
  });
});
