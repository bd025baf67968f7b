import type { ContactLinksService } from '../../../services/erp/contact-links-service';
import { access, userOf, type ApiRegistry, type AppContext } from '../../access';
import { abortOnClose, bodyOf } from '../../request';


/**
 * A contact's links to ERP clients, prospects and salesmen (seed 000 §7, services/erp/
 * contact-links-service.ts): `PATCH /api/contacts/{id}/push`, `PATCH /api/contacts` (by id or
 * chat number), the linked records with the seed's empty texts, and clients by CPF/CNPJ. They
 * change contacts, so they take the contacts screen's permission.
 */
export function registerContactLinkRoutes(api: ApiRegistry, links: ContactLinksService): void {
  const guard = access.permission('contacts');

  api.add({
    method: 'PATCH',
    path: '/api/contacts/:id/push',
    access: guard,
    handler: async (ctx) => {
      userOf(ctx);
      ctx.body = { data: await links.push(ctx.state.tenant, String(ctx.params.id), bodyOf(ctx), abortOnClose(ctx)) };
    },
  });

  api.add({
    method: 'PATCH',
    path: '/api/contacts',
    access: guard,
    handler: async (ctx) => {
      userOf(ctx);
      ctx.body = { data: await links.setClients(ctx.state.tenant, bodyOf(ctx), abortOnClose(ctx)) };
    },
  });

  api.add({
    method: 'GET',
    path: '/api/contacts/:id/links',
    access: guard,
    handler: async (ctx) => {
      userOf(ctx);
      ctx.body = { data: await links.links(ctx.state.tenant, String(ctx.params.id), abortOnClose(ctx)) };
    },
  });

  api.add({
    method: 'GET',
    path: '/api/erp/clients',
    access: guard,
    handler: async (ctx) => {
      userOf(ctx);
      ctx.body = { data: await links.clientsByCgc(ctx.state.tenant, ctx.query.cgc, abortOnClose(ctx)) };
    },
  });
}
