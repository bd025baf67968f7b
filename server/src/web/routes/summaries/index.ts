import type { Chat } from '../../../services/chat';
import type { Summaries } from '../../../services/summaries';
import { access, userOf, type ApiRegistry } from '../../access';
import { bodyOrEmpty, scopeOf } from '../../request';

/**
 * Summaries (/sumaries, tenant claim sumarizeRoom; seed 000): any signed-in user of a tenant
 * with the claim, for the chats they may open (the chat's own visibility rules).
 */
/** The /sumaries screen's rule (schemas/src/routes.ts): tenant claim sumarizeRoom. */
const SUMARIES = { access: 'tenantClaim', claim: 'sumarizeRoom' } as const;

export function registerSummaryRoutes(api: ApiRegistry, summaries: Summaries, chat: Chat): void {
  api.add({
    method: 'GET',
    path: '/api/sumaries/:code',
    access: access.rule(SUMARIES),
    handler: async (ctx) => {
      ctx.body = { data: await summaries.find(await scopeOf(ctx, chat), String(ctx.params.code)) };
    },
  });

  api.add({
    method: 'POST',
    path: '/api/rooms/sumarize/:roomId',
    access: access.rule(SUMARIES),
    handler: async (ctx) => {
      const principal = userOf(ctx);
      ctx.body = { data: await summaries.send(await scopeOf(ctx, chat), principal.user, String(ctx.params.roomId), bodyOrEmpty(ctx), ctx.origin) };
    },
  });
}
