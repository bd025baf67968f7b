import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChannelAdapter, hubSignature } from '@atendimento/integrations';
import type { Message, Room } from '@atendimento/schemas';
import { parseJson } from '@atendimento/server/db/knex';
import { replayFixtures } from '@atendimento/integrations/providers/fixture-replayer';
import { fixturesDir } from '@atendimento/integrations/fixtures';
import {
  D360, META, ZAPI, changeEvents, fixture, fixtureFiles, messageRows, startWhatsappServer, stopWhatsappServer, type WhatsappTest,
} from './whatsapp-helpers';

let t: WhatsappTest;
beforeAll(async () => {
  t = await startWhatsappServer({ autoStatuses: false });
});
afterAll(() => stopWhatsappServer(t));

/** Message type each Cloud API fixture must be stored as; null = no message row (status, template event, reaction without target). */
const CLOUD_EXPECTED: Record<string, Message['type'] | null> = {
  'inbound_audio_voice.json': 'audio',
  'inbound_contacts.json': 'contacts',
  'inbound_document.json': 'document',
  // The edited message was never stored here: the edit is kept as a message of its own.
  'inbound_edit_text.json': 'text',
  'inbound_image_with_url.json': 'image',
  'inbound_interactive_button_reply.json': 'interactive',
  'inbound_interactive_list_reply.json': 'interactive',
  'inbound_interactive_nfm_reply_flow.json': 'interactive',
  'inbound_interactive_with_error.json': 'unsupported',
  'inbound_location.json': 'location',
  'inbound_location_current.json': 'location',
  'inbound_order.json': 'order',
  'inbound_reaction.json': null,
  'inbound_reaction_no_emoji.json': null,
  'inbound_reaction_removed.json': null,
  // Deleting a message we never stored changes nothing.
  'inbound_revoke.json': null,
  'inbound_sticker_animated.json': 'sticker',
  'inbound_system_identity_changed.json': 'system',
  'inbound_system_user_changed_number.json': 'system',
  'inbound_system_user_changed_user_id.json': 'system',
  'inbound_template_quick_reply_button_bsuid.json': 'interactive',
  'inbound_text.json': 'text',
  'inbound_text_referral_ctwa_ad.json': 'text',
  'inbound_text_reply_context.json': 'text',
  'inbound_unsupported.json': 'unsupported',
  'inbound_unsupported_with_type.json': 'unsupported',
  'inbound_video_forwarded.json': 'video',
  // Sent from the business's own app: not stored (docs/whatsapp.md "Message kinds").
  'message_echo_text.json': null,
  'status_delivered.json': null,
  'status_failed.json': null,
  'status_read.json': null,
  'status_sent.json': null,
  'template_status_update_rejected.json': null,
};

const ZAPI_EXPECTED: Record<string, Message['type'] | null> = {
  'message_status_read.json': null,
  'received_image.json': 'image',
  'received_reaction.json': null,
  'received_text.json': 'text',
};

const zapiPath = (channelId: string, secret = ZAPI.webhookSecret) => `/api/webhooks/whatsapp/${channelId}/${secret}`;

describe('WhatsApp webhooks: every shared fixture through the real route', () => {
  it('knows every fixture file (a new fixture must get an expectation here)', () => {
    expect(fixtureFiles('whatsapp')).toEqual(Object.keys(CLOUD_EXPECTED).sort());
    expect(fixtureFiles('zapi')).toEqual(Object.keys(ZAPI_EXPECTED).sort());
  });

  it.each(fixtureFiles('whatsapp'))('Meta and 360dialog: %s is stored once, in the channel department queue', async (file) => {
    const raw = fixture('whatsapp', file);
    const parse = createChannelAdapter('meta', { fetch, logger: { info() {}, warn() {}, error() {} }, config: { baseUrl: 'http://x' } }).parseWebhook(JSON.parse(raw.toString('utf8')));
    // One channel per fixture and provider: the fixtures reuse the same wamid, which is unique per channel.
    const suffix = file.replace(/\.json$/, '').replace(/_/g, '-');
    const metaId = `m-${suffix}`.slice(0, 60);
    const d360Id = `d-${suffix}`.slice(0, 60);
    await t.addChannel(metaId, 'meta', { baseUrl: t.graph.baseUrl, apiVersion: 'v21.0', ...META });
    await t.addChannel(d360Id, 'dialog360', { baseUrl: t.graph.baseUrl, ...D360 });

    const viaMeta = await t.postMeta(metaId, raw);
    expect(viaMeta.status, viaMeta.text).toBe(200);
    const via360 = await t.post(`/api/webhooks/whatsapp/${d360Id}`, raw, { [D360.webhookSecretHeader]: D360.webhookSecret });
    expect(via360.status, via360.text).toBe(200);

    for (const channelId of [metaId, d360Id]) {
      const rows = await messageRows(t, channelId);
      const expected = CLOUD_EXPECTED[file];
      if (expected === null) {
        expect(rows).toEqual([]);
        continue;
      }
      expect(rows).toHaveLength(1);
      expect(rows[0]!.type).toBe(expected);
      expect(rows[0]!.external_id).toBe(parse.messages[0]!.externalId);
      const message = parseJson<Message>(rows[0]!.data, {} as Message);
      expect(message.author.type).toBe(expected === 'system' ? 'system' : 'client');
      // The provider's message object is kept as received.
      expect(message.raw).toEqual(JSON.parse(raw.toString('utf8')).entry[0].changes[0].value.messages[0]);
      if (['image', 'audio', 'video', 'document', 'sticker'].includes(expected!)) {
        // The local Graph server does not know these media ids: the error renderer ('recarregar') gets the reference.
        expect(message.error).toMatchObject({ type: expected });
      }
      if (expected === 'text') expect(message.text).toBeTruthy();
      const room = await t.api(`/api/rooms/${rows[0]!.room_id}`, { token: t.tokens.agente });
      expect(room.status, room.text).toBe(200);
      expect(room.body.data).toMatchObject({ channelId, departmentId: 'vendas', inAttend: false, active: true });
      // Another department's agent does not see it.
      expect((await t.api(`/api/rooms/${rows[0]!.room_id}`, { token: t.tokens.suporte })).status).toBe(404);
    }
  });

  it.each(fixtureFiles('zapi'))('Z-API: %s is authenticated by the URL secret and stored once', async (file) => {
    const raw = fixture('zapi', file);
    const channelId = `z-${file.replace(/\.json$/, '').replace(/_/g, '-')}`;
    await t.addChannel(channelId, 'zApi', { baseUrl: t.zapi.baseUrl, ...ZAPI }, 'suporte');
    const res = await t.post(zapiPath(channelId), raw);
    expect(res.status, res.text).toBe(200);
    const rows = await messageRows(t, channelId);
    const expected = ZAPI_EXPECTED[file];
    if (expected === null) return expect(rows).toEqual([]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.type).toBe(expected);
    const message = parseJson<Message>(rows[0]!.data, {} as Message);
    if (expected === 'image') {
      // The fixture's media URL is on loopback and NOT a trusted provider host: the SSRF rules refuse it.
      expect(message.error).toMatchObject({ type: 'image', url: 'http://127.0.0.1:9090/media/foto-nota.jpg' });
    }
    const room = await t.api(`/api/rooms/${rows[0]!.room_id}`, { token: t.tokens.suporte });
    expect(room.body.data).toMatchObject({ departmentId: 'suporte', chatId: '5511987654321', inAttend: false });
  });

  it('Z-API: a reaction changes its target message', async () => {
    await t.addChannel('z-reacao', 'zApi', { baseUrl: t.zapi.baseUrl, ...ZAPI }, 'suporte');
    const text = JSON.parse(fixture('zapi', 'received_text.json').toString('utf8'));
    // The fixture reacts to 3EB0FFEEDDCCBBAA9988: store a message with that id first.
    expect((await t.post(zapiPath('z-reacao'), Buffer.from(JSON.stringify({ ...text, messageId: '3EB0FFEEDDCCBBAA9988' })))).status).toBe(200);
    expect((await t.post(zapiPath('z-reacao'), fixture('zapi', 'received_reaction.json'))).status).toBe(200);
    const [row] = await messageRows(t, 'z-reacao', '3EB0FFEEDDCCBBAA9988');
    const reaction = JSON.parse(fixture('zapi', 'received_reaction.json').toString('utf8')).reaction.value;
    expect(parseJson<Message>(row!.data, {} as Message).reactions.map((r) => r.emoji)).toEqual([reaction]);
  });

  it("Z-API: a group's messages make one group chat, authored by each member; a group notice and a channel post are not messages", async () => {
    await t.addChannel('z-grupo', 'zApi', { baseUrl: t.zapi.baseUrl, ...ZAPI }, 'suporte');
    const text = JSON.parse(fixture('zapi', 'received_text.json').toString('utf8'));
    const group = { isGroup: true, phone: '120363019502650977-group', chatName: 'Compras Loja Centro' };
    const say = (messageId: string, participantPhone: string, senderName: string, body: string, extra: Record<string, unknown> = {}) =>
      t.post(zapiPath('z-grupo'), Buffer.from(JSON.stringify({ ...text, ...group, messageId, participantPhone, senderName, text: { message: body }, ...extra })));
    expect((await say('GRP-1', '5511911110001', 'Ana', 'Bom dia, pedido 55?')).status).toBe(200);
    expect((await say('GRP-2', '5511911110002', 'Bruno', 'Chegou ontem.')).status).toBe(200);
    expect((await say('GRP-3', '5511911110001', 'Ana', 'Obrigada!', { chatName: 'Compras Loja Centro (SP)' })).status).toBe(200);
    // Not a customer writing: a member added to the group, a channel's post.
    expect((await say('GRP-N', '5511911110003', 'Carla', '', { notification: 'GROUP_PARTICIPANT_ADD', text: undefined })).status).toBe(200);
    expect((await t.post(zapiPath('z-grupo'), Buffer.from(JSON.stringify({ ...text, messageId: 'NEWS-1', phone: '120363000000000001@newsletter', isNewsletter: true })))).status).toBe(200);

    const rows = await messageRows(t, 'z-grupo');
    expect(rows.map((r) => r.external_id).sort()).toEqual(['GRP-1', 'GRP-2', 'GRP-3']);
    expect(new Set(rows.map((r) => r.room_id)).size).toBe(1);
    const room = await t.api(`/api/rooms/${rows[0]!.room_id}`, { token: t.tokens.suporte });
    expect(room.body.data).toMatchObject({
      chatId: group.phone,
      group: true,
      groupData: { subject: 'Compras Loja Centro (SP)', participants: [{ phone: '5511911110001', displayName: 'Ana' }, { phone: '5511911110002', displayName: 'Bruno' }] },
    });
    const authors = [...rows].sort((a, b) => String(a.external_id).localeCompare(String(b.external_id))).map((r) => parseJson<Message>(r.data, {} as Message).author).map((a) => [a.displayName, a.phone, a.type]);
    expect(authors).toEqual([['Ana', '5511911110001', 'client'], ['Bruno', '5511911110002', 'client'], ['Ana', '5511911110001', 'client']]);
    // No private chat was opened for a member.
    const members = await t.server.db('rooms').where({ tenant_id: 'acme', channel_id: 'z-grupo' }).whereIn('chat_id', ['5511911110001', '5511911110002', '5511911110003']);
    expect(members).toEqual([]);
  });
});

describe('webhook authentication', () => {
  const raw = () => fixture('whatsapp', 'inbound_text.json');

  it('Meta: answers the GET handshake only with the verify token', async () => {
    const ok = await t.api(`/api/webhooks/whatsapp/wa-meta?hub.mode=subscribe&hub.verify_token=${META.verifyToken}&hub.challenge=1158201444`);
    expect(ok.status).toBe(200);
    expect(ok.text).toBe('1158201444');
    const bad = await t.api('/api/webhooks/whatsapp/wa-meta?hub.mode=subscribe&hub.verify_token=errado&hub.challenge=1');
    expect(bad.status).toBe(403);
    expect(bad.body.errorMessage).toBeTruthy();
  });

  it('Meta: 401 without X-Hub-Signature-256, 403 on mismatch or a re-serialised body; nothing stored', async () => {
    await t.addChannel('sig-meta', 'meta', { baseUrl: t.graph.baseUrl, apiVersion: 'v21.0', ...META });
    const path = '/api/webhooks/whatsapp/sig-meta';
    const missing = await t.post(path, raw());
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ error: 'missing_signature', errorMessage: expect.any(String) });
    expect((await t.post(path, raw(), { 'x-hub-signature-256': hubSignature('outro-segredo', raw()) })).status).toBe(403);
    // Same JSON, other bytes: the signature of the original does not cover it.
    const reserialised = Buffer.from(JSON.stringify(JSON.parse(raw().toString('utf8'))));
    expect(reserialised.equals(raw())).toBe(false);
    expect((await t.post(path, reserialised, { 'x-hub-signature-256': hubSignature(META.appSecret, raw()) })).status).toBe(403);
    expect(await messageRows(t, 'sig-meta')).toEqual([]);
    // The exact bytes with their signature pass.
    expect((await t.post(path, raw(), { 'x-hub-signature-256': hubSignature(META.appSecret, raw()) })).status).toBe(200);
    expect(await messageRows(t, 'sig-meta')).toHaveLength(1);
  });

  it('360dialog: the configured secret header; Z-API: the secret in the URL', async () => {
    await t.addChannel('sig-360', 'dialog360', { baseUrl: t.graph.baseUrl, ...D360 });
    await t.addChannel('sig-zapi', 'zApi', { baseUrl: t.zapi.baseUrl, ...ZAPI });
    expect((await t.post('/api/webhooks/whatsapp/sig-360', raw())).status).toBe(401);
    expect((await t.post('/api/webhooks/whatsapp/sig-360', raw(), { [D360.webhookSecretHeader]: 'chute' })).status).toBe(403);
    const zText = fixture('zapi', 'received_text.json');
    expect((await t.post('/api/webhooks/whatsapp/sig-zapi', zText)).status).toBe(401);
    expect((await t.post(zapiPath('sig-zapi', 'chute'), zText)).status).toBe(403);
    expect(await messageRows(t, 'sig-360')).toEqual([]);
    expect(await messageRows(t, 'sig-zapi')).toEqual([]);
  });

  it('unknown channels and channels of another tenant are 404', async () => {
    expect((await t.postMeta('nao-existe', raw())).status).toBe(404);
    const other = await t.post('/api/webhooks/whatsapp/wa-meta', raw(), { host: t.hosts.outra, 'x-hub-signature-256': hubSignature(META.appSecret, raw()) });
    expect(other.status).toBe(404);
  });

  it('never returns provider settings to the browser', async () => {
    const lookup = await t.api('/api/lookup/channels?ids=wa-meta,wa-360,wa-zapi', { token: t.tokens.admin });
    expect(lookup.status, lookup.text).toBe(200);
    expect(lookup.body.data.map((c: { id: string }) => c.id).sort()).toEqual(['wa-360', 'wa-meta', 'wa-zapi']);
    const res = await t.postMeta('wa-meta', raw());
    expect(res.status).toBe(200);
    const [row] = await messageRows(t, 'wa-meta', 'wamid.xyzxyz');
    const room = await t.api(`/api/rooms/${row!.room_id}`, { token: t.tokens.admin });
    const rooms = await t.api('/api/rooms?tab=queuesChats', { token: t.tokens.admin });
    for (const text of [lookup.text, room.text, rooms.text]) {
      for (const secret of [META.appSecret, META.accessToken, META.verifyToken, D360.apiKey, D360.webhookSecret, ZAPI.clientToken, ZAPI.webhookSecret, ZAPI.instanceToken]) {
        expect(text).not.toContain(secret);
      }
    }
  });
});

describe('exactly once', () => {
  it('1,000 concurrent deliveries of one message: all 200, one row, one change event', async () => {
    await t.addChannel('dup-meta', 'meta', { baseUrl: t.graph.baseUrl, apiVersion: 'v21.0', ...META });
    const raw = fixture('whatsapp', 'inbound_text.json');
    const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
    try {
      const answers = await Promise.all(Array.from({ length: 1000 }, () => t.postMeta('dup-meta', raw, agent)));
      const statuses = new Map<number, number>();
      for (const a of answers) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
      expect(Object.fromEntries(statuses)).toEqual({ 200: 1000 });
      expect(answers.filter((a) => a.body.data.created === 1)).toHaveLength(1);
    } finally {
      agent.destroy();
    }
    const rows = await messageRows(t, 'dup-meta');
    expect(rows).toHaveLength(1);
    expect(await changeEvents(t, 'messages', rows[0]!.id)).toBe(1);
    expect(await changeEvents(t, 'rooms', rows[0]!.room_id)).toBe(1);
    const rooms = await t.server.db('rooms').where({ tenant_id: 'acme', channel_id: 'dup-meta' });
    expect(rooms).toHaveLength(1);
  });

  it('the scripted customer: every fixture, twice more, statuses reordered: all 200, one row per message id', async () => {
    await t.addChannel('replay-meta', 'meta', { baseUrl: t.graph.baseUrl, apiVersion: 'v21.0', ...META });
    await t.addChannel('replay-zapi', 'zApi', { baseUrl: t.zapi.baseUrl, ...ZAPI });
    const port = new URL(t.baseUrl).port;
    const meta = await replayFixtures({ webhookUrl: `http://127.0.0.1:${port}/api/webhooks/whatsapp/replay-meta`, kind: 'meta', appSecret: META.appSecret, dir: fixturesDir('whatsapp'), duplicates: 2 });
    const zapi = await replayFixtures({ webhookUrl: `http://127.0.0.1:${port}/api/webhooks/whatsapp/replay-zapi/${ZAPI.webhookSecret}`, kind: 'zApi', dir: fixturesDir('zapi'), duplicates: 2 });
    expect(meta.filter((r) => r.status !== 200)).toEqual([]);
    expect(zapi.filter((r) => r.status !== 200)).toEqual([]);
    expect(meta.filter((r) => r.round === 'reordered').map((r) => r.file)).toEqual(['status_sent.json', 'status_read.json', 'status_failed.json', 'status_delivered.json']);
    const adapter = createChannelAdapter('meta', { fetch, logger: { info() {}, warn() {}, error() {} }, config: { baseUrl: 'http://x' } });
    const ids = new Set(fixtureFiles('whatsapp').flatMap((f) => adapter.parseWebhook(JSON.parse(fixture('whatsapp', f).toString('utf8'))).messages.filter((m) => !m.content.reaction && !m.content.revoke).map((m) => m.externalId)));
    const rows = await messageRows(t, 'replay-meta');
    expect(rows.map((r) => r.external_id).sort()).toEqual([...ids].sort());
    expect((await messageRows(t, 'replay-zapi')).map((r) => r.external_id).sort()).toEqual(['3EB0A1B2C3D4E5F60718', '3EB0A1B2C3D4E5F60719']);
  });

  it('a database failure before commit answers non-2xx; the replay then stores exactly one row', async () => {
    await t.addChannel('fail-meta', 'meta', { baseUrl: t.graph.baseUrl, apiVersion: 'v21.0', ...META });
    const raw = fixture('whatsapp', 'inbound_text_reply_context.json');
    const db = t.server.db;
    const pg = db.client.config.client === 'pg';
    // A real failure inside the ingest transaction: the messages insert raises.
    if (pg) {
      await db.raw(`create or replace function wa_injected_failure() returns trigger as $$ begin raise exception 'injected failure'; end $$ language plpgsql`);
      await db.raw('create trigger wa_injected_failure before insert on messages for each row execute function wa_injected_failure()');
    } else {
      await db.raw(`create trigger wa_injected_failure before insert on messages begin select raise(abort, 'injected failure'); end`);
    }
    try {
      const failed = await t.postMeta('fail-meta', raw);
      expect(failed.status).toBeGreaterThanOrEqual(500);
      expect(failed.body).toMatchObject({ error: 'ingest_failed', errorMessage: expect.any(String) });
      expect(failed.text).not.toContain('injected failure');
      // Nothing of the delivery was kept: no contact, no room, no message.
      expect(await messageRows(t, 'fail-meta')).toEqual([]);
      expect(await db('rooms').where({ tenant_id: 'acme', channel_id: 'fail-meta' })).toEqual([]);
    } finally {
      await db.raw(pg ? 'drop trigger wa_injected_failure on messages' : 'drop trigger wa_injected_failure');
    }
    const replay = await t.postMeta('fail-meta', raw);
    expect(replay.status, replay.text).toBe(200);
    expect(await messageRows(t, 'fail-meta')).toHaveLength(1);
    expect((await t.postMeta('fail-meta', raw)).status).toBe(200);
    expect(await messageRows(t, 'fail-meta')).toHaveLength(1);
  });
});

describe('live', () => {
  it('an inbound message reaches the queue of the channel department', async () => {
    const id = await t.graph.customerSays({ phone: '5511900001111', name: 'Cliente Fila' }, { type: 'text', text: { body: 'Quero comprar' } });
    const [row] = await messageRows(t, 'wa-meta', id);
    expect(row).toBeTruthy();
    const queue = await t.api('/api/rooms?tab=queuesChats&limit=100', { token: t.tokens.agente });
    expect(queue.status, queue.text).toBe(200);
    const room = (queue.body.data as Room[]).find((r) => r.id === row!.room_id);
    expect(room).toMatchObject({ chatId: '5511900001111', author: { displayName: 'Cliente Fila' }, lastMessage: { text: 'Quero comprar' } });
  });
});
