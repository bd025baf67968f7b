import type { Context } from 'koa';
import { messages } from '@atendimento/schemas';
import { CAMPAIGN_CSV_TEMPLATE } from '@atendimento/schemas/campaigns';
import { badRequest } from '../../../errors';
import type { Campaigns } from '../../../services/campaigns';
import type { MessageFilter } from '../../../db/repositories/campaign-repository';
import { access, userOf, type ApiRegistry, type AppContext } from '../../access';
import { bodyOrEmpty, queryValue } from '../../request';
import { readMultipart } from '../registers/register-multipart';

/** A campaign file: a CSV of up to 100,000 rows. */
const UPLOAD_MAX_BYTES = 20 * 1024 * 1024;
const STATUSES = new Set(['read', 'delivered', 'sent', 'error', 'notSent', 'interacted', 'clicked']);

const t = messages.campaigns;

/** Admin, or a user with the screen's claim `notifications` (seed 000 §2 /notifications, §6). */
const who = access.permission('notifications');

function readUpload(ctx: AppContext) {
  return readMultipart(ctx, {
    maxBytes: UPLOAD_MAX_BYTES,
    sniffBytes: 4096,
    accept: (head, fileName) => {
      if (!/\.csv$/i.test(fileName) || head.includes(0)) throw badRequest('campaign_csv_only', t.fileUnreadable, [{ field: 'file', message: t.fileUnreadable }]);
      return { maxBytes: UPLOAD_MAX_BYTES, tooLarge: t.fileTooLarge };
    },
  });
}

function page(ctx: Context, max: number): { limit: number; offset: number } {
  const limit = Number(queryValue(ctx.query.limit) ?? 20);
  const offset = Number(queryValue(ctx.query.offset) ?? 0);
  const wrong = !Number.isInteger(limit) || limit < 1 || limit > max ? 'limit' : !Number.isInteger(offset) || offset < 0 || offset > 10_000_000 ? 'offset' : null;
  if (wrong) throw badRequest('validation_failed', messages.validation.invalidValue, [{ field: wrong, message: messages.validation.invalidValue }]);
  return { limit, offset };
}

function filterOf(ctx: Context): Omit<MessageFilter, 'limit' | 'offset'> {
  const status = queryValue(ctx.query.status);
  if (status && !STATUSES.has(status)) throw badRequest('validation_failed', messages.validation.invalidValue, [{ field: 'status', message: messages.validation.invalidValue }]);
  const q = queryValue(ctx.query.q)?.trim().slice(0, 100);
  return { ...(status && { status: status as MessageFilter['status'] }), ...(q && { q }) };
}

/**
 * Campaigns (docs/campaigns.md; seed 000 §2 /notifications, §7):
 * - GET   /api/notifications?external=&limit=&offset=     list, newest first
 * - GET   /api/notifications/csvTemplate                  the static CSV template
 * - GET   /api/notifications/options                      channels and approved templates for the upload form
 * - POST  /api/notifications/preview                      multipart: the row-by-row check, nothing stored
 * - POST  /api/notifications                              multipart: create (422 + preview when rows were rejected and not confirmed)
 * - GET   /api/notifications/:id                          campaign + counters
 * - PATCH /api/notifications/:id { paused }                pause / unpause (409 once proccessed)
 * - GET   /api/notifications/counters/:id                 counters
 * - GET   /api/notifications/:id/messages?status=&q=      the message table
 * - GET   /api/notifications/:id/messages.csv             its export
 */
export function registerCampaignRoutes(api: ApiRegistry, campaigns: Campaigns): void {
  const { service } = campaigns;

  api.add({
    method: 'GET', path: '/api/notifications', access: who,
    handler: async (ctx) => {
      const external = queryValue(ctx.query.external) === 'true';
      const { limit, offset } = page(ctx, 100);
      const { data, total } = await service.list(ctx.state.tenant.id, { external, limit, offset });
      ctx.body = { meta: { total, limit, offset }, data };
    },
  });

  api.add({
    method: 'GET', path: '/api/notifications/csvTemplate', access: who,
    handler: (ctx) => {
      ctx.set('Content-Disposition', 'attachment; filename="modelo-campanha.csv"');
      ctx.type = 'text/csv; charset=utf-8';
      ctx.body = CAMPAIGN_CSV_TEMPLATE;
    },
  });

  api.add({
    method: 'GET', path: '/api/notifications/options', access: who,
    handler: async (ctx) => {
      ctx.body = { meta: { ok: true }, data: await service.options(ctx.state.tenant.id) };
    },
  });

  api.add({
    method: 'POST', path: '/api/notifications/preview', access: who,
    handler: async (ctx) => {
      const { fields, file } = await readUpload(ctx);
      ctx.body = { meta: { ok: true }, data: await service.preview(ctx.state.tenant.id, fields, file?.bytes ?? null) };
    },
  });

  api.add({
    method: 'POST', path: '/api/notifications', access: who,
    handler: async (ctx) => {
      const { fields, file } = await readUpload(ctx);
      const result = await service.create(ctx.state.tenant.id, userOf(ctx).user.id, fields, file?.bytes ?? null);
      ctx.status = 201;
      ctx.body = { meta: { ok: true }, data: result.campaign, preview: result.preview };
    },
  });

  api.add({
    method: 'GET', path: '/api/notifications/counters/:id', access: who,
    handler: async (ctx) => {
      ctx.body = { meta: { ok: true }, data: await service.counters(ctx.state.tenant.id, String(ctx.params.id)) };
    },
  });

  api.add({
    method: 'GET', path: '/api/notifications/:id', access: who,
    handler: async (ctx) => {
      ctx.body = { meta: { ok: true }, data: await service.get(ctx.state.tenant.id, String(ctx.params.id)) };
    },
  });

  api.add({
    method: 'PATCH', path: '/api/notifications/:id', access: who,
    handler: async (ctx) => {
      ctx.body = { meta: { ok: true }, data: await service.setPaused(ctx.state.tenant.id, String(ctx.params.id), bodyOrEmpty(ctx)) };
    },
  });

  api.add({
    method: 'GET', path: '/api/notifications/:id/messages', access: who,
    handler: async (ctx) => {
      const { limit, offset } = page(ctx, 500);
      const { data, total } = await service.messages(ctx.state.tenant.id, String(ctx.params.id), { ...filterOf(ctx), limit, offset });
      ctx.body = { meta: { total, limit, offset }, data };
    },
  });

  api.add({
    method: 'GET', path: '/api/notifications/:id/messages.csv', access: who,
    handler: async (ctx) => {
      const file = await service.exportCsv(ctx.state.tenant.id, String(ctx.params.id), filterOf(ctx));
      ctx.set('Content-Disposition', `attachment; filename="${file.name}"`);
      ctx.set('Cache-Control', 'no-store');
      ctx.type = 'text/csv; charset=utf-8';
      ctx.body = file.csv;
    },
  });
}
