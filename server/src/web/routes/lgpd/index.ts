import type { Lgpd } from '../../../services/lgpd';
import { access, userOf, type ApiRegistry } from '../../access';

/**
 * LGPD data rights (docs/lgpd.md), admins only:
 * - GET  /api/lgpd/contacts/:id/export  one zip with everything about the contact
 * - POST /api/lgpd/contacts/:id/erase   {} → what would go + a confirmation code (first confirmation);
 *                                       { confirmationToken, confirmation: 'APAGAR' } → erased (second)
 * - GET  /api/lgpd/audit                who exported or erased which contact, and retention runs
 */
export function registerLgpdRoutes(api: ApiRegistry, lgpd: Lgpd): void {
  api.add({
    method: 'GET',
    path: '/api/lgpd/contacts/:id/export',
    access: access.admin,
    handler: async (ctx) => {
      const user = userOf(ctx);
      const { fileName, stream } = await lgpd.exportContact(ctx.state.tenant.id, String(ctx.params.id), user.user.id);
      ctx.set('Cache-Control', 'no-store');
      ctx.type = 'application/zip';
      ctx.attachment(fileName);
      ctx.body = stream;
    },
  });

  api.add({
    method: 'POST',
    path: '/api/lgpd/contacts/:id/erase',
    access: access.admin,
    handler: async (ctx) => {
      const user = userOf(ctx);
      const body = (ctx.request.body ?? {}) as { confirmationToken?: unknown; confirmation?: unknown };
      const tenantId = ctx.state.tenant.id;
      const contactId = String(ctx.params.id);
      if (body.confirmationToken === undefined && body.confirmation === undefined) {
        ctx.body = { data: await lgpd.requestErase(tenantId, contactId, user.user.id) };
        return;
      }
      ctx.body = { data: await lgpd.erase(tenantId, contactId, user.user.id, body) };
    },
  });

  api.add({
    method: 'GET',
    path: '/api/lgpd/audit',
    access: access.admin,
    handler: async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { data: await lgpd.audit(ctx.state.tenant.id) };
    },
  });
}
