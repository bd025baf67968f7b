import type { Context } from 'koa';
import { badRequest } from '../../errors';
import type { Chat } from '../../services/chat';
import { createActiveMessageService, validateWhatsapp } from '../../services/chat/active-message-service';
import { INTERACTIVE_LIMITS, WHATSAPP_OUTBOUND_TEXTS, type SendInteractiveInput } from '@atendimento/schemas/chat/whatsapp';
import { channelIs, messages, type Message } from '@atendimento/schemas';
import { access, type ApiRegistry, type AppContext } from '../access';

function body(ctx: Context): unknown {
  return (ctx.request as { body?: unknown }).body ?? {};
}

function headerKey(ctx: Context): string | null {
  const key = ctx.get('Idempotency-Key').trim();
  if (!key) return null;
  if (key.length > 100) throw badRequest('idempotency_key_invalid', messages.validation.invalidValue);
  return key;
}

/**
 * WhatsApp outbound calls of issue 9 beyond the ordinary send (docs/whatsapp.md):
 * - GET  /api/rooms/activeMessage/options?contactId=   channels (window state) and departments
 * - POST /api/rooms/activeMessage                       'Mensagem Ativa' (claim allowActiveMessage)
 * - POST /api/rooms/:id/message/interactive             buttons / list
 */
export function registerWhatsappOutboundRoutes(api: ApiRegistry, chat: Chat): void {
  const active = createActiveMessageService(chat.deps, chat.rooms, chat.messages);
  const viewerOf = (ctx: AppContext) => chat.viewer(ctx.state.tenant, ctx.state.principal!);

  api.add({
    method: 'GET',
    path: '/api/rooms/activeMessage/options',
    access: access.permission('allowActiveMessage'),
    handler: async (ctx) => {
      const contactId = typeof ctx.query.contactId === 'string' ? ctx.query.contactId : '';
      if (!contactId || contactId.length > 64) throw badRequest('validation_failed', messages.validation.requiredField, [{ field: 'contactId', message: messages.validation.requiredField }]);
      ctx.body = { meta: { ok: true }, data: await active.options(ctx.state.tenant.id, await viewerOf(ctx), contactId) };
    },
  });

  api.add({
    method: 'POST',
    path: '/api/rooms/activeMessage',
    access: access.permission('allowActiveMessage'),
    handler: async (ctx) => {
      const tenant = ctx.state.tenant;
      const result = await active.send(tenant.id, await viewerOf(ctx), tenant.appConfig, body(ctx), headerKey(ctx));
      ctx.status = result.created ? 201 : 200;
      ctx.body = { meta: { ok: true, created: result.created }, data: { room: result.room, message: result.message } };
    },
  });

  // Buttons or a list into a chat (schema whatsappSchemas.interactive; a list has at most 10 rows in all).
  api.add({
    method: 'POST',
    path: '/api/rooms/:id/message/interactive',
    access: access.user,
    handler: async (ctx) => {
      const input = validateWhatsapp<SendInteractiveInput>('interactive', body(ctx), WHATSAPP_OUTBOUND_TEXTS.interactiveInvalid);
      const it = input.interactive;
      if (it.type === 'list' && it.action.sections.reduce((n, s) => n + s.rows.length, 0) > INTERACTIVE_LIMITS.rows) {
        throw badRequest('validation_failed', WHATSAPP_OUTBOUND_TEXTS.interactiveTooManyRows, [{ field: 'interactive.action.sections', message: WHATSAPP_OUTBOUND_TEXTS.interactiveTooManyRows }]);
      }
      if (it.type === 'list' && it.action.sections.length > 1 && it.action.sections.some((s) => !s.title)) {
        throw badRequest('validation_failed', WHATSAPP_OUTBOUND_TEXTS.interactiveInvalid, [{ field: 'interactive.action.sections', message: WHATSAPP_OUTBOUND_TEXTS.interactiveInvalid }]);
      }
      const ids = it.type === 'button' ? it.action.buttons.map((b) => b.reply.id) : it.action.sections.flatMap((s) => s.rows.map((r) => r.id));
      if (new Set(ids).size !== ids.length) throw badRequest('validation_failed', WHATSAPP_OUTBOUND_TEXTS.interactiveInvalid, [{ field: 'interactive.action', message: WHATSAPP_OUTBOUND_TEXTS.interactiveInvalid }]);
      const tenant = ctx.state.tenant;
      const viewer = await viewerOf(ctx);
      const room = await chat.rooms.get(tenant.id, viewer, tenant.appConfig, String(ctx.params.id));
      if (!channelIs(room.channel, 'interactive')) throw badRequest('channel_unsupported', WHATSAPP_OUTBOUND_TEXTS.interactiveChannel);
      const result = await chat.messages.sendInteractive(tenant.id, viewer, tenant.appConfig, room.id, it as unknown as NonNullable<Message['interactive']>, input.clientId ?? headerKey(ctx));
      ctx.status = result.created ? 201 : 200;
      ctx.body = { meta: { ok: true, created: result.created }, data: result.message };
    },
  });
}
