import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { hubSignature } from '../channels/signature';

/**
 * A local server shaped like Meta's Graph API for WhatsApp Cloud, for `npm start` and tests.
 * It validates send bodies, answers `{ messages: [{ id }] }`, then posts SIGNED status webhooks
 * (sent → delivered → read) to the product; it serves media by id and template lists with
 * paging, and injects errors on demand (`failNext`). It follows the public API shape; it is a
 * stand-in for the provider, never for the product.
 */

interface MetaGraphServerOptions {
  port?: number;
  /** Where status webhooks go (the product's webhook URL for this channel). */
  webhookUrl?: string;
  appSecret: string;
  accessToken: string;
  phoneNumberId: string;
  displayPhoneNumber?: string;
  businessAccountId?: string;
  /** ms between sent, delivered and read (0 = immediately one after the other). */
  statusDelayMs?: number;
  /** Whether to deliver statuses at all. */
  autoStatuses?: boolean;
  templates?: { name: string; language: string; status: string; category: string; components: unknown[] }[];
  /**
   * Serves a small page at /cliente to play a customer (npm start demo): writes arrive as
   * signed webhooks; the page lists what the business sent to that phone.
   */
  customerPage?: boolean;
  /**
   * Play 360dialog (waba-v2) instead: sends on POST /messages and media with this
   * D360-API-KEY; webhooks carry `webhookHeaders` (360dialog does not sign them).
   */
  dialog360ApiKey?: string;
  webhookHeaders?: Record<string, string>;
  /**
   * Redelivers a webhook the product did not take (network error or non-2xx), as Meta does,
   * up to this many times with back-off from `webhookRetryMs` (default 0: one attempt).
   */
  webhookRetries?: number;
  webhookRetryMs?: number;
  /** Longest wait between two deliveries of one webhook (default 30 s). */
  webhookRetryMaxMs?: number;
  /**
   * Meta's per-number throughput: sends beyond this many per second answer 130429 (HTTP 400,
   * 'Rate limit hit'), as the Cloud API does. Unset: no limit.
   */
  messagesPerSecond?: number;
}

interface Sent {
  id: string;
  to: string;
  body: Record<string, any>;
  /** When the send arrived (ms since epoch): throughput and pacing benchmarks read it. */
  at: number;
}

const SEND_TYPES = new Set(['text', 'image', 'video', 'audio', 'document', 'sticker', 'template', 'interactive', 'reaction', 'location', 'contacts']);

const str = (v: unknown, max: number) => typeof v === 'string' && v.trim().length > 0 && v.length <= max;

/** The Cloud API's rules for interactive buttons and lists (what Meta answers 400 for). */
function validateInteractive(i: Record<string, any>): string | null {
  if (i.type !== 'button' && i.type !== 'list') return `interactive.type ${i.type} not supported here`;
  if (!str(i.body?.text, 1024)) return 'interactive.body.text must have 1..1024 characters';
  if (i.header !== undefined && (i.header?.type !== 'text' || !str(i.header.text, 60))) return 'interactive.header must be text of 1..60 characters';
  if (i.footer !== undefined && !str(i.footer?.text, 60)) return 'interactive.footer.text must have 1..60 characters';
  if (i.type === 'button') {
    const buttons = i.action?.buttons;
    if (!Array.isArray(buttons) || buttons.length < 1 || buttons.length > 3) return 'interactive.action.buttons must have 1..3 buttons';
    if (!buttons.every((b: any) => b?.type === 'reply' && str(b.reply?.id, 256) && str(b.reply?.title, 20))) return 'each button needs type reply, reply.id and reply.title (1..20)';
    if (new Set(buttons.map((b: any) => b.reply.id)).size !== buttons.length) return 'button ids must be unique';
    return null;
  }
  const sections = i.action?.sections;
  if (!str(i.action?.button, 20)) return 'interactive.action.button must have 1..20 characters';
  if (!Array.isArray(sections) || sections.length < 1 || sections.length > 10) return 'interactive.action.sections must have 1..10 sections';
  if (sections.length > 1 && !sections.every((x: any) => str(x?.title, 24))) return 'every section needs a title when there are several';
  const rows = sections.flatMap((x: any) => (Array.isArray(x?.rows) ? x.rows : []));
  if (rows.length < 1 || rows.length > 10) return 'a list has 1..10 rows in total';
  if (!rows.every((r: any) => str(r?.id, 200) && str(r?.title, 24) && (r.description === undefined || (typeof r.description === 'string' && r.description.length <= 72)))) return 'each row needs id and title (1..24), description up to 72';
  if (new Set(rows.map((r: any) => r.id)).size !== rows.length) return 'row ids must be unique';
  return null;
}

const graphError = (code: number, message: string, status = 400) => ({ status, body: { error: { message, type: 'OAuthException', code, fbtrace_id: randomBytes(8).toString('hex') } } });

export async function startMetaGraphServer(options: MetaGraphServerOptions) {
  const sent: Sent[] = [];
  const media = new Map<string, { bytes: Buffer; mimeType: string }>();
  const failures: { status: number; body: unknown }[] = [];
  /** Errors of sends accepted now and failed later by a status webhook (failNextDelivery). */
  const deliveryFailures: unknown[][] = [];
  /** Pending holds: the next send is recorded (id assigned) but answered only on release. */
  const holds: Promise<void>[] = [];
  /** Message ids the business marked read (POST status: read). */
  const reads: string[] = [];
  const webhookResults: { status: number; body: string }[] = [];
  /** Sends refused with 130429 (injected bursts and the rate limit). */
  let throttled = 0;
  let throttleBurst = 0;
  const recentSends: number[] = [];
  let webhookUrl = options.webhookUrl ?? null;
  const templates = options.templates ?? defaultTemplates();
  let baseUrl = '';

  function validate(body: Record<string, any>): string | null {
    if (body?.messaging_product !== 'whatsapp') return 'messaging_product must be "whatsapp"';
    if (body.status === 'read') return typeof body.message_id === 'string' ? null : 'message_id required';
    if (typeof body.to !== 'string' || !/^\+?\d{6,20}$/.test(body.to)) return 'to must be a phone number';
    if (!SEND_TYPES.has(body.type)) return `unsupported type ${body.type}`;
    const payload = body[body.type];
    if (!payload || typeof payload !== 'object') return `${body.type} object required`;
    if (body.type === 'text' && (typeof payload.body !== 'string' || payload.body.length === 0 || payload.body.length > 4096)) return 'text.body must have 1..4096 characters';
    if (['image', 'video', 'audio', 'document', 'sticker'].includes(body.type) && !payload.link && !payload.id) return `${body.type}.link or ${body.type}.id required`;
    if (body.type === 'template' && (!payload.name || !payload.language?.code)) return 'template.name and template.language.code required';
    if (body.type === 'reaction' && !payload.message_id) return 'reaction.message_id required';
    if (body.type === 'interactive') return validateInteractive(payload);
    return null;
  }

  async function postWebhook(payload: unknown): Promise<void> {
    if (!webhookUrl) return;
    const raw = Buffer.from(JSON.stringify(payload));
    const attempts = 1 + (options.webhookRetries ?? 0);
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        const res = await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSignature(options.appSecret, raw), ...options.webhookHeaders }, body: new Uint8Array(raw) });
        webhookResults.push({ status: res.status, body: await res.text() });
        if (res.ok) return;
      } catch (error) {
        webhookResults.push({ status: 0, body: (error as Error).message });
      }
      if (attempt < attempts) await new Promise((r) => setTimeout(r, Math.min(options.webhookRetryMaxMs ?? 30_000, (options.webhookRetryMs ?? 500) * 2 ** (attempt - 1))));
    }
  }

  function envelope(value: Record<string, unknown>) {
    return {
      object: 'whatsapp_business_account',
      entry: [{ id: options.businessAccountId ?? 'WABA', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { display_phone_number: options.displayPhoneNumber ?? '5511999990000', phone_number_id: options.phoneNumberId }, ...value } }] }],
    };
  }

  /** Callback data of each send (`biz_opaque_callback_data`), echoed in its status webhooks as Meta does. */
  const callbackData = new Map<string, string>();

  function statusPayload(id: string, to: string, status: string, errors?: unknown[]) {
    const opaque = callbackData.get(id);
    return envelope({ statuses: [{ id, status, timestamp: String(Math.floor(Date.now() / 1000)), recipient_id: to, ...(opaque && { biz_opaque_callback_data: opaque }), ...(errors && { errors }) }] });
  }

  /**
   * Receipts as the Cloud API sends them: sent → delivered → read, or sent → failed with the
   * error, and nothing after a failure (a failed message is never delivered).
   */
  async function deliverStatuses(message: Sent, failure?: unknown[]): Promise<void> {
    if (options.autoStatuses === false) return;
    const delay = options.statusDelayMs ?? 50;
    for (const status of failure ? ['sent', 'failed'] : ['sent', 'delivered', 'read']) {
      await new Promise((r) => setTimeout(r, delay));
      await postWebhook(statusPayload(message.id, message.to, status, status === 'failed' ? failure : undefined));
    }
  }

  /** What the customer page's customers sent, per phone, so the page shows one timeline. */
  const customerSent: { id: string; phone: string; at: number; kind: string; text: string }[] = [];
  /** Arrival order of each business message; customer messages share the counter, so the page shows one timeline. */
  const sentAt = new Map<string, number>();
  let order = 0;
  /** A customer who changed number: new phone → previous one, so the page keeps the whole conversation. */
  const previousPhone = new Map<string, string>();
  const phonesOf = (phone: string): Set<string> => {
    const all = new Set([phone]);
    for (let p = previousPhone.get(phone); p && !all.has(p); p = previousPhone.get(p)) all.add(p);
    return all;
  };

  /** The demo's customer: a page, a send call and the conversation of a phone in order. */
  function customerPage(method: string, url: URL, body: Buffer, answer: (status: number, body: unknown, type?: string) => void): void {
    if (method === 'GET' && url.pathname === '/cliente') return answer(200, Buffer.from(CUSTOMER_PAGE), 'text/html; charset=utf-8');
    if (method === 'GET' && url.pathname === '/cliente/mensagens') {
      const phones = phonesOf(url.searchParams.get('phone') ?? '');
      const company = sent.filter((m) => phones.has(m.to)).map((m) => ({ id: m.id, from: 'empresa', at: sentAt.get(m.id) ?? 0, type: m.body.type, text: businessText(m.body) }));
      const customer = customerSent.filter((m) => phones.has(m.phone)).map((m) => ({ id: m.id, from: 'cliente', at: m.at, type: m.kind, text: m.text }));
      // One timeline, in the order the messages happened.
      const data = [...customer, ...company].sort((a, b) => a.at - b.at).map(({ at: _order, ...m }) => m);
      return answer(200, { data });
    }
    if (method === 'POST' && url.pathname === '/cliente/enviar') {
      let input: CustomerInput;
      try {
        input = JSON.parse(body.toString('utf8'));
      } catch {
        return answer(400, { error: 'JSON inválido' });
      }
      const phone = String(input.phone ?? '').replace(/\D/g, '');
      if (!/^\d{8,15}$/.test(phone)) return answer(400, { error: 'Informe o telefone (só dígitos)' });
      const last = customerSent.filter((m) => m.phone === phone && m.kind === 'text').at(-1);
      const built = customerMessage(input, phone, last?.id);
      if ('error' in built) return answer(400, { error: built.error });
      const name = String(input.name ?? '').slice(0, 100) || phone;
      const id = `wamid.${randomBytes(12).toString('base64url')}`;
      const at = ++order;
      const payload = envelope({
        ...(built.message.type !== 'system' && { contacts: [{ profile: { name }, wa_id: phone }] }),
        messages: [{ from: phone, id, timestamp: String(Math.floor(Date.now() / 1000)), ...built.message }],
        ...(built.valueErrors && { errors: built.valueErrors }),
      });
      customerSent.push({ id, phone, at, kind: String(input.kind ?? 'text'), text: built.summary });
      if (built.newPhone) previousPhone.set(built.newPhone, phone);
      void postWebhook(payload).then(() => undefined);
      return answer(202, { id, ...(built.newPhone && { phone: built.newPhone }) });
    }
    answer(404, { error: 'not found' });
  }

  const authorized = (req: http.IncomingMessage) =>
    options.dialog360ApiKey ? req.headers['d360-api-key'] === options.dialog360ApiKey : req.headers.authorization === `Bearer ${options.accessToken}`;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://local');
      const answer = (status: number, body: unknown, type = 'application/json') => {
        res.writeHead(status, { 'content-type': type });
        res.end(type === 'application/json' ? JSON.stringify(body) : (body as Buffer));
      };
      if (options.customerPage && url.pathname.startsWith('/cliente')) return customerPage(req.method ?? 'GET', url, Buffer.concat(chunks), answer);
      // The customer page's browser asks for an icon: no Graph token there, and a 401 would be a console error on every load.
      if (options.customerPage && url.pathname === '/favicon.ico') return answer(204, Buffer.alloc(0), 'image/x-icon');
      if (url.pathname.startsWith('/media-files/')) {
        const item = media.get(url.pathname.split('/').pop()!);
        if (!authorized(req)) return answer(401, graphError(190, 'Invalid OAuth access token').body);
        return item ? answer(200, item.bytes, item.mimeType) : answer(404, graphError(100, 'media not found').body);
      }
      if (!authorized(req)) return answer(401, graphError(190, 'Invalid OAuth access token - Cannot parse access token').body);
      const parts = url.pathname.split('/').filter(Boolean); // Graph: [version, node, edge?]
      // 360dialog has no version segment: /messages, /{media-id}.
      const [node, edge] = options.dialog360ApiKey ? (parts[0] === 'messages' ? [options.phoneNumberId, 'messages'] : [parts[0], parts[1]]) : [parts[1], parts[2]];
      if (req.method === 'POST' && node === options.phoneNumberId && edge === 'messages') {
        const injected = failures.shift();
        if (injected) return answer(injected.status, injected.body);
        if (throttleBurst > 0) {
          throttleBurst--;
          throttled++;
          return answer(400, graphError(130429, '(#130429) Rate limit hit').body);
        }
        if (options.messagesPerSecond) {
          const nowMs = Date.now();
          while (recentSends.length && recentSends[0]! <= nowMs - 1000) recentSends.shift();
          if (recentSends.length >= options.messagesPerSecond) {
            throttled++;
            return answer(400, graphError(130429, '(#130429) Rate limit hit').body);
          }
          recentSends.push(nowMs);
        }
        let body: Record<string, any>;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          return answer(400, graphError(100, 'Invalid JSON').body);
        }
        const problem = validate(body);
        if (problem) return answer(400, graphError(100, `(#100) Invalid parameter: ${problem}`).body);
        if (body.status === 'read') {
          reads.push(String(body.message_id));
          return answer(200, { success: true });
        }
        const message: Sent = { id: `wamid.${randomBytes(12).toString('base64url')}`, to: body.to, body, at: Date.now() };
        sent.push(message);
        if (typeof body.biz_opaque_callback_data === 'string') callbackData.set(message.id, body.biz_opaque_callback_data);
        sentAt.set(message.id, ++order);
        const hold = holds.shift();
        const failure = deliveryFailures.shift();
        void (hold ?? Promise.resolve()).then(() => {
          answer(200, { messaging_product: 'whatsapp', contacts: [{ input: body.to, wa_id: body.to.replace(/^\+/, '') }], messages: [{ id: message.id }] });
          void deliverStatuses(message, failure);
        });
        return;
      }
      // The phone number node ('Testar conexão' reads it).
      if (req.method === 'GET' && node === options.phoneNumberId && !edge && !options.dialog360ApiKey) {
        return answer(200, { id: options.phoneNumberId, display_phone_number: options.displayPhoneNumber ?? '', verified_name: 'Empresa de Teste', quality_rating: 'GREEN' });
      }
      if (req.method === 'GET' && node && media.has(node) && !edge) {
        const item = media.get(node)!;
        return answer(200, { messaging_product: 'whatsapp', url: `${baseUrl}/media-files/${node}`, mime_type: item.mimeType, sha256: createHash('sha256').update(item.bytes).digest('hex'), file_size: item.bytes.length, id: node });
      }
      if (options.dialog360ApiKey && req.method === 'GET' && url.pathname === '/v1/configs/templates') {
        // waba-v2 style: offset paging, lower-case statuses.
        const limit = Math.min(Number(url.searchParams.get('limit') ?? 50), 100);
        const offset = Number(url.searchParams.get('offset') ?? 0);
        const page = templates.slice(offset, offset + limit).map((t, i) => ({ id: String(2000 + offset + i), namespace: 'demo_namespace', ...t, status: t.status.toLowerCase() }));
        return answer(200, { count: page.length, filters: {}, limit, offset, sort: ['id'], total: templates.length, waba_templates: page });
      }
      if (req.method === 'GET' && edge === 'message_templates') {
        const limit = Math.min(Number(url.searchParams.get('limit') ?? 25), 100);
        const after = Number(url.searchParams.get('after') ?? 0);
        const page = templates.slice(after, after + limit).map((t, i) => ({ id: String(1000 + after + i), ...t }));
        const nextAfter = after + page.length;
        return answer(200, {
          data: page,
          paging: { cursors: { before: String(after), after: String(nextAfter) }, ...(nextAfter < templates.length && { next: `${baseUrl}${url.pathname}?limit=${limit}&after=${nextAfter}` }) },
        });
      }
      answer(404, graphError(100, `Unknown path components: ${url.pathname}`).body);
    });
  });

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', () => resolve()));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    baseUrl,
    sent,
    reads,
    webhookResults,
    setWebhookUrl(url: string) {
      webhookUrl = url;
    },
    /** Sends refused with 130429 so far (bursts and the rate limit). */
    get throttled() {
      return throttled;
    },
    /** The next `n` sends answer 130429 'Rate limit hit' (a burst of throttling). */
    throttleNext(n: number) {
      throttleBurst += n;
    },
    /** Makes the next send fail with a Graph error (131047 window, 130429 throttling, 132001 template...). */
    failNext(code: number, message = 'Injected error', status = 400) {
      failures.push(graphError(code, message, status));
    },
    /**
     * Accepts the next send (200 with its id) and then fails it asynchronously, as Meta does for
     * 131026 (undeliverable), 131049 (ecosystem), 130472 (experiment): 'sent', then 'failed'
     * with this error, and no later receipt.
     */
    failNextDelivery(code: number, title = 'Message undeliverable', details?: string) {
      deliveryFailures.push([{ code, title, message: title, ...(details && { error_data: { details } }), href: 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/' }]);
    },
    /** Holds the answer to the next send until `release()` (a receipt can then overtake the send answer). */
    holdNextSend(): () => void {
      let release!: () => void;
      holds.push(new Promise<void>((resolve) => (release = resolve)));
      return () => release();
    },
    /** Stores media the product can fetch by id; answers the id. */
    addMedia(bytes: Buffer, mimeType: string): string {
      const id = String(Date.now()) + randomBytes(3).toString('hex');
      media.set(id, { bytes, mimeType });
      return id;
    },
    /** Posts a signed customer message webhook, as Meta would. */
    async customerSays(from: { phone: string; name: string; userId?: string }, message: Record<string, unknown>) {
      const id = (message.id as string) ?? `wamid.${randomBytes(12).toString('base64url')}`;
      await postWebhook(envelope({
        contacts: [{ profile: { name: from.name }, wa_id: from.phone, ...(from.userId && { user_id: from.userId }) }],
        messages: [{ from: from.phone, id, timestamp: String(Math.floor(Date.now() / 1000)), ...message }],
      }));
      return id;
    },
    /** Posts any raw body signed with the app secret (fixture replay, duplicates). */
    async replay(raw: Buffer) {
      if (!webhookUrl) throw new Error('metaGraphServer.replay: no webhook URL set');
      const res = await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSignature(options.appSecret, raw) }, body: new Uint8Array(raw) });
      return { status: res.status, body: await res.text() };
    },
    postStatus: (id: string, to: string, status: string, errors?: unknown[]) => postWebhook(statusPayload(id, to, status, errors)),
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

export type MetaGraphServer = Awaited<ReturnType<typeof startMetaGraphServer>>;

function defaultTemplates() {
  const body = (text: string) => [{ type: 'BODY', text }];
  const list = [
    { name: 'boas_vindas', language: 'pt_BR', status: 'APPROVED', category: 'UTILITY', components: body('Olá {{1}}, tudo bem? Aqui é do atendimento.') },
    { name: 'retomar_contato', language: 'pt_BR', status: 'APPROVED', category: 'MARKETING', components: body('Olá {{1}}! Podemos continuar nosso atendimento?') },
    { name: 'pedido_enviado', language: 'pt_BR', status: 'APPROVED', category: 'UTILITY', components: body('Seu pedido {{1}} foi enviado e chega em {{2}} dias.') },
    { name: 'encerramento', language: 'pt_BR', status: 'APPROVED', category: 'UTILITY', components: body('Atendimento encerrado. Obrigado!') },
    { name: 'promo_rejeitada', language: 'pt_BR', status: 'REJECTED', category: 'MARKETING', components: body('Promoção {{1}}{{2}}') },
    { name: 'welcome_en', language: 'en_US', status: 'APPROVED', category: 'UTILITY', components: body('Hello {{1}}') },
  ];
  for (let i = 1; i <= 30; i++) list.push({ name: `aviso_${i}`, language: 'pt_BR', status: 'APPROVED', category: 'UTILITY', components: body(`Aviso ${i}: {{1}}`) });
  return list;
}

/** What the customer page (or a test) asks the scripted customer to send. */
export interface CustomerInput {
  phone?: unknown;
  name?: unknown;
  /** text (default), order, location, contacts, flow, unsupported, ephemeral, changeNumber, edit, revoke, reaction. */
  kind?: unknown;
  text?: unknown;
  /** changeNumber: the new phone. */
  newPhone?: unknown;
}

/**
 * A Cloud API inbound message body of each kind the webhook reference describes, as the
 * scripted customer sends it (`lastText`: the id an edit, a revoke or a reaction points at).
 */
export function customerMessage(input: CustomerInput, phone: string, lastText?: string): { message: Record<string, unknown>; summary: string; valueErrors?: unknown[]; newPhone?: string } | { error: string } {
  const text = String(input.text ?? '').slice(0, 4096);
  const kind = String(input.kind ?? 'text');
  switch (kind) {
    case 'text':
      if (!text.trim()) return { error: 'Escreva a mensagem' };
      return { message: { type: 'text', text: { body: text } }, summary: text };
    case 'order':
      return {
        message: { type: 'order', order: { catalog_id: '354160437058781', text: text || 'Quero estes itens', product_items: [
          { product_retailer_id: 'BOLO-CENOURA', quantity: 2, item_price: 35, currency: 'BRL' },
          { product_retailer_id: 'CAFE-250G', quantity: 1, item_price: 18.9, currency: 'BRL' },
        ] } },
        summary: 'Pedido: 2 × BOLO-CENOURA, 1 × CAFE-250G',
      };
    case 'location':
      return { message: { type: 'location', location: { latitude: -23.561414, longitude: -46.655881, name: 'MASP', address: 'Av. Paulista, 1578 - Bela Vista, São Paulo - SP' } }, summary: 'Localização: MASP' };
    case 'contacts':
      return {
        message: { type: 'contacts', contacts: [{ name: { formatted_name: 'Joana Prado', first_name: 'Joana', last_name: 'Prado' }, org: { company: 'Padaria Central' }, phones: [
          { phone: '+55 11 98765-4321', type: 'CELL', wa_id: '5511987654321' }, { phone: '+55 11 3333-4444', type: 'WORK' }, { phone: '+1 415 555 2671', type: 'HOME' },
        ], emails: [{ email: 'joana@padaria.com.br', type: 'WORK' }] }] },
        summary: 'Contato: Joana Prado',
      };
    case 'flow':
      return {
        message: { type: 'interactive', interactive: { type: 'nfm_reply', nfm_reply: { name: 'flow', body: 'Sent', response_json: JSON.stringify({ flow_token: 'demo-token', nome_completo: 'Cliente Demo', data_entrega: '2026-12-24', avaliacao: '5', receber_ofertas: true, comentario: text || 'Tudo certo' }) } } },
        summary: 'Formulário enviado',
      };
    case 'unsupported':
      return {
        message: { type: 'unsupported', unsupported: { type: 'pool' }, errors: [{ code: 131051, title: 'Message type unknown', message: 'Message type unknown', error_data: { details: 'Message type is currently not supported.' } }] },
        summary: 'Enquete (não suportada pela API)',
      };
    case 'ephemeral':
      // A disappearing message: the Cloud API delivers it as 'unsupported' with its type.
      return {
        message: { type: 'unsupported', unsupported: { type: 'ephemeral' }, errors: [{ code: 131051, title: 'Message type unknown', message: 'Message type unknown', error_data: { details: 'Message type is currently not supported.' } }] },
        summary: 'Mensagem temporária (não suportada pela API)',
      };
    case 'changeNumber': {
      const newPhone = String(input.newPhone ?? '').replace(/\D/g, '');
      if (!/^\d{8,15}$/.test(newPhone) || newPhone === phone) return { error: 'Informe o novo telefone (só dígitos)' };
      return { message: { type: 'system', system: { body: `User changed from ${phone} to ${newPhone}`, wa_id: newPhone, type: 'user_changed_number' } }, summary: `Trocou de número para ${newPhone}`, newPhone };
    }
    case 'edit':
      if (!lastText) return { error: 'Nenhuma mensagem de texto para editar' };
      if (!text.trim()) return { error: 'Escreva o novo texto' };
      return { message: { type: 'edit', edit: { original_message_id: lastText, message: { type: 'text', text: { body: text } } } }, summary: `Editou: ${text}` };
    case 'revoke':
      if (!lastText) return { error: 'Nenhuma mensagem de texto para apagar' };
      return { message: { type: 'revoke', revoke: { original_message_id: lastText } }, summary: 'Apagou a última mensagem' };
    case 'reaction':
      if (!lastText) return { error: 'Nenhuma mensagem para reagir' };
      return { message: { type: 'reaction', reaction: { message_id: lastText, emoji: text || '👍' } }, summary: `Reagiu com ${text || '👍'}` };
    default:
      return { error: `Tipo desconhecido: ${kind}` };
  }
}

/** What the customer's phone shows of a business message. */
function businessText(body: Record<string, any>): string {
  const part = body[body.type] ?? {};
  if (body.type === 'text') return String(part.body ?? '');
  if (body.type === 'template') return `[template ${part.name ?? ''}]`;
  if (body.type === 'interactive') return String(part.body?.text ?? '');
  if (body.type === 'reaction') return `[reação ${part.emoji ?? ''}]`;
  return String(part.caption ?? part.filename ?? part.link ?? `[${body.type}]`);
}

/** The demo customer page: plain DOM, everything typed is shown with textContent. */
const CUSTOMER_PAGE = `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><title>Cliente WhatsApp (demonstração)</title>
<style>body{font-family:sans-serif;max-width:520px;margin:2rem auto}#log{border:1px solid #ccc;min-height:200px;padding:.5rem;background:#e5ddd5;display:flex;flex-direction:column}
.m{margin:.3rem 0;padding:.4rem .6rem;border-radius:6px;max-width:80%;white-space:pre-wrap}.cliente{background:#dcf8c6;align-self:flex-end}.empresa{background:#fff;align-self:flex-start}
input,button,select{font-size:1rem;margin:.2rem 0}</style></head>
<body><h1>Cliente WhatsApp</h1><p>Simula um cliente escrevendo para o número da empresa de demonstração.</p>
<label>Telefone <input id="phone" value="5511987650000"></label><br><label>Nome <input id="name" value="Cliente Demo"></label>
<div id="log" aria-label="Conversa"></div>
<form id="f"><select id="kind" aria-label="Tipo">
<option value="text">Texto</option><option value="order">Pedido do catálogo</option><option value="location">Localização</option>
<option value="contacts">Contato</option><option value="flow">Resposta de formulário (flow)</option><option value="unsupported">Enquete (não suportada)</option><option value="ephemeral">Mensagem temporária (não suportada)</option>
<option value="edit">Editar a última mensagem</option><option value="revoke">Apagar a última mensagem</option><option value="reaction">Reagir à última mensagem</option>
<option value="changeNumber">Trocar de número</option></select>
<input id="text" placeholder="Mensagem" style="width:60%"><input id="newPhone" placeholder="Novo telefone" hidden><button>Enviar</button><div id="err" role="alert"></div></form>
<script>
const $ = (id) => document.getElementById(id);
function line(m) { const d = document.createElement('div'); d.className = 'm ' + m.from; d.dataset.from = m.from; d.textContent = m.text || '[' + m.type + ']'; $('log').appendChild(d); }
async function refresh() {
  const res = await fetch('/cliente/mensagens?phone=' + encodeURIComponent($('phone').value));
  const { data } = await res.json();
  $('log').textContent = '';
  data.forEach(line);
}
$('kind').addEventListener('change', () => { $('newPhone').hidden = $('kind').value !== 'changeNumber'; });
$('f').addEventListener('submit', async (e) => {
  e.preventDefault();
  const kind = $('kind').value;
  const text = $('text').value.trim();
  if (kind === 'text' && !text) return;
  // Cleared at once: what the customer types while this one is on its way is the next message, not wiped when this one lands.
  $('text').value = '';
  const res = await fetch('/cliente/enviar', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ phone: $('phone').value, name: $('name').value, kind, text, newPhone: $('newPhone').value }) });
  const answer = await res.json();
  $('err').textContent = res.ok ? '' : answer.error;
  if (res.ok && answer.phone) $('phone').value = answer.phone;
  if (!res.ok && !$('text').value) $('text').value = text;
  refresh();
});
setInterval(refresh, 2000); refresh();
</script></body></html>`;
