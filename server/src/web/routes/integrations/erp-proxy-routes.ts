import type { Context } from 'koa';
import { isAdmin, messages } from '@atendimento/schemas';
import { badRequest, forbidden } from '../../../errors';
import type { ErpService } from '../../../services/erp/erp-service';
import { access, userOf, type ApiRegistry, type AppContext } from '../../access';
import { abortOnClose, bodyOf } from '../../request';

function queryText(ctx: Context, name: string): string | null {
  const value = ctx.query[name];
  if (value === undefined) return null;
  if (typeof value !== 'string' || value.length > 2000) throw badRequest('bad_query', messages.integrations.erpPathInvalid);
  return value;
}

/**
 * The ERP proxy (seed 000 §7): `POST /api/erp-proxy?path={path}[&url={url}]` with a body in
 * either form (ENDPOINT/PORPAGINA/PAGINA/LISTAGEM/PARAMETROS, or DIRECT/QUERY/ORDEM/FILTRO),
 * answered with the ERP's REGISTROSRESULTADOS, TOTAL, RESULTADOS or RETORNOS and PROXIMO. Only
 * the tenant's configured ERP base URLs are reachable (services/erp/erp-service.ts, through the
 * SSRF-safe client); the tenant's timeout applies; a caller that goes away cancels the ERP call.
 * Members only: any ERP endpoint is reachable through it (clients with their CPF/CNPJ), which is
 * not "what every user may read" — a stranger who just signed up gets 403 (docs/security.md).
 */
export function registerErpProxyRoutes(api: ApiRegistry, erp: ErpService): void {
  api.add({
    method: 'POST',
    path: '/api/erp-proxy',
    access: access.member,
    handler: async (ctx: AppContext) => {
      const caller = userOf(ctx);
      // DIRECT sends the body's QUERY to the ERP's database as written: raw SQL is an admin's
      // tool only (docs/security.md); every other user goes through endpoints.
      const body = bodyOf(ctx) as { DIRECT?: unknown } | undefined;
      if (body && typeof body === 'object' && body.DIRECT !== undefined && body.DIRECT !== false && !isAdmin(caller.user)) {
        throw forbidden('erp_direct_admin_only', messages.integrations.erpDirectAdminOnly);
      }
      // The browser cancelled (seed: "the call can be cancelled"): stop waiting on the ERP too.
      const signal = abortOnClose(ctx);
      const limitRaw = queryText(ctx, 'limit');
      const limit = limitRaw === null ? null : Number(limitRaw);
      if (limit !== null && (!Number.isInteger(limit) || limit < 1)) throw badRequest('bad_query', messages.validation.numeric);
      ctx.body = await erp.proxy(
        ctx.state.tenant,
        { path: queryText(ctx, 'path'), url: queryText(ctx, 'url'), limit, body: bodyOf(ctx) },
        signal,
      );
    },
  });
}
