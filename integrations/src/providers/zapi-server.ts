import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local server shaped like Z-API (https://api.z-api.io) for `npm start` and tests: REST on
 * /instances/{id}/token/{token}/... with a Client-Token header; it validates send bodies,
 * answers `{ zaapId, messageId, id }`, then posts MessageStatusCallback webhooks
 * (SENT → RECEIVED → READ) to the product's webhook URL (which carries the channel's secret:
 * Z-API does not sign webhooks). It serves media, plays a customer (ReceivedCallback) and
 * injects errors on demand. A stand-in for the provider, never for the product.
 */
interface ZApiServerOptions {
  port?: number;
  instanceId: string;
  instanceToken: string;
  clientToken: string;
  /** The product's webhook URL for this channel, secret included. */
  webhookUrl?: string;
  /** Phone of the connected WhatsApp number. */
  connectedPhone?: string;
  statusDelayMs?: number;
  autoStatuses?: boolean;
}

interface Sent {
  id: string;
  path: string;
  phone: string;
  body: Record<string, any>;
}

const SEND_PATHS: Record<string, string[]> = {
  'send-text': ['message'],
  'send-image': ['image'],
  'send-video': ['video'],
  'send-audio': ['audio'],
  'send-sticker': ['sticker'],
  'send-document': ['document'],
  'send-reaction': ['reaction', 'messageId'],
  'send-button-list': ['message'],
  'send-option-list': ['message'],
  'read-message': ['messageId'],
};

const text = (v: unknown, max: number) => typeof v === 'string' && v.trim().length > 0 && v.length <= max;

/** send-button-list: { message, buttonList: { buttons: [{ id?, label }] } } (1..3 buttons here). */
function buttonListError(body: Record<string, any>): string | null {
  const buttons = body.buttonList?.buttons;
  if (!Array.isArray(buttons) || buttons.length < 1 || buttons.length > 3) return 'buttonList.buttons must have 1..3 buttons';
  return buttons.every((b: any) => text(b?.label, 20)) ? null : 'each button needs a label';
}

/** send-option-list: { message, optionList: { title, buttonLabel, options: [{ id?, title, description? }] } }. */
function optionListError(body: Record<string, any>): string | null {
  const list = body.optionList;
  if (!text(list?.title, 60) || !text(list?.buttonLabel, 20)) return 'optionList.title and optionList.buttonLabel are required';
  const options = list.options;
  if (!Array.isArray(options) || options.length < 1 || options.length > 10) return 'optionList.options must have 1..10 options';
  return options.every((o: any) => text(o?.title, 24)) ? null : 'each option needs a title';
}

export async function startZApiServer(options: ZApiServerOptions) {
  const sent: Sent[] = [];
  const deleted: { messageId: string; phone: string }[] = [];
  const media = new Map<string, { bytes: Buffer; mimeType: string }>();
  const failures: { status: number; body: unknown }[] = [];
  const webhookResults: { status: number; body: string }[] = [];
  let webhookUrl = options.webhookUrl ?? null;
  let baseUrl = '';
  const prefix = `/instances/${options.instanceId}/token/${options.instanceToken}/`;

  async function postWebhook(payload: unknown): Promise<{ status: number; body: string }> {
    if (!webhookUrl) return { status: 0, body: 'no webhook url' };
    let result: { status: number; body: string };
    try {
      const res = await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) });
      result = { status: res.status, body: await res.text() };
    } catch (error) {
      result = { status: 0, body: (error as Error).message };
    }
    webhookResults.push(result);
    return result;
  }

  const statusPayload = (id: string, phone: string, status: string) => ({
    status, ids: [id], momment: Date.now(), phone, type: 'MessageStatusCallback', instanceId: options.instanceId,
  });

  async function deliverStatuses(message: Sent): Promise<void> {
    if (options.autoStatuses === false) return;
    for (const status of ['SENT', 'RECEIVED', 'READ']) {
      await new Promise((r) => setTimeout(r, options.statusDelayMs ?? 50));
      await postWebhook(statusPayload(message.id, message.phone, status));
    }
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://local');
      const answer = (status: number, body: unknown, type = 'application/json') => {
        res.writeHead(status, { 'content-type': type });
        res.end(type === 'application/json' ? JSON.stringify(body) : (body as Buffer));
      };
      if (req.method === 'GET' && url.pathname.startsWith('/media/')) {
        const item = media.get(url.pathname.slice('/media/'.length));
        return item ? answer(200, item.bytes, item.mimeType) : answer(404, { error: 'Not found' });
      }
      if (!url.pathname.startsWith(prefix)) return answer(404, { error: 'Instance not found' });
      if (req.headers['client-token'] !== options.clientToken) return answer(401, { error: 'null not allowed', message: 'Client-Token inválido' });
      const action = url.pathname.slice(prefix.length);
      if (req.method === 'GET' && action === 'status') return answer(200, { connected: true, error: null, smartphoneConnected: true });
      if (req.method === 'DELETE' && action === 'messages') {
        const messageId = url.searchParams.get('messageId');
        const phone = url.searchParams.get('phone');
        if (!messageId || !phone) return answer(400, { error: 'messageId and phone required' });
        deleted.push({ messageId, phone });
        return answer(204, null);
      }
      if (req.method !== 'POST') return answer(405, { error: 'Method not allowed' });
      const injected = failures.shift();
      if (injected) return answer(injected.status, injected.body);
      let body: Record<string, any>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return answer(400, { error: 'Invalid JSON' });
      }
      const name = action.startsWith('send-document/') ? 'send-document' : action;
      const required = SEND_PATHS[name];
      if (!required) return answer(404, { error: `Unknown action ${action}` });
      if (typeof body.phone !== 'string' || !/^\d{6,20}(-group)?$/.test(body.phone)) return answer(400, { error: 'phone must be digits' });
      const missing = required.find((field) => typeof body[field] !== 'string' || body[field].length === 0);
      if (missing) return answer(400, { error: `${missing} is required` });
      if (name === 'read-message') return answer(200, { success: true });
      const shape = name === 'send-button-list' ? buttonListError(body) : name === 'send-option-list' ? optionListError(body) : null;
      if (shape) return answer(400, { error: shape });
      const message: Sent = { id: randomBytes(10).toString('hex').toUpperCase(), path: action, phone: body.phone, body };
      sent.push(message);
      answer(200, { zaapId: randomBytes(16).toString('hex').toUpperCase(), messageId: message.id, id: message.id });
      void deliverStatuses(message);
    });
  });

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', () => resolve()));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    baseUrl,
    sent,
    deleted,
    webhookResults,
    setWebhookUrl(url: string) {
      webhookUrl = url;
    },
    /** Makes the next send answer this (e.g. 400 { error } or 500). */
    failNext(status: number, body: unknown = { error: 'Injected error' }) {
      failures.push({ status, body });
    },
    /** Stores a file served at `${baseUrl}/media/{name}`; answers its URL. */
    addMedia(bytes: Buffer, mimeType: string, ext = 'jpg'): string {
      const name = `${randomBytes(8).toString('hex')}.${ext}`;
      media.set(name, { bytes, mimeType });
      return `${baseUrl}/media/${name}`;
    },
    /** Posts a ReceivedCallback as a customer writing (`content` e.g. { text: { message } } or { image: {...} }). */
    async customerSays(from: { phone: string; name: string; lid?: string }, content: Record<string, unknown>, messageId = randomBytes(10).toString('hex').toUpperCase()) {
      const result = await postWebhook({
        isStatusReply: false, senderLid: from.lid ?? null, connectedPhone: options.connectedPhone ?? '551130004000', waitingMessage: false, isEdit: false, isGroup: false,
        instanceId: options.instanceId, messageId, phone: from.phone, fromMe: false, momment: Date.now(), status: 'RECEIVED', chatName: from.name,
        senderPhoto: null, senderName: from.name, participantPhone: null, participantLid: null, photo: null, broadcast: false, type: 'ReceivedCallback', ...content,
      });
      return { messageId, ...result };
    },
    /** Posts any raw body (fixture replay, duplicates, reordered statuses). */
    async replay(raw: Buffer | string) {
      if (!webhookUrl) throw new Error('zApiServer.replay: no webhook URL set');
      const res = await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof raw === 'string' ? raw : new Uint8Array(raw) });
      return { status: res.status, body: await res.text() };
    },
    postStatus: (id: string, phone: string, status: 'SENT' | 'RECEIVED' | 'READ' | 'PLAYED') => postWebhook(statusPayload(id, phone, status)),
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

export type ZApiServer = Awaited<ReturnType<typeof startZApiServer>>;
