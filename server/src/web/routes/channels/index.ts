import type { Channels } from '../../../services/channels';
import { channelIdOf } from '../../../services/channels/channel-admin-service';
import { access, type ApiRegistry, type AppContext } from '../../access';
import { bodyOf } from '../../request';

/** Base of the URLs the screen shows (webhook, web-chat snippet): the tenant's own host. */
const baseUrlOf = (ctx: AppContext) => `${ctx.protocol}://${ctx.host}`;

/**
 * The channels screen's calls (docs/channels.md "The channels screen"), admin only. Answers
 * carry secrets only as `secretsSet` flags; they are `no-store` all the same.
 */
export function registerChannelRoutes(api: ApiRegistry, channels: Channels): void {
  const { service } = channels;
  const noStore = (ctx: AppContext) => ctx.set('Cache-Control', 'no-store');

  api.add({
    method: 'GET',
    path: '/api/admin/channels',
    access: access.admin,
    handler: async (ctx) => {
      noStore(ctx);
      ctx.body = { data: await service.list(ctx.state.tenant, baseUrlOf(ctx)), types: service.types(), departments: await service.departments(ctx.state.tenant) };
    },
  });
  api.add({
    method: 'GET',
    path: '/api/admin/channels/:id',
    access: access.admin,
    handler: async (ctx) => {
      noStore(ctx);
      ctx.body = { data: await service.get(ctx.state.tenant, channelIdOf(ctx.params.id), baseUrlOf(ctx)) };
    },
  });
  api.add({
    method: 'POST',
    path: '/api/admin/channels',
    access: access.admin,
    handler: async (ctx) => {
      noStore(ctx);
      ctx.status = 201;
      ctx.body = { data: await service.create(ctx.state.tenant, bodyOf(ctx), baseUrlOf(ctx)) };
    },
  });
  api.add({
    method: 'PUT',
    path: '/api/admin/channels/:id',
    access: access.admin,
    handler: async (ctx) => {
      noStore(ctx);
      ctx.body = { data: await service.update(ctx.state.tenant, channelIdOf(ctx.params.id), bodyOf(ctx), baseUrlOf(ctx)) };
    },
  });
  api.add({
    method: 'POST',
    path: '/api/admin/channels/:id/test',
    access: access.admin,
    handler: async (ctx) => {
      ctx.body = { data: await service.test(ctx.state.tenant, channelIdOf(ctx.params.id)) };
    },
  });
}
