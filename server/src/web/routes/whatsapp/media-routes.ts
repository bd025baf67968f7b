import { messages } from '@atendimento/schemas';
import { badRequest } from '../../../errors';
import type { Whatsapp } from '../../../services/whatsapp';
import { access, type ApiRegistry } from '../../access';
import { bodyOrEmpty, scopeOf } from '../../request';

/** 'recarregar' on the error renderer (seed 001 §7): fetch the media again from the stored reference. */
export function registerMediaRoutes(api: ApiRegistry, whatsapp: Whatsapp): void {
  const { chat, media } = whatsapp;
  api.add({
    method: 'PATCH',
    path: '/api/rooms/:id/reloadMessage',
    access: access.user,
    handler: async (ctx) => {
      const input = bodyOrEmpty(ctx) as { messageId?: unknown };
      if (typeof input.messageId !== 'string' || !input.messageId || input.messageId.length > 100) {
        throw badRequest('validation_failed', messages.validation.requiredField, [{ field: 'messageId', message: messages.validation.requiredField }]);
      }
      ctx.body = { meta: { ok: true }, data: await media.reload(await scopeOf(ctx, chat), String(ctx.params.id), input.messageId) };
    },
  });
}
