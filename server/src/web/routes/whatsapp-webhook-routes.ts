import type { Context } from 'koa';
import type { WebhookRequest } from '@atendimento/integrations';
import { messages } from '@atendimento/schemas';
import { AppError, badRequest } from '../../errors';
import type { Chat } from '../../services/chat';
import { access, type ApiRegistry } from '../access';
import { registerWhatsappOutboundRoutes } from './whatsapp-outbound-routes';
import { TEMPLATES_PAGE_MAX } from '@atendimento/schemas/chat/whatsapp';
import type { TemplateQuery } from '../../db/repositories/whatsapp-template-repository';

/** Webhook bodies larger than this are refused (Meta batches stay far below). */
const MAX_WEBHOOK_BYTES = 2 * 1024 * 1024;

/** Paths whose body must reach the handler as the exact raw bytes (app.ts skips the JSON parser). */
export const RAW_BODY_PREFIX = '/api/webhooks/';

/** Reads the request body as the exact bytes received (the HMAC is over these bytes). */
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

const one = (value: unknown): string | undefined => (Array.isArray(value) ? value[0] : typeof value === 'string' ? value : undefined);

/** Query of GET /api/templates: channelId, status, language (comma list), q, limit (1..500, default 100), offset. */
function templateQuery(ctx: Context): TemplateQuery {
  const bad = (param: string) => badRequest('bad_query', messages.validation.invalidValue, [{ field: param, message: messages.validation.invalidValue }]);
  const text = (name: string, max: number) => {
    const value = one(ctx.query[name]);
    if (value !== undefined && (value.length > max || value.includes('\u0000'))) throw bad(name);
    return value || null;
  };
  const int = (name: string, fallback: number, min: number, max: number) => {
    const raw = one(ctx.query[name]);
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) throw bad(name);
    return n;
  };
  const languages = text('language', 200)?.split(',').map((l) => l.trim()).filter(Boolean) ?? null;
  if (languages?.some((l) => !/^[A-Za-z_]{2,15}$/.test(l))) throw bad('language');
  return {
    channelId: text('channelId', 64),
    status: text('status', 40),
    languages,
    q: text('q', 100),
    limit: int('limit', 100, 1, TEMPLATES_PAGE_MAX),
    offset: int('offset', 0, 0, 1_000_000),
  };
}

/**
 * WhatsApp-type channel webhooks (docs/whatsapp.md), one URL per channel; the tenant comes
 * from the Host as everywhere:
 * - GET  /api/webhooks/whatsapp/:channelId           Meta verification (hub.challenge)
 * - POST /api/webhooks/whatsapp/:channelId           Meta (X-Hub-Signature-256), 360dialog (secret header)
 * - POST /api/webhooks/whatsapp/:channelId/:secret   Z-API and 360dialog (secret in the URL)
 * Answers 200 only after the delivery is committed; 401/403 on authentication, 503 on a
 * failure before commit (the provider retries; the retry is idempotent).
 */
export function registerWhatsappWebhookRoutes(api: ApiRegistry, chat: Chat): void {
  registerWhatsappOutboundRoutes(api, chat);
  const handle = async (ctx: Context, pathSecret?: string) => {
    const request: WebhookRequest = { method: ctx.method, headers: headersOf(ctx), query: queryOf(ctx), rawBody: await rawBody(ctx), ...(pathSecret !== undefined && { pathSecret }) };
    const answer = await chat.whatsapp.handleWebhook(ctx.state.tenant.id, String(ctx.params.channelId), request);
    ctx.set('Cache-Control', 'no-store');
    for (const [name, value] of Object.entries(answer.headers ?? {})) ctx.set(name, value);
    ctx.status = answer.status;
    if (answer.text !== undefined) {
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = answer.text;
    } else ctx.body = answer.body;
  };

  api.add({ method: 'GET', path: '/api/webhooks/whatsapp/:channelId', access: access.public, handler: (ctx) => handle(ctx) });
  api.add({ method: 'POST', path: '/api/webhooks/whatsapp/:channelId', access: access.public, handler: (ctx) => handle(ctx) });
  api.add({ method: 'POST', path: '/api/webhooks/whatsapp/:channelId/:secret', access: access.public, handler: (ctx) => handle(ctx, String(ctx.params.secret)) });

  // Templates of the Cloud API channels (seed 001 §7): sync (admin) and list.
  api.add({
    method: 'POST',
    path: '/api/cronjob/proccess/syncTemplates',
    access: access.admin,
    handler: async (ctx) => {
      const result = await chat.whatsapp.syncTemplates(ctx.state.tenant.id);
      ctx.body = { meta: { ok: true, message: messages.chat.templatesSynced, ...result }, data: result };
    },
  });
  api.add({
    method: 'GET',
    path: '/api/templates',
    access: access.user,
    handler: async (ctx) => {
      ctx.body = await chat.whatsapp.templates(ctx.state.tenant.id, templateQuery(ctx));
    },
  });

  // A template into a chat (allowed outside the 24-hour window).
  api.add({
    method: 'POST',
    path: '/api/rooms/:id/message/template',
    access: access.user,
    handler: async (ctx) => {
      const input = ((ctx.request as { body?: unknown }).body ?? {}) as Record<string, any>;
      const t = input.template ?? {};
      const fields: { field: string; message: string }[] = [];
      if (typeof t.name !== 'string' || !/^[a-z0-9_]{1,512}$/.test(t.name)) fields.push({ field: 'template.name', message: messages.validation.requiredField });
      if (typeof t.language !== 'string' || !/^[A-Za-z_]{2,15}$/.test(t.language)) fields.push({ field: 'template.language', message: messages.validation.requiredField });
      if (t.components !== undefined && (!Array.isArray(t.components) || JSON.stringify(t.components).length > 20_000)) fields.push({ field: 'template.components', message: messages.validation.requiredField });
      if (t.text !== undefined && (typeof t.text !== 'string' || t.text.length > 4096)) fields.push({ field: 'template.text', message: messages.validation.requiredField });
      if (input.clientId !== undefined && (typeof input.clientId !== 'string' || input.clientId.length > 100)) fields.push({ field: 'clientId', message: messages.validation.requiredField });
      if (fields.length) throw badRequest('validation_failed', fields[0]!.message, fields);
      const tenant = ctx.state.tenant;
      const viewer = await chat.viewer(tenant, ctx.state.principal!);
      const template = { name: t.name as string, language: t.language as string, ...(t.components && { components: t.components as unknown[] }), ...(t.text && { text: t.text as string }) };
      const result = await chat.messages.sendTemplate(tenant.id, viewer, tenant.appConfig, String(ctx.params.id), template, (input.clientId as string | undefined) ?? (ctx.get('Idempotency-Key') || null));
      ctx.status = result.created ? 201 : 200;
      ctx.body = { meta: { ok: true, created: result.created }, data: result.message };
    },
  });

  // 'recarregar' on the error renderer (seed 001 §7): fetch the media again from the stored reference.
  api.add({
    method: 'PATCH',
    path: '/api/rooms/:id/reloadMessage',
    access: access.user,
    handler: async (ctx) => {
      const input = ((ctx.request as { body?: unknown }).body ?? {}) as { messageId?: unknown };
      if (typeof input.messageId !== 'string' || !input.messageId || input.messageId.length > 100) {
        throw badRequest('validation_failed', messages.validation.requiredField, [{ field: 'messageId', message: messages.validation.requiredField }]);
      }
      const tenant = ctx.state.tenant;
      const viewer = await chat.viewer(tenant, ctx.state.principal!);
      ctx.body = { meta: { ok: true }, data: await chat.whatsapp.reloadMedia(tenant.id, viewer, tenant.appConfig, String(ctx.params.id), input.messageId) };
    },
  });
}
