import type { ApiTokens } from '../../../services/api-tokens';
import { access, userOf, type ApiRegistry, type AppContext } from '../../access';
import { bodyOf } from '../../request';
import { buildOpenApi } from './openapi';

/**
 * The API screen's calls (docs/api.md, seed 000 §2 "API", 002 §7): list, generate and revoke
 * API tokens (admin only; 404 while the tenant's api setting is off), and the OpenAPI
 * description of /api that the screen links to.
 */
export function registerApiTokenRoutes(api: ApiRegistry, domain: ApiTokens): void {
  const tokens = domain.service;

  api.add({
    method: 'GET',
    path: '/api/api-tokens',
    access: access.admin,
    handler: async (ctx) => {
      ctx.body = { data: await tokens.list(ctx.state.tenant) };
    },
  });

  const generate = async (ctx: AppContext) => {
    const created = await tokens.generate(ctx.state.tenant, userOf(ctx).user.id, bodyOf(ctx));
    ctx.status = 201;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { data: created };
  };
  api.add({ method: 'POST', path: '/api/api-tokens', access: access.admin, handler: generate });
  // The seed's name for the same call (002 §7: POST /generateToken { id, urls, methods }).
  api.add({ method: 'POST', path: '/api/generateToken', access: access.admin, handler: generate });

  api.add({
    method: 'DELETE',
    path: '/api/api-tokens/:id',
    access: access.admin,
    handler: async (ctx) => {
      ctx.body = { data: await tokens.revoke(ctx.state.tenant, String(ctx.params.id)) };
    },
  });

  // Public (a documentation link opens it in a new tab, without the app's token); it describes
  // routes and the registers' schemas, which ship with the product — no tenant data.
  let cached: { key: string; text: string } | null = null;
  api.add({
    method: 'GET',
    path: '/api/openapi.json',
    access: access.public,
    handler: (ctx) => {
      tokens.checkEnabled(ctx.state.tenant);
      const serverUrl = `${ctx.protocol}://${ctx.host}`;
      const key = `${serverUrl}|${api.routes.length}`;
      if (cached?.key !== key) {
        const doc = buildOpenApi({ routes: api.routes, registers: domain.registers, serverUrl, title: 'Atendimento API', version: '1.0.0' });
        cached = { key, text: JSON.stringify(doc) };
      }
      ctx.type = 'application/json; charset=utf-8';
      ctx.set('Cache-Control', 'no-cache');
      ctx.body = cached.text;
    },
  });
}
