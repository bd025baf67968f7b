import type { Context } from 'koa';
import type { PresenceService } from '../../services/presence/presence-service';
import { access, userOf, type ApiRegistry } from '../access';

function body(ctx: Context): Record<string, unknown> {
  const value = (ctx.request as { body?: unknown }).body;
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Presence (seed 002 §4, §7): the status bar's heartbeat and status changes. */
export function registerPresenceRoutes(api: ApiRegistry, presence: PresenceService): void {
  // Body `{ status }`: 'logon', 'logoff' or a text of the tenant's status list. Own id only,
  // unless admin. Answers `{ data: { status } }` (the seed reads data.data.status).
  api.add({
    method: 'POST',
    path: '/api/users/:id/status',
    access: access.user,
    handler: async (ctx) => {
      ctx.body = { data: await presence.setStatus(ctx.state.tenant, userOf(ctx), String(ctx.params.id), body(ctx)) };
    },
  });
}
