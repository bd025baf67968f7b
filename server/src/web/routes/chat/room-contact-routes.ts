import { messages as texts, quotesPortalUrl, splitClientKey } from '@atendimento/schemas';
import { AppError, notFound } from '../../../errors';
import type { Chat } from '../../../services/chat';
import type { RegisterService } from '../../../services/registers/register-service';
import { access, type ApiRegistry } from '../../access';
import { bodyOrEmpty, scopeOf } from '../../request';
import { callerOf } from '../registers/register-routes';

/**
 * The console's 'Editar Contato' (docs/console-operations.md "Editar Contato"): the contact of a
 * chat the caller may see, read and written through the contacts register, so the same JSON
 * Schema, admin-only switches, phone lock and blocked-contact rule apply. Seeing the chat is what
 * grants the record: agents without the contacts screen still edit the contact they attend.
 */
export function registerRoomContactRoutes(api: ApiRegistry, chat: Chat, registers: RegisterService): void {
  async function contactIdOf(ctx: Parameters<typeof scopeOf>[0]): Promise<string> {
    const room = await chat.rooms.get(await scopeOf(ctx, chat), String(ctx.params.id));
    if (room.internal || !room.author?.id) throw notFound('contact_not_found', texts.lgpd.contactNotFound);
    return room.author.id;
  }

  api.add({
    method: 'GET',
    path: '/api/rooms/:id/contact',
    access: access.user,
    handler: async (ctx) => {
      const contactId = await contactIdOf(ctx);
      ctx.body = { data: await registers.getOne(callerOf(ctx), 'contacts', contactId, { granted: true }) };
    },
  });

  // 'Orçamentos' (seed 001 §8): the quotes portal of the chat's contact, filtered by its first
  // linked ERP client; without one, the seed's message. Seeing the chat is what grants it.
  api.add({
    method: 'GET',
    path: '/api/rooms/:id/quotes',
    access: access.user,
    handler: async (ctx) => {
      const contactId = await contactIdOf(ctx);
      const template = ctx.state.tenant.appConfig.quotesUrl;
      if (!template) throw new AppError(409, 'quotes_not_configured', texts.contact.quotesNotConfigured);
      const contact = await registers.getOne(callerOf(ctx), 'contacts', contactId, { granted: true });
      const keys = Array.isArray(contact.clients) ? contact.clients.filter((k): k is string => typeof k === 'string') : [];
      const client = keys.map(splitClientKey).find((c) => c !== null);
      if (!client) throw new AppError(409, 'no_client', texts.contact.linkClientForQuote);
      ctx.body = { data: { url: quotesPortalUrl(template, client), client } };
    },
  });

  api.add({
    method: 'PATCH',
    path: '/api/rooms/:id/contact',
    // A stranger (public sign-up) writes nothing shared (docs/security.md).
    access: access.member,
    handler: async (ctx) => {
      const contactId = await contactIdOf(ctx);
      const data = await registers.update(callerOf(ctx), 'contacts', contactId, bodyOrEmpty(ctx), 'merge', { granted: true });
      ctx.body = { meta: { ok: true, message: texts.contact.updated }, data };
    },
  });
}
