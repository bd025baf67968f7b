import type { Context } from 'koa';
import { messages } from '@atendimento/schemas';
import { TEMPLATES_PAGE_MAX } from '@atendimento/schemas/chat/whatsapp';
import { badRequest } from '../../../errors';
import type { TemplateQuery } from '../../../db/repositories/whatsapp-template-repository';
import type { Whatsapp } from '../../../services/whatsapp';
import { access, type ApiRegistry } from '../../access';
import { answerCreated, bodyOrEmpty, idempotencyKey, queryValue, scopeOf } from '../../request';

/** Query of GET /api/templates: channelId, status, language (comma list), q, limit (1..500, default 100), offset. */
function templateQuery(ctx: Context): TemplateQuery {
  const bad = (param: string) => badRequest('bad_query', messages.validation.invalidValue, [{ field: param, message: messages.validation.invalidValue }]);
  const text = (name: string, max: number) => {
    const value = queryValue(ctx.query[name]);
    if (value !== undefined && (value.length > max || value.includes('\u0000'))) throw bad(name);
    return value || null;
  };
  const int = (name: string, fallback: number, min: number, max: number) => {
    const raw = queryValue(ctx.query[name]);
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
 * Templates (seed 001 §7, docs/whatsapp.md "Templates"): sync from the providers (admin), the
 * stored list, and a template into a chat (allowed outside the 24-hour window).
 */
export function registerTemplateRoutes(api: ApiRegistry, whatsapp: Whatsapp): void {
  const { chat, templates } = whatsapp;

  api.add({
    method: 'POST',
    path: '/api/cronjob/proccess/syncTemplates',
    access: access.admin,
    handler: async (ctx) => {
      const result = await templates.sync(ctx.state.tenant.id);
      ctx.body = { meta: { ok: true, message: messages.chat.templatesSynced, ...result }, data: result };
    },
  });

  api.add({
    method: 'GET',
    path: '/api/templates',
    access: access.user,
    handler: async (ctx) => {
      ctx.body = await templates.list(ctx.state.tenant.id, templateQuery(ctx));
    },
  });

  api.add({
    method: 'POST',
    path: '/api/rooms/:id/message/template',
    access: access.user,
    handler: async (ctx) => {
      const input = bodyOrEmpty(ctx) as Record<string, any>;
      const t = input.template ?? {};
      const fields: { field: string; message: string }[] = [];
      if (typeof t.name !== 'string' || !/^[a-z0-9_]{1,512}$/.test(t.name)) fields.push({ field: 'template.name', message: messages.validation.requiredField });
      if (typeof t.language !== 'string' || !/^[A-Za-z_]{2,15}$/.test(t.language)) fields.push({ field: 'template.language', message: messages.validation.requiredField });
      if (t.components !== undefined && (!Array.isArray(t.components) || JSON.stringify(t.components).length > 20_000)) fields.push({ field: 'template.components', message: messages.validation.requiredField });
      if (t.text !== undefined && (typeof t.text !== 'string' || t.text.length > 4096)) fields.push({ field: 'template.text', message: messages.validation.requiredField });
      if (input.clientId !== undefined && (typeof input.clientId !== 'string' || input.clientId.length > 100)) fields.push({ field: 'clientId', message: messages.validation.requiredField });
      if (fields.length) throw badRequest('validation_failed', fields[0]!.message, fields);
      const template = { name: t.name as string, language: t.language as string, ...(t.components && { components: t.components as unknown[] }), ...(t.text && { text: t.text as string }) };
      const result = await chat.messages.sendTemplate(await scopeOf(ctx, chat), String(ctx.params.id), template, (input.clientId as string | undefined) ?? idempotencyKey(ctx));
      answerCreated(ctx, result, result.message);
    },
  });
}
