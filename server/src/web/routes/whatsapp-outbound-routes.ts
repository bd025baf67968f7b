import type { Context } from 'koa';
import { messages } from '@atendimento/schemas';
import { badRequest } from '../../errors';
import type { Chat } from '../../services/chat';
import { createActiveMessageService } from '../../services/chat/active-message-service';
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
}
