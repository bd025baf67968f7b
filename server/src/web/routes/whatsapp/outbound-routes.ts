import { badRequest } from '../../../errors';
import type { Whatsapp } from '../../../services/whatsapp';
import { validateWhatsapp } from '../../../services/whatsapp/whatsapp-validation';
import { INTERACTIVE_LIMITS, type SendInteractiveInput } from '@atendimento/schemas/chat/whatsapp';
import { channelIs, messages, type Message } from '@atendimento/schemas';
import { access, type ApiRegistry } from '../../access';
import { answerCreated, bodyOrEmpty, idempotencyKey, scopeOf } from '../../request';

/**
 * WhatsApp outbound calls beyond the ordinary send (docs/whatsapp.md):
 * - GET  /api/rooms/activeMessage/options?contactId=   channels (window state) and departments
 * - POST /api/rooms/activeMessage                       'Mensagem Ativa' (claim allowActiveMessage)
 * - POST /api/rooms/:id/message/interactive             buttons / list
 */
export function registerOutboundRoutes(api: ApiRegistry, whatsapp: Whatsapp): void {
  const { chat, activeMessage: active } = whatsapp;

  api.add({
    method: 'GET',
    path: '/api/rooms/activeMessage/options',
    access: access.permission('allowActiveMessage'),
    handler: async (ctx) => {
      const contactId = typeof ctx.query.contactId === 'string' ? ctx.query.contactId : '';
      if (!contactId || contactId.length > 64) throw badRequest('validation_failed', messages.validation.requiredField, [{ field: 'contactId', message: messages.validation.requiredField }]);
      ctx.body = { meta: { ok: true }, data: await active.options(await scopeOf(ctx, chat), contactId) };
    },
  });

  api.add({
    method: 'POST',
    path: '/api/rooms/activeMessage',
    access: access.permission('allowActiveMessage'),
    handler: async (ctx) => {
      const result = await active.send(await scopeOf(ctx, chat), bodyOrEmpty(ctx), idempotencyKey(ctx));
      answerCreated(ctx, result, { room: result.room, message: result.message });
    },
  });

  // Buttons or a list into a chat (schema whatsappSchemas.interactive; a list has at most 10 rows in all).
  api.add({
    method: 'POST',
    path: '/api/rooms/:id/message/interactive',
    access: access.user,
    handler: async (ctx) => {
      const input = validateWhatsapp<SendInteractiveInput>('interactive', bodyOrEmpty(ctx), messages.whatsapp.interactiveInvalid);
      const it = input.interactive;
      if (it.type === 'list' && it.action.sections.reduce((n, s) => n + s.rows.length, 0) > INTERACTIVE_LIMITS.rows) {
        throw badRequest('validation_failed', messages.whatsapp.interactiveTooManyRows, [{ field: 'interactive.action.sections', message: messages.whatsapp.interactiveTooManyRows }]);
      }
      if (it.type === 'list' && it.action.sections.length > 1 && it.action.sections.some((s) => !s.title)) {
        throw badRequest('validation_failed', messages.whatsapp.interactiveInvalid, [{ field: 'interactive.action.sections', message: messages.whatsapp.interactiveInvalid }]);
      }
      const ids = it.type === 'button' ? it.action.buttons.map((b) => b.reply.id) : it.action.sections.flatMap((s) => s.rows.map((r) => r.id));
      if (new Set(ids).size !== ids.length) throw badRequest('validation_failed', messages.whatsapp.interactiveInvalid, [{ field: 'interactive.action', message: messages.whatsapp.interactiveInvalid }]);
      const scope = await scopeOf(ctx, chat);
      const room = await chat.rooms.get(scope, String(ctx.params.id));
      if (!channelIs(room.channel, 'interactive')) throw badRequest('channel_unsupported', messages.whatsapp.interactiveChannel);
      const result = await chat.messages.sendInteractive(scope, room.id, it as unknown as NonNullable<Message['interactive']>, input.clientId ?? idempotencyKey(ctx));
      answerCreated(ctx, result, result.message);
    },
  });
}
