import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturesDir } from '../fixtures';
import { CLOUD_API_ERRORS_PT_BR, cloudApiErrorTitle, createChannelAdapter, hubSignature, ProviderError, type AdapterContext, type ChannelAdapter } from './index';

const load = (dir: 'whatsapp' | 'zapi', file: string) => readFileSync(path.join(fixturesDir(dir), file));
const json = (dir: 'whatsapp' | 'zapi', file: string) => JSON.parse(load(dir, file).toString('utf8'));
const logger = { info() {}, warn() {}, error() {} };
const ctx = (config: AdapterContext['config']): AdapterContext => ({ fetch, logger, config });

/** A loopback server that records requests and answers like the provider. */
let server: http.Server;
let baseUrl = '';
const seen: { method: string; url: string; headers: http.IncomingHttpHeaders; body: any }[] = [];
let nextAnswer: { status: number; body: unknown } | null = null;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: raw ? JSON.parse(raw) : null });
      const answer = nextAnswer ?? { status: 200, body: { messaging_product: 'whatsapp', messages: [{ id: `wamid.sent${seen.length}` }], messageId: `zapi-${seen.length}` } };
      nextAnswer = null;
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('Cloud API fixtures (meta and dialog360 share the envelope)', () => {
  const files = readdirSync(fixturesDir('whatsapp')).filter((f) => f.endsWith('.json'));
  const meta = createChannelAdapter('meta', ctx({ baseUrl: 'http://x', appSecret: 's' }));
  const d360 = createChannelAdapter('dialog360', ctx({ baseUrl: 'http://x', webhookSecret: 's' }));

  /** Fixtures whose content is WhatsApp telling us it could not deliver what the customer sent. */
  const UNSUPPORTED = new Set(['inbound_unsupported.json', 'inbound_unsupported_with_type.json', 'inbound_interactive_with_error.json']);

  it.each(files)('%s parses into messages, statuses, template events or echoes, keeping the raw message', (file) => {
    const parsed = meta.parseWebhook(json('whatsapp', file));
    expect(parsed.messages.length + parsed.statuses.length + parsed.templateEvents.length + (parsed.echoes?.length ?? 0)).toBeGreaterThan(0);
    expect(d360.parseWebhook(json('whatsapp', file))).toEqual(parsed);
    const raw = json('whatsapp', file).entry[0].changes[0].value;
    for (const [i, m] of parsed.messages.entries()) {
      expect(m.externalId).toBe(raw.messages[i].id);
      expect(m.content.raw).toEqual(raw.messages[i]);
      expect(m.content.type === 'unsupported').toBe(UNSUPPORTED.has(file));
      expect(m.contact.phone ?? m.contact.userId).toBeTruthy();
    }
  });

  it('new kinds: order, system notices, errors, flow replies, edits, revokes, echoes and failed statuses', () => {
    const one = (file: string) => meta.parseWebhook(json('whatsapp', file)).messages[0]!;
    expect(one('inbound_order.json').content).toMatchObject({
      type: 'order',
      order: { catalog_id: '354160437058781', product_items: [{ product_retailer_id: 'HAMBURGER', quantity: 3, item_price: 30, currency: 'ILS' }, { product_retailer_id: 'FRENCH_FRIES' }, { product_retailer_id: 'SODA' }] },
    });
    expect(one('inbound_system_user_changed_number.json')).toMatchObject({ contact: { phone: '972987654321', displayName: null }, content: { type: 'system', system: { type: 'user_changed_number', newPhone: '972912345678' } } });
    expect(one('inbound_system_user_changed_user_id.json')).toMatchObject({ contact: { phone: null, userId: 'CO.1234567890' }, content: { system: { type: 'user_changed_user_id', newUserId: 'MX.0987654321', previousUserId: 'CO.1234567890' } } });
    expect(one('inbound_system_identity_changed.json').content.system?.type).toBe('customer_identity_changed');
    expect(one('inbound_unsupported_with_type.json').content).toMatchObject({
      type: 'unsupported', unsupported: { providerType: 'pool' },
      errors: [{ code: 131051, title: 'Message type unknown', details: 'Message type is currently not supported.', titleptBR: 'Tipo de mensagem não suportado' }],
    });
    expect(one('inbound_unsupported.json').content.unsupported?.providerType).toBe('unsupported');
    expect(one('inbound_interactive_with_error.json').content).toMatchObject({ type: 'unsupported', unsupported: { providerType: 'interactive' }, errors: [{ code: 131000, titleptBR: 'Falha inesperada no WhatsApp' }] });
    expect(one('inbound_interactive_nfm_reply_flow.json').content).toMatchObject({ type: 'interactive', text: 'Sent', interactive: { type: 'nfm_reply', nfm_reply: { name: 'flow', body: 'Sent', response_json: expect.stringContaining('"comment_text":"Comment Text"') } } });
    expect(one('inbound_edit_text.json').content).toMatchObject({ type: 'edit', edit: { targetExternalId: 'wamid.zzzzzz', content: { type: 'text', text: 'Text was edited' } } });
    // pywa's revoke sample names the customer only through `contacts` (its `from` is a placeholder).
    expect(one('inbound_revoke.json')).toMatchObject({ contact: { phone: '972987654321' }, content: { type: 'revoke', revoke: { targetExternalId: '<ORIGINAL_WHATSAPP_MESSAGE_ID>' } } });
    expect(one('inbound_location_current.json').content.location).toEqual({ latitude: 12.25089, longitude: 43.90539, name: undefined, address: undefined, url: undefined });
    expect(one('inbound_reaction_no_emoji.json').content.reaction).toEqual({ targetExternalId: 'wamid.yzxyzx=', emoji: '' });
    const echo = meta.parseWebhook(json('whatsapp', 'message_echo_text.json'));
    expect(echo.messages).toEqual([]);
    expect(echo.echoes?.[0]).toMatchObject({ contact: { phone: '972987654321', userId: '<BSUID>' }, content: { type: 'text', text: 'Test message' } });
    expect(meta.parseWebhook(json('whatsapp', 'status_failed.json')).statuses[0]).toMatchObject({
      status: 'failed', errors: [{ code: 130472, title: "User's number is part of an experiment", titleptBR: 'Número do cliente faz parte de um experimento da Meta: mensagem não entregue' }],
    });
  });

  it('every error code gets a pt-BR title: the catalogue, the 2xx permission range, else one naming the code', () => {
    expect(cloudApiErrorTitle(131047)).toBe('Janela de 24 horas expirada: envie um template');
    expect(cloudApiErrorTitle('131026')).toBe('Mensagem não entregue: número sem WhatsApp ou versão desatualizada');
    expect(cloudApiErrorTitle(250)).toBe('Permissão da API não concedida ou revogada');
    expect(cloudApiErrorTitle(999999)).toBe('Erro do WhatsApp (código 999999)');
    for (const title of Object.values(CLOUD_API_ERRORS_PT_BR)) expect(title).not.toMatch(/\b(the|message|error|failed)\b/i);
  });

  it('maps each message type into our shape', () => {
    const one = (file: string) => meta.parseWebhook(json('whatsapp', file)).messages[0]!;
    expect(one('inbound_text.json')).toMatchObject({
      externalId: 'wamid.xyzxyz', timestamp: '2023-10-11T16:53:43.000Z',
      contact: { phone: '972987654321', userId: 'US.13491208655302741918', displayName: 'Test Name' },
      content: { type: 'text', text: 'Body Text' },
    });
    expect(one('inbound_text_reply_context.json').replyToExternalId).toBeTruthy();
    expect(one('inbound_text_referral_ctwa_ad.json').content.referral?.source_id).toBeTruthy();
    expect(one('inbound_image_with_url.json').content).toMatchObject({ type: 'image', media: { mediaId: '65463453', mimeType: 'image/jpeg', sha256: '4654+8g=' } });
    expect(one('inbound_video_forwarded.json')).toMatchObject({ forwarded: true, content: { type: 'video' } });
    expect(one('inbound_document.json').content.media?.fileName).toBeTruthy();
    expect(one('inbound_audio_voice.json').content.media?.mimeType).toContain('audio/ogg');
    expect(one('inbound_sticker_animated.json').content.type).toBe('sticker');
    expect(one('inbound_location.json').content.location).toMatchObject({ latitude: expect.any(Number), longitude: expect.any(Number) });
    expect(one('inbound_contacts.json').content.contacts?.map((c) => c.name.formatted_name)).toEqual(['Chandler Bing', 'Monica', 'Rachel Green']);
    expect(one('inbound_reaction.json').content.reaction?.emoji).toBeTruthy();
    expect(one('inbound_reaction_removed.json').content.reaction?.emoji).toBe('');
    expect(one('inbound_interactive_button_reply.json').content.interactive?.button_reply?.id).toBeTruthy();
    expect(one('inbound_interactive_list_reply.json').content.interactive?.list_reply?.description).toBeTruthy();
    expect(one('inbound_template_quick_reply_button_bsuid.json')).toMatchObject({ contact: { userId: 'US.13491208655302741918' }, content: { type: 'interactive', button: { payload: 'callback_data', text: 'title' } } });
    expect(meta.parseWebhook(json('whatsapp', 'status_read.json')).statuses).toEqual([{ externalId: 'wamid.xyzxyz', status: 'read', timestamp: '2023-07-15T00:20:58.000Z', recipient: '972987654321' }]);
    expect(meta.parseWebhook(json('whatsapp', 'template_status_update_rejected.json')).templateEvents[0]).toMatchObject({ name: 'abandoned_cart', event: 'REJECTED', reason: 'INVALID_FORMAT' });
  });

  it('turns unknown types into a visible placeholder and ignores garbage', () => {
    const body = json('whatsapp', 'inbound_text.json');
    body.entry[0].changes[0].value.messages[0] = { from: '1', id: 'wamid.new', timestamp: '1', type: 'poll_v9', poll_v9: {} };
    expect(meta.parseWebhook(body).messages[0]!.content).toEqual({ type: 'unsupported', unsupported: { providerType: 'poll_v9' }, raw: body.entry[0].changes[0].value.messages[0] });
    for (const garbage of [null, 'x', 42, { entry: 'no' }, { entry: [{ changes: [null] }] }]) {
      expect(meta.parseWebhook(garbage)).toEqual({ messages: [], statuses: [], templateEvents: [] });
    }
    // Holes in the lists: a null contact (it threw "reading 'wa_id'", a 500), null messages and statuses.
    const holes = json('whatsapp', 'inbound_text.json');
    const value = holes.entry[0].changes[0].value;
    value.contacts = [null, ...value.contacts];
    value.messages = [null, ...value.messages];
    value.statuses = [null];
    const parsed = meta.parseWebhook(holes);
    expect(parsed.messages.map((m) => m.externalId)).toEqual([value.messages[1].id]);
    expect(parsed.messages[0]!.contact.displayName).toBe(value.contacts[1].profile.name);
    expect(parsed.statuses).toEqual([]);
  });

  it("keeps an error's details wherever Meta puts them (error_data.details, or beside the title)", () => {
    const body = json('whatsapp', 'inbound_text.json');
    body.entry[0].changes[0].value.messages[0] = {
      from: '5511999990001', id: 'wamid.unk', timestamp: '1', type: 'unknown',
      errors: [{ code: 131051, details: 'Message type is not currently supported', title: 'Unsupported message type' }, { code: 131052, title: 'Media download error', error_data: { details: 'Unable to download the media' } }],
    };
    expect(meta.parseWebhook(body).messages[0]!.content.errors?.map((e) => e.details)).toEqual(['Message type is not currently supported', 'Unable to download the media']);
  });
});

describe('Meta webhook verification (X-Hub-Signature-256 on the exact raw bytes)', () => {
  const meta = createChannelAdapter('meta', ctx({ baseUrl: 'http://x', appSecret: 'segredo-do-app', verifyToken: 'token-verificacao' }));
  const raw = load('whatsapp', 'inbound_text.json');
  const req = (headers: Record<string, string>, body = raw) => ({ method: 'POST', headers, query: {}, rawBody: body });

  it('accepts the right signature, 401 without one, 403 on mismatch', () => {
    expect(meta.verifyWebhook(req({ 'x-hub-signature-256': hubSignature('segredo-do-app', raw) }))).toEqual({ kind: 'accepted' });
    expect(meta.verifyWebhook(req({}))).toMatchObject({ kind: 'rejected', status: 401 });
    expect(meta.verifyWebhook(req({ 'x-hub-signature-256': hubSignature('outro-segredo', raw) }))).toMatchObject({ kind: 'rejected', status: 403 });
  });

  it('refuses a body re-serialised after signing (same JSON, other bytes)', () => {
    const signature = hubSignature('segredo-do-app', raw);
    const reserialised = Buffer.from(JSON.stringify(JSON.parse(raw.toString('utf8'))));
    expect(reserialised.equals(raw)).toBe(false);
    expect(meta.verifyWebhook(req({ 'x-hub-signature-256': signature }, reserialised))).toMatchObject({ kind: 'rejected', status: 403 });
  });

  it('answers the GET handshake only with the right verify token', () => {
    const get = (token: string) => meta.verifyWebhook({ method: 'GET', headers: {}, rawBody: Buffer.alloc(0), query: { 'hub.mode': 'subscribe', 'hub.verify_token': token, 'hub.challenge': '1158201444' } });
    expect(get('token-verificacao')).toEqual({ kind: 'challenge', challenge: '1158201444' });
    expect(get('errado')).toMatchObject({ kind: 'rejected', status: 403 });
  });
});

describe('Z-API', () => {
  const zapi = () => createChannelAdapter('zApi', ctx({ baseUrl, instanceId: 'INST', instanceToken: 'TOK', clientToken: 'CLIENT', webhookSecret: 'segredo-url' }));

  it('parses every fixture', () => {
    const text = zapi().parseWebhook(json('zapi', 'received_text.json'));
    expect(text.messages[0]).toMatchObject({
      externalId: '3EB0A1B2C3D4E5F60718', contact: { phone: '5511987654321', userId: '27319054887122@lid', displayName: 'Maria Souza' },
      content: { type: 'text', text: 'Olá, gostaria de saber o status do meu pedido 4821.' }, timestamp: new Date(1763812800000).toISOString(),
    });
    expect(zapi().parseWebhook(json('zapi', 'received_image.json')).messages[0]!.content).toMatchObject({ type: 'image', caption: 'Segue a foto da nota', media: { url: 'http://127.0.0.1:9090/media/foto-nota.jpg' } });
    expect(zapi().parseWebhook(json('zapi', 'received_reaction.json')).messages[0]!.content.type).toBe('reaction');
    expect(zapi().parseWebhook(json('zapi', 'message_status_read.json')).statuses).toEqual([
      { externalId: '3EB0FFEEDDCCBBAA9988', status: 'read', timestamp: new Date(1763812980000).toISOString(), recipient: '5511987654321' },
    ]);
  });

  it("a hidden number ('…@lid' in phone) is the customer's id, not a number; group notices and channel posts are not messages", () => {
    const text = json('zapi', 'received_text.json');
    const hidden = zapi().parseWebhook({ ...text, phone: '27319054887122@lid', senderLid: null }).messages[0]!;
    expect(hidden.contact).toMatchObject({ phone: null, userId: '27319054887122@lid' });
    const group = zapi().parseWebhook({ ...text, isGroup: true, phone: '120363019502650977-group', chatName: 'Compras', participantPhone: '5511911110001', participantLid: null }).messages[0]!;
    expect(group).toMatchObject({ group: { id: '120363019502650977-group', subject: 'Compras' }, contact: { phone: '5511911110001', userId: null } });
    expect(zapi().parseWebhook({ ...text, isGroup: true, phone: '120363019502650977-group', notification: 'GROUP_PARTICIPANT_ADD', text: undefined }).messages).toEqual([]);
    expect(zapi().parseWebhook({ ...text, phone: '120363000000000001@newsletter', isNewsletter: true }).messages).toEqual([]);
  });

  it('authenticates webhooks by the secret in the URL', () => {
    const req = (pathSecret?: string) => ({ method: 'POST', headers: {}, query: {}, rawBody: Buffer.alloc(0), pathSecret });
    expect(zapi().verifyWebhook(req('segredo-url'))).toEqual({ kind: 'accepted' });
    expect(zapi().verifyWebhook(req())).toMatchObject({ status: 401 });
    expect(zapi().verifyWebhook(req('chute'))).toMatchObject({ status: 403 });
  });

  it('sends with the Client-Token header on the instance path', async () => {
    seen.length = 0;
    const result = await zapi().sendText('5511987654321', 'Olá!', { replyToExternalId: 'ABC' });
    expect(result.externalId).toBe('zapi-1');
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/instances/INST/token/TOK/send-text', body: { phone: '5511987654321', message: 'Olá!', messageId: 'ABC' } });
    expect(seen[0]!.headers['client-token']).toBe('CLIENT');
    await zapi().deleteMessage('5511987654321', 'XYZ');
    expect(seen[1]).toMatchObject({ method: 'DELETE', url: '/instances/INST/token/TOK/messages?messageId=XYZ&phone=5511987654321&owner=true' });
  });
});

describe('Cloud API sends', () => {
  let meta: ChannelAdapter;
  beforeAll(() => {
    meta = createChannelAdapter('meta', ctx({ baseUrl, apiVersion: 'v21.0', phoneNumberId: 'PN1', accessToken: 'TOKEN', businessAccountId: 'WABA' }));
  });

  it('sends text, media, template and reaction bodies of the Cloud API', async () => {
    seen.length = 0;
    expect((await meta.sendText('5511', 'Oi', { replyToExternalId: 'wamid.q' })).externalId).toBe('wamid.sent1');
    await meta.sendMedia('5511', { kind: 'document', url: 'https://x/f.pdf', caption: 'Nota', fileName: 'nota.pdf' });
    await meta.sendTemplate('5511', { name: 'boas_vindas', language: 'pt_BR', components: [] });
    await meta.sendReaction('5511', 'wamid.q', '👍');
    expect(seen.map((s) => s.url)).toEqual(Array(4).fill('/v21.0/PN1/messages'));
    expect(seen[0]!.headers.authorization).toBe('Bearer TOKEN');
    expect(seen[0]!.body).toMatchObject({ messaging_product: 'whatsapp', to: '5511', type: 'text', text: { body: 'Oi' }, context: { message_id: 'wamid.q' } });
    expect(seen[1]!.body).toMatchObject({ type: 'document', document: { link: 'https://x/f.pdf', caption: 'Nota', filename: 'nota.pdf' } });
    expect(seen[2]!.body).toMatchObject({ type: 'template', template: { name: 'boas_vindas', language: { code: 'pt_BR' } } });
    expect(seen[3]!.body).toMatchObject({ type: 'reaction', reaction: { message_id: 'wamid.q', emoji: '👍' } });
  });

  it('maps Graph errors: throttling is retryable with a pt-BR title, client errors are not', async () => {
    nextAnswer = { status: 400, body: { error: { message: '(#130429) Rate limit hit', type: 'OAuthException', code: 130429 } } };
    const throttled = await meta.sendText('5511', 'x').catch((e) => e);
    expect(throttled).toBeInstanceOf(ProviderError);
    expect(throttled).toMatchObject({ code: 130429, retryable: true, titlePtBR: 'Limite de envio atingido, tentando novamente' });
    nextAnswer = { status: 400, body: { error: { message: 'Re-engagement message', code: 131047 } } };
    expect(await meta.sendText('5511', 'x').catch((e) => e)).toMatchObject({ code: 131047, retryable: false, titlePtBR: 'Janela de 24 horas expirada: envie um template' });
  });
});
