import { createHash } from 'node:crypto';
import http from 'node:http';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@atendimento/server';
import { messages, type Message, type Room } from '@atendimento/schemas';
import { messageRows, startWhatsappServer, stopWhatsappServer, type WhatsappTest } from '../whatsapp/whatsapp-helpers';

/**
 * LGPD (docs/lgpd.md) end to end, on SQLite and (npm run test:pg) PostgreSQL: customers write
 * through the signed WhatsApp webhook (text and a photo fetched into the blob store); an admin
 * exports a contact as one zip (its survey answers and ERP links included), erases it with two
 * confirmations (audited, irreversible), and the retention clock deletes media first and then
 * anonymises old closed chats; either way the dashboard (GET /api/dashboard/reports) shows the
 * same figures for the day the chats started. Every other kind of user is refused.
 */
const clock = new ManualClock(new Date('2026-03-02T12:00:00.000Z'));
let t: WhatsappTest;
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const DAY = 86_400_000;

beforeAll(async () => {
  t = await startWhatsappServer({ clock, autoStatuses: false });
});
afterAll(() => stopWhatsappServer(t));

function get(path: string, token: string | null, host = t.hosts.acme): Promise<{ status: number; bytes: Buffer; type: string }> {
  const url = new URL(t.baseUrl);
  return new Promise((resolve, reject) => {
    http.get({ hostname: '127.0.0.1', port: url.port, path, headers: { host, ...(token && { authorization: `Bearer ${token}` }) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes: Buffer.concat(chunks), type: String(res.headers['content-type'] ?? '') }));
    }).on('error', reject);
  });
}

/** A customer writes a text and sends a photo; answers the room, the contact id and the photo's URL. */
async function customer(phone: string, name: string, text: string): Promise<{ roomId: string; contactId: string; photoUrl: string }> {
  const textId = await t.graph.customerSays({ phone, name }, { type: 'text', text: { body: text } });
  const mediaId = t.graph.addMedia(PNG, 'image/png');
  const sha256 = createHash('sha256').update(PNG).digest('base64');
  const photoId = await t.graph.customerSays({ phone, name }, { type: 'image', image: { id: mediaId, mime_type: 'image/png', sha256, caption: `foto de ${name}` } });
  const [textRow] = await messageRows(t, 'wa-meta', textId);
  const [photoRow] = await messageRows(t, 'wa-meta', photoId);
  const room = (await t.api(`/api/rooms/${textRow!.room_id}`, { token: t.tokens.admin })).body.data as Room;
  const photo = (await t.api(`/api/rooms/${photoRow!.room_id}/messages/${photoRow!.id}`, { token: t.tokens.admin })).body.data as Message;
  expect(photo.image?.imageUrl).toMatch(/^\/api\/files\/acme\//);
  return { roomId: room.id, contactId: room.author.id, photoUrl: photo.image!.imageUrl };
}

/** A survey answer as the console operations write it: the room's values, in a feed transaction (filed in the reports). */
async function surveyAnswer(roomId: string, nps: number, csat: number): Promise<void> {
  await t.server.services.changes.transaction('acme', async (trx, record) => {
    await trx('rooms').where({ tenant_id: 'acme', id: roomId }).update({ nps_value: nps, csat_value: csat });
    record({ collection: 'rooms', id: roomId, op: 'upsert' });
  });
}

/** The dashboard's figures of one local day (GET /api/dashboard/reports, docs/reports.md). */
async function dashboardDay(day: string, token = t.tokens.admin): Promise<Record<string, unknown>> {
  const res = await t.api(`/api/dashboard/reports?from=${day}&to=${day}`, { token });
  expect(res.status, res.text).toBe(200);
  expect(res.body.data.days).toHaveLength(1);
  return res.body.data.days[0];
}

/** Every stored text of the tenant that mentions `needle` (rooms, messages, contacts, identities). */
async function mentions(needle: string): Promise<string[]> {
  const db = t.server.db;
  const found: string[] = [];
  for (const [table, columns] of [['rooms', ['data', 'chat_id', 'author_name']], ['messages', ['data', 'deleted_data']], ['contacts', ['data', 'phone', 'display_name']], ['contact_identities', ['identity']]] as const) {
    const rows = await db(table).where('tenant_id', 'acme').select(...columns);
    for (const row of rows) for (const c of columns) if (row[c] && JSON.stringify(row[c]).includes(needle)) found.push(`${table}.${c}`);
  }
  return found;
}

describe('LGPD: export and erase a contact', () => {
  it('exports everything about the contact as one zip, erases it after two confirmations, audits both', async () => {
    const maria = await customer('5511955550001', 'Maria Sigilosa', 'Meu CPF é 123.456.789-00');
    const outro = await customer('5511955550002', 'João Mantido', 'Olá, sou outro cliente');
    // Maria answered the surveys (João too: his answers are not hers) and is linked to the ERP.
    await surveyAnswer(maria.roomId, 9, 5);
    await surveyAnswer(outro.roomId, 3, 2);
    const links = { clients: ['000123-01'], prospects: ['PRS-77'], salesmen: ['V0042'] };
    const pushed = await t.api(`/api/contacts/${maria.contactId}/push`, { method: 'PATCH', token: t.tokens.admin, body: links });
    expect(pushed.status, pushed.text).toBe(200);

    // Only admins of the tenant.
    const path = `/api/lgpd/contacts/${maria.contactId}/export`;
    expect((await get(path, null)).status).toBe(401);
    expect((await get(path, t.tokens.agente)).status).toBe(403);
    expect((await get(path, await t.tokenFor('acme', 'acme-supervisor'))).status).toBe(403);
    expect((await get(path, await t.tokenFor('outra', 'outra-admin'), t.hosts.outra)).status).toBe(404);
    for (const token of [t.tokens.agente, await t.tokenFor('acme', 'acme-supervisor')]) {
      expect((await t.api(`/api/lgpd/contacts/${maria.contactId}/erase`, { method: 'POST', token, body: {} })).status).toBe(403);
      expect((await t.api('/api/lgpd/audit', { token })).status).toBe(403);
    }
    expect((await t.api(`/api/lgpd/contacts/${maria.contactId}/erase`, { method: 'POST', token: await t.tokenFor('outra', 'outra-admin'), host: t.hosts.outra, body: {} })).status).toBe(404);

    const exported = await get(path, t.tokens.admin);
    expect(exported.status).toBe(200);
    expect(exported.type).toBe('application/zip');
    const zip = await JSZip.loadAsync(exported.bytes);
    expect(Object.keys(zip.files)).toEqual(expect.arrayContaining(['LEIA-ME.json', 'contact.json', 'identities.json', 'chats.json', 'messages.json', 'surveys.json']));
    const exportedContact = JSON.parse(await zip.file('contact.json')!.async('string')) as Record<string, unknown>;
    expect(exportedContact).toMatchObject({ id: maria.contactId, ...links });
    expect(JSON.stringify(exportedContact)).toContain('Maria Sigilosa');
    // Her survey answers, and only hers.
    expect(JSON.parse(await zip.file('surveys.json')!.async('string'))).toEqual([{ roomId: maria.roomId, nps: 9, csat: 5 }]);
    expect(await zip.file('identities.json')!.async('string')).toContain('5511955550001');
    const exportedMessages = JSON.parse(await zip.file('messages.json')!.async('string')) as Message[];
    expect(exportedMessages.map((m) => m.text)).toContain('Meu CPF é 123.456.789-00');
    expect(exportedMessages.some((m) => JSON.stringify(m).includes('João Mantido'))).toBe(false);
    const photoName = maria.photoUrl.split('/').pop()!;
    expect((await zip.file(`files/${photoName}`)!.async('nodebuffer')).equals(PNG)).toBe(true);

    // First confirmation: what would go, and a code. Without the code and the typed word, nothing happens.
    const erasePath = `/api/lgpd/contacts/${maria.contactId}/erase`;
    const first = await t.api(erasePath, { method: 'POST', token: t.tokens.admin, body: {} });
    expect(first.status, first.text).toBe(200);
    expect(first.body.data).toMatchObject({ contact: { id: maria.contactId, displayName: 'Maria Sigilosa' }, chats: 1, messages: 2, confirmText: 'APAGAR' });
    const code = first.body.data.confirmationToken as string;
    const noWord = await t.api(erasePath, { method: 'POST', token: t.tokens.admin, body: { confirmationToken: code } });
    expect(noWord.status).toBe(400);
    expect(noWord.body.errorMessage).toBe(messages.lgpd.eraseConfirmRequired);
    const forged = await t.api(erasePath, { method: 'POST', token: t.tokens.admin, body: { confirmationToken: `${code.split('.')[0]}.assinatura-falsa`, confirmation: 'APAGAR' } });
    expect(forged.status).toBe(400);
    expect(forged.body.errorMessage).toBe(messages.lgpd.eraseConfirmInvalid);
    // Another contact's code does not erase this one.
    const otherCode = (await t.api(`/api/lgpd/contacts/${outro.contactId}/erase`, { method: 'POST', token: t.tokens.admin, body: {} })).body.data.confirmationToken;
    expect((await t.api(erasePath, { method: 'POST', token: t.tokens.admin, body: { confirmationToken: otherCode, confirmation: 'APAGAR' } })).status).toBe(400);
    expect(await mentions('Sigilosa')).not.toEqual([]);

    const roomsBefore = Number((await t.server.db('rooms').where('tenant_id', 'acme').count({ n: '*' }))[0]!.n);
    // The dashboard of the day the chats started, as the admins read it, before the erase.
    const today = '2026-03-02';
    const dayBefore = (await dashboardDay(today)) as { roomDate: { countRooms: number; countContacts: number }; npsAnswered: { npsAgents: { values: Record<string, number> }[] }; csatAnswered: { csatAgents: { values: Record<string, number> }[] } };
    expect(dayBefore.roomDate).toMatchObject({ countRooms: 2, countContacts: 2 });
    expect(dayBefore.npsAnswered.npsAgents.map((a) => a.values)).toEqual([{ '3': 1, '9': 1 }]);
    expect(dayBefore.csatAnswered.csatAgents.map((a) => a.values)).toEqual([{ '2': 1, '5': 1 }]);
    const erased = await t.api(erasePath, { method: 'POST', token: t.tokens.admin, body: { confirmationToken: code, confirmation: 'APAGAR' } });
    expect(erased.status, erased.text).toBe(200);
    expect(erased.body.data).toMatchObject({ action: 'erase', contactId: maria.contactId, userId: 'acme-admin', details: { chats: 1, messages: 2, files: 1 } });

    // Nothing that identifies Maria is left; her file is gone; the chat row stays for statistics; João is untouched.
    for (const needle of ['Sigilosa', '5511955550001', '123.456.789-00', photoName]) expect(await mentions(needle), needle).toEqual([]);
    expect((await get(maria.photoUrl, t.tokens.admin)).status).toBe(404);
    expect(Number((await t.server.db('rooms').where('tenant_id', 'acme').count({ n: '*' }))[0]!.n)).toBe(roomsBefore);
    const room = (await t.api(`/api/rooms/${maria.roomId}`, { token: t.tokens.admin })).body.data as Room;
    expect(room.author.displayName).toBe('Contato anônimo');
    // The dashboard's aggregates of that day did not change: chats, contacts, surveys, hours, channels.
    expect(await dashboardDay(today)).toEqual(dayBefore);
    expect(await mentions('João Mantido')).not.toEqual([]);
    expect((await get(outro.photoUrl, t.tokens.admin)).status).toBe(200);
    // Irreversible: the contact is gone, a second erase or export finds nothing.
    expect((await t.api(erasePath, { method: 'POST', token: t.tokens.admin, body: { confirmationToken: code, confirmation: 'APAGAR' } })).status).toBe(404);
    expect((await get(path, t.tokens.admin)).status).toBe(404);

    const audit = await t.api('/api/lgpd/audit', { token: t.tokens.admin });
    expect(audit.status).toBe(200);
    expect(audit.body.data.map((e: { action: string; contactId: string; userId: string }) => [e.action, e.contactId, e.userId])).toEqual(
      expect.arrayContaining([['export', maria.contactId, 'acme-admin'], ['erase', maria.contactId, 'acme-admin']]),
    );
    expect(JSON.stringify(audit.body.data)).not.toContain('Sigilosa');
  });
});

describe('LGPD: retention by the clock', () => {
  it('deletes media first, then anonymises closed chats older than the tenant setting; the chats stay counted', async () => {
    const previous = await t.patchAppConfig({ retention: { closedChatsDays: 30, mediaDays: 7 } });
    try {
      const velho = await customer('5511955550003', 'Carlos Antigo', 'Pedido 998877');
      const novo = await customer('5511955550004', 'Rita Recente', 'Pedido 112233');
      // Carlos's chat closes now; Rita's stays open (retention only touches closed chats).
      await t.server.db('rooms').where({ tenant_id: 'acme', id: velho.roomId }).update({ active: false, closed_at: clock.now().toISOString() });
      await surveyAnswer(velho.roomId, 7, 4);
      const day = clock.now().toISOString().slice(0, 10);
      const dayBefore = await dashboardDay(day);
      // Carlos's chat is counted there, with his NPS answer.
      expect(JSON.stringify((dayBefore as { npsAnswered: unknown }).npsAnswered)).toContain('"7":1');

      clock.advance(6 * DAY);
      await t.server.services.lgpd.runRetention();
      expect((await get(velho.photoUrl, t.tokens.admin)).status).toBe(200);

      clock.advance(2 * DAY);
      await t.server.services.lgpd.runRetention();
      expect((await get(velho.photoUrl, t.tokens.admin)).status).toBe(404);
      expect(await mentions('Pedido 998877')).not.toEqual([]);
      expect(await mentions('Carlos Antigo')).not.toEqual([]);

      clock.advance(23 * DAY);
      const report = await t.server.services.lgpd.runRetention();
      expect(report.find((r) => r.tenantId === 'acme')).toMatchObject({ anonymisedRooms: 1 });
      for (const needle of ['Pedido 998877', 'Carlos Antigo', '5511955550003']) {
        expect((await mentions(needle)).filter((where) => !where.startsWith('contacts') && !where.startsWith('contact_identities')), needle).toEqual([]);
      }
      // The statistics survive: the closed chat, its closing date and NPS are still there.
      const row = await t.server.db('rooms').where({ tenant_id: 'acme', id: velho.roomId }).first('active', 'closed_at', 'nps_value', 'anonymised_at');
      expect(row).toMatchObject({ nps_value: 7 });
      expect(row!.anonymised_at).toBeTruthy();
      // And the dashboard's figures of the day those chats started are the same as before.
      expect(await dashboardDay(day, await t.tokenFor('acme', 'acme-admin'))).toEqual(dayBefore);
      // The open chat is untouched.
      expect((await get(novo.photoUrl, t.tokens.admin)).status).toBe(200);
      expect(await mentions('Rita Recente')).not.toEqual([]);
      // (a fresh token: the clock moved a month past the test's tokens)
      const audit = (await t.api('/api/lgpd/audit', { token: await t.tokenFor('acme', 'acme-admin') })).body.data as { action: string; details: { anonymisedRooms?: number; mediaRooms?: number } }[];
      expect(audit.filter((e) => e.action === 'retention').map((e) => [e.details.mediaRooms, e.details.anonymisedRooms])).toEqual([[0, 1], [1, 0]]);
    } finally {
      await t.patchAppConfig(previous);
    }
  });
});
