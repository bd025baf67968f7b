import type { Context } from 'koa';
import { messages } from '@atendimento/schemas';
import { INTEGRATION_COLLECTION } from '@atendimento/schemas/integrations/index';
import { badRequest, notFound } from '../../../errors';
import { parseSimpleRestQuery } from '../../../services/registers/register-query';
import { validatorModule } from '../../../services/registers/validator-module';
import type { IntegrationCaller, IntegrationService } from '../../../services/integrations/integration-service';
import { access, userOf, type ApiRegistry, type AppContext } from '../../access';
import { bodyOf } from '../../request';

function callerOf(ctx: AppContext): IntegrationCaller {
  const principal = userOf(ctx);
  return { tenant: ctx.state.tenant, user: principal.user, departments: [...principal.agentOf, ...principal.supervisorOf] };
}

function collectionOf(ctx: AppContext): string {
  const collection = String(ctx.params.collection ?? '');
  // Not a name any integration can have: the same 404 as an unknown one.
  if (!INTEGRATION_COLLECTION.test(collection)) throw notFound('integration_not_found', messages.errors.notFound);
  return collection;
}

function idsOf(body: unknown): string[] {
  const list = Array.isArray(body) ? body : body && typeof body === 'object' && Array.isArray((body as { ids?: unknown }).ids) ? (body as { ids: unknown[] }).ids : null;
  if (!list || list.length === 0 || list.length > 1000 || !list.every((id) => typeof id === 'string' && id.length > 0 && id.length <= 200)) {
    throw badRequest('ids_required', messages.validation.invalidValue);
  }
  return list as string[];
}

/**
 * The integrations API (docs/integrations.md, seed 000 §7): the definitions this user may use
 * (menu and screens), their forms' validators, and the generic records of each integration
 * under /api/integration/{collection} in the ra-data-simple-rest dialect. Routes are open to any
 * signed-in user; the service applies the seed's visibility rules per integration and answers
 * 404 for one the caller may not use.
 */
export function registerIntegrationRoutes(api: ApiRegistry, integrations: IntegrationService): void {
  api.add({
    method: 'GET',
    path: '/api/integration-definitions',
    access: access.user,
    handler: async (ctx) => {
      ctx.body = { data: await integrations.views(callerOf(ctx)) };
    },
  });

  // Loaded with import() (no Authorization header), like the registers' validators; the URL
  // must carry the schema's current version, so it reveals nothing to someone without it.
  api.add({
    method: 'GET',
    path: '/api/integration-validators/:file',
    access: access.public,
    handler: async (ctx) => {
      const collection = /^(.+)\.js$/.exec(String(ctx.params.file))?.[1] ?? '';
      const version = typeof ctx.query.v === 'string' ? ctx.query.v : '';
      const schema = INTEGRATION_COLLECTION.test(collection) && version ? await integrations.schemaFor(ctx.state.tenant.id, collection, version) : null;
      if (!schema) throw notFound('integration_not_found', messages.errors.routeNotFound);
      ctx.type = 'text/javascript; charset=utf-8';
      ctx.set('Cache-Control', 'private, max-age=31536000, immutable');
      ctx.body = validatorModule(schema);
    },
  });

  api.add({
    method: 'GET',
    path: '/api/integration/:collection',
    access: access.user,
    handler: async (ctx) => {
      const collection = collectionOf(ctx);
      let offset = 0;
      const page = await integrations.list(callerOf(ctx), collection, (resolved) => {
        const parsed = parseSimpleRestQuery(resolved.definition, resolved.fields, ctx.query as Record<string, unknown>);
        offset = parsed.offset;
        return parsed;
      });
      ctx.set('Content-Range', `${collection} ${offset}-${Math.max(offset, offset + page.records.length - 1)}/${page.total}`);
      ctx.set('Access-Control-Expose-Headers', 'Content-Range');
      ctx.body = page.records;
    },
  });

  api.add({
    method: 'POST',
    path: '/api/integration/:collection',
    access: access.member,
    handler: async (ctx) => {
      const { record, created, message } = await integrations.save(callerOf(ctx), collectionOf(ctx), bodyOf(ctx));
      ctx.status = created ? 201 : 200;
      // The ERP's message (if any) rides in meta: the data provider unwraps exactly { data, meta }.
      ctx.body = { meta: { ok: true, ...(message && { message }) }, data: record };
    },
  });

  api.add({
    method: 'PATCH',
    path: '/api/integration/:collection/remove',
    access: access.member,
    handler: async (ctx) => {
      const removed = await integrations.remove(callerOf(ctx), collectionOf(ctx), idsOf(bodyOf(ctx)));
      ctx.body = { data: removed.map((r) => r.id), message: messages.table.deletedMany };
    },
  });

  // findByChatId (seed 000 §3): the contact panel's integration sections for one chat.
  api.add({
    method: 'GET',
    path: '/api/integration-chat/:chatId',
    access: access.user,
    handler: async (ctx) => {
      ctx.body = { data: await integrations.chatSections(callerOf(ctx), String(ctx.params.chatId)) };
    },
  });

  api.add({
    method: 'GET',
    path: '/api/integration/:collection/by-chat/:chatId',
    access: access.user,
    handler: async (ctx) => {
      ctx.body = { data: await integrations.byChat(callerOf(ctx), collectionOf(ctx), String(ctx.params.chatId)) };
    },
  });

  // Call-to-action documents (seed 000 §7). Registered before /:collection/:id.
  api.add({
    method: 'GET',
    path: '/api/integration/:collection/documents/file',
    access: access.user,
    handler: async (ctx) => {
      const src = typeof ctx.query.src === 'string' ? ctx.query.src : '';
      const file = await integrations.documentFile(callerOf(ctx), collectionOf(ctx), src);
      ctx.type = file.contentType;
      ctx.set('Cache-Control', 'private, no-store');
      ctx.body = file.body;
    },
  });

  api.add({
    method: 'POST',
    path: '/api/integration/:collection/:id/documents/:index',
    access: access.member,
    handler: async (ctx) => {
      const index = Number(ctx.params.index);
      if (!Number.isInteger(index) || index < 0 || index > 2) throw notFound();
      const doc = await integrations.document(callerOf(ctx), collectionOf(ctx), String(ctx.params.id), index, bodyOf(ctx));
      ctx.status = doc.status === 201 ? 201 : 200;
      ctx.body = { data: doc };
    },
  });

  api.add({
    method: 'GET',
    path: '/api/integration/:collection/:id',
    access: access.user,
    handler: async (ctx) => {
      ctx.body = await integrations.getOne(callerOf(ctx), collectionOf(ctx), String(ctx.params.id));
    },
  });

  for (const method of ['PUT', 'PATCH'] as const) {
    api.add({
      method,
      path: '/api/integration/:collection/:id',
      access: access.member,
      handler: async (ctx) => {
        ctx.body = await integrations.update(callerOf(ctx), collectionOf(ctx), String(ctx.params.id), bodyOf(ctx), method === 'PUT' ? 'replace' : 'merge');
      },
    });
  }

  api.add({
    method: 'DELETE',
    path: '/api/integration/:collection/:id',
    access: access.member,
    handler: async (ctx) => {
      const [removed] = await integrations.remove(callerOf(ctx), collectionOf(ctx), [String(ctx.params.id)]);
      ctx.body = { meta: { ok: true }, data: removed };
    },
  });
}
