import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '@atendimento/schemas';
import { parseJson } from '@atendimento/server/db/knex';
import { INBOUND_TEXT_MAX } from '@atendimento/server/services/chat/ingest-service';
import { META, ZAPI, fixture, messageRows, startWhatsappServer, stopWhatsappServer, type WhatsappTest } from './whatsapp-helpers';

/**
 * Provider payloads past the shared fixtures, as a provider (or a broken one) sends them: a burst
 * in one second, a bad timestamp beside good messages, known types without their body, a text
 * of megabytes, a Z-API edit. Each goes through the real signed route; what the agent then reads
 * is what the API answers.
 */
let t: WhatsappTest;
beforeAll(async () => {
  t = await startWhatsappServer({ autoStatuses: false });
});
afterAll(() => stopWhatsappServer(t));

let seq = 0;
/** One Cloud API delivery of `messages` from `phone`, signed for wa-meta. */
function delivery(phone: string, messages: Record<string, unknown>[]): Buffer {
  const value = {
    messaging_product: 'whatsapp',
    metadata: { display_phone_number: '5511999990000', phone_number_id: META.phoneNumberId },
    contacts: [{ profile: { name: `Cliente ${phone.slice(-4)}` }, wa_id: phone }],
    messages: messages.map((m) => ({ from: phone, id: `wamid.edge${++seq}`, timestamp: String(Math.floor(Date.now() / 1000) - 5), ...m })),
  };
  return Buffer.from(JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: META.businessAccountId, changes: [{ field: 'messages', value }] }] }));
}

const stored = (row: { data: unknown }) => parseJson<Message>(row.data as string, {} as Message);

describe('WhatsApp payloads beyond the fixtures', () => {
  it('a burst in one second: the first page holds the latest messages, the next page the earlier ones', async () => {
    const second = String(Math.floor(Date.now() / 1000) - 30);
    const texts = Array.from({ length: 25 }, (_, i) => `foto ${i + 1}`);
    const res = await t.postMeta('wa-meta', delivery('5511933330001', texts.map((body) => ({ timestamp: second, type: 'text', text: { body } }))));
    expect(res.status, res.text).toBe(200);
    const roomId = (await messageRows(t, 'wa-meta')).find((r) => stored(r).text === 'foto 1')!.room_id as string;
    const first = await t.api(`/api/rooms/${roomId}/messages?limit=20`, { token: t.tokens.admin });
    expect(first.status, first.text).toBe(200);
    const customer = (page: { data: Message[] }) => page.data.filter((m) => m.author.type === 'client').map((m) => m.text);
    // Newest first: 'foto 25' … 'foto 6' (an automatic answer, stamped later, may come before them).
    expect(customer(first.body).slice(0, 20)).toEqual(texts.slice(-20).reverse().slice(0, customer(first.body).length));
    expect(customer(first.body)[0]).toBe('foto 25');
    const older = await t.api(`/api/rooms/${roomId}/messages?limit=20&before=${encodeURIComponent(first.body.meta.before)}`, { token: t.tokens.admin });
    const all = [...customer(first.body), ...customer(older.body)];
    expect(all).toEqual([...texts].reverse());
  });

  it('a bad timestamp in one message of a delivery: every message stored, that one at the time it arrived', async () => {
    const before = Date.now();
    const res = await t.postMeta('wa-meta', delivery('5511933330002', [
      { type: 'text', text: { body: 'data impossível' }, timestamp: '99999999999999999' },
      { type: 'text', text: { body: 'data em texto' }, timestamp: 'ontem' },
      { type: 'text', text: { body: 'mensagem boa' } },
    ]));
    expect(res.status, res.text).toBe(200);
    const rows = (await messageRows(t, 'wa-meta')).map(stored).filter((m) => m.author.phone === '5511933330002');
    expect(rows.map((m) => m.text).sort()).toEqual(['data em texto', 'data impossível', 'mensagem boa']);
    const impossible = rows.find((m) => m.text === 'data impossível')!;
    expect(Date.parse(impossible.lifeControl.createdAt)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('known types without their body are unsupported notices, not empty bubbles or points in the ocean', async () => {
    const res = await t.postMeta('wa-meta', delivery('5511933330003', [
      { type: 'text' },
      { type: 'location', location: { latitude: 'abc', longitude: null } },
      { type: 'location', location: { latitude: -23.55, longitude: 200 } },
      { type: 'location', location: { latitude: '-23.5505', longitude: '-46.6333', name: 'Loja' } },
    ]));
    expect(res.status, res.text).toBe(200);
    const rows = (await messageRows(t, 'wa-meta')).map(stored).filter((m) => m.author.phone === '5511933330003');
    expect(rows.map((m) => m.type).sort()).toEqual(['location', 'unsupported', 'unsupported', 'unsupported']);
    expect(rows.find((m) => m.type === 'location')!.location).toMatchObject({ latitude: -23.5505, longitude: -46.6333, name: 'Loja' });
    for (const m of rows.filter((r) => r.type === 'unsupported')) expect(m.text).toBeTruthy();
  });

  it('a text of megabytes is kept up to WhatsApp\'s own limit, without the provider\'s copy of it', async () => {
    const huge = `${'a'.repeat(INBOUND_TEXT_MAX - 1)}😀${'b'.repeat(100_000)}`;
    const res = await t.postMeta('wa-meta', delivery('5511933330004', [{ type: 'text', text: { body: huge } }]));
    expect(res.status, res.text).toBe(200);
    const [row] = (await messageRows(t, 'wa-meta')).filter((r) => stored(r).author.phone === '5511933330004');
    const message = stored(row!);
    // The emoji across the limit is not cut in half.
    expect(message.text).toBe(`${'a'.repeat(INBOUND_TEXT_MAX - 1)}…`);
    expect(String(row!.data).length).toBeLessThan(INBOUND_TEXT_MAX + 10_000);
  });

  it('Z-API: an edit (isEdit, the edited message\'s id) changes the stored message; its repetition changes nothing', async () => {
    await t.addChannel('z-edita', 'zApi', { baseUrl: t.zapi.baseUrl, ...ZAPI }, 'suporte');
    const path = `/api/webhooks/whatsapp/z-edita/${ZAPI.webhookSecret}`;
    const text = JSON.parse(fixture('zapi', 'received_text.json').toString('utf8'));
    const send = (extra: Record<string, unknown>) => t.post(path, Buffer.from(JSON.stringify({ ...text, messageId: 'ZEDIT-1', ...extra })));
    expect((await send({ text: { message: 'Quero orçamento' }, momment: Date.now() - 60_000 })).status).toBe(200);
    const edit = { text: { message: 'Quero orçamento de 3 caixas' }, isEdit: true, momment: Date.now() };
    expect((await send(edit)).status).toBe(200);
    expect((await send(edit)).status).toBe(200);
    const rows = await messageRows(t, 'z-edita');
    expect(rows).toHaveLength(1);
    const message = stored(rows[0]!);
    expect(message.text).toBe('Quero orçamento de 3 caixas');
    expect(message.versions.map((v) => v.text)).toEqual(['Quero orçamento']);
  });
});
