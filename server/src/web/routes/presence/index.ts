import type { Presence } from '../../../services/presence';
import { access, userOf, type ApiRegistry } from '../../access';
import { objectBody } from '../../request';

/** Presence (seed 002 §4, §7): the status bar's heartbeat and status changes. */
export function registerPresenceRoutes(api: ApiRegistry, domain: Presence): void {
  const presence = domain.service;
  // Body `{ status }`: 'logon', 'logoff' or a text of the tenant's status list. Own id only,
  // unless admin. Answers `{ data: { status } }` (the seed reads data.data.status).
  api.add({
    method: 'POST',
    path: '/api/users/:id/status',
    access: access.user,
    handler: async (ctx) => {
      ctx.body = { data: await presence.setStatus(ctx.state.tenant, userOf(ctx), String(ctx.params.id), objectBody(ctx)) };
    },
  });
}
