import type { Context } from 'koa';
import type { WebhookRequest } from '@atendimento/integrations';
import { messages } from '@atendimento/schemas';
import { AppError } from '../../../errors';
import type { Whatsapp } from '../../../services/whatsapp';
import type { WebhookOutcome } from '../../../services/whatsapp/webhook-ingest';
import { access, type ApiRegistry } from '../../access';

/** Webhook bodies larger than this are refused (Meta batches stay far below). */
const MAX_WEBHOOK_BYTES = 2 * 1024 * 1024;

/** Reads the request body as the exact bytes received (the HMAC is over these bytes; app.ts skips the JSON parser under /api/webhooks/). */
async function rawBody(ctx: Context): Promise<Buffer> {
  if (ctx.method === 'GET' || ctx.method === 'HEAD') return Buffer.alloc(0);
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > MAX_WEBHOOK_BYTES) throw new AppError(413, 'payload_too_large', messages.errors.payloadTooLarge);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > MAX_WEBHOOK_BYTES) throw new AppError(413, 'payload_too_large', messages.errors.payloadTooLarge);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function headersOf(ctx: Context): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(ctx.headers)) out[key.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

function queryOf(ctx: Context): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(ctx.query)) out[key] = Array.isArray(value) ? value[0] : value;
  return out;
}

const fail = (status: number, error: string, errorMessage: string) => ({ status, body: { error, errorMessage } });

/** The HTTP answer of each webhook outcome: 2xx only once the delivery is committed. */
function answerOf(outcome: WebhookOutcome): { status: number; body?: unknown; text?: string; retryAfter?: number } {
  const t = messages.whatsapp;
  switch (outcome.kind) {
    case 'channel_not_found':
      return fail(404, 'channel_not_found', t.channelNotFound);
    case 'challenge':
      return { status: 200, text: outcome.challenge };
    case 'rejected':
      return outcome.reason === 'missing' ? fail(401, 'missing_signature', t.missingSignature) : fail(403, 'invalid_signature', t.invalidSignature);
    case 'method_not_allowed':
      return fail(405, 'method_not_allowed', t.invalidBody);
    case 'invalid_body':
      return fail(400, 'bad_request', t.invalidBody);
    case 'stored':
      return { status: 200, body: { data: { messages: outcome.messages, created: outcome.created, statuses: outcome.statuses } } };
    case 'status_before_send':
      return { ...fail(503, 'status_retry', t.statusRetry), retryAfter: 1 };
    case 'ingest_failed':
      return { ...fail(503, 'ingest_failed', t.ingestFailed), retryAfter: 5 };
  }
}

/**
 * Provider channel webhooks (docs/channels.md), one URL per channel; the tenant comes from the
 * Host as everywhere, the adapter from the channel's type:
 * - GET  /api/webhooks/channels/:channelId           verification handshake (Meta: hub.challenge)
 * - POST /api/webhooks/channels/:channelId           signed deliveries (Meta X-Hub-Signature-256, 360dialog secret header)
 * - POST /api/webhooks/channels/:channelId/:secret   secret in the URL (Z-API, 360dialog)
 * `/api/webhooks/whatsapp/...` is the same route under the name the WhatsApp providers are
 * configured with. Answers 200 only after the delivery is committed; 401/403 on
 * authentication, 503 on a failure before commit (the provider retries; the retry is idempotent).
 */
export function registerWebhookRoutes(api: ApiRegistry, whatsapp: Whatsapp): void {
  const handle = async (ctx: Context, pathSecret?: string) => {
    const request: WebhookRequest = { method: ctx.method, headers: headersOf(ctx), query: queryOf(ctx), rawBody: await rawBody(ctx), ...(pathSecret !== undefined && { pathSecret }) };
    const answer = answerOf(await whatsapp.webhooks.handle(ctx.state.tenant.id, String(ctx.params.channelId), request));
    ctx.set('Cache-Control', 'no-store');
    if (answer.retryAfter) ctx.set('Retry-After', String(answer.retryAfter));
    ctx.status = answer.status;
    if (answer.text !== undefined) {
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = answer.text;
    } else ctx.body = answer.body;
  };

  for (const base of ['/api/webhooks/channels', '/api/webhooks/whatsapp']) {
    api.add({ method: 'GET', path: `${base}/:channelId`, access: access.public, handler: (ctx) => handle(ctx) });
    api.add({ method: 'POST', path: `${base}/:channelId`, access: access.public, handler: (ctx) => handle(ctx) });
    api.add({ method: 'POST', path: `${base}/:channelId/:secret`, access: access.public, handler: (ctx) => handle(ctx, String(ctx.params.secret)) });
  }
}
