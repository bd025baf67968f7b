import type { Context, Middleware, Next } from 'koa';
import { messages } from '@atendimento/schemas';
import { AppError } from '../../errors';
import type { TenantRow } from '../../db/repositories/tenant-repository';
import type { TenantService } from '../../services/tenants/tenant-service';
import { routePath } from '../path-rule';

/**
 * Resolves the tenant from the Host header for /api and /ws; an unknown host is a 404 and an
 * inactive tenant a 403 on every route (the app shows 'Acesso Desabilitado.'). A host in the
 * service's cache is answered without waiting (every request passes here; tests/bench B1).
 */
export function tenantMiddleware(tenants: TenantService): Middleware {
  const enter = (ctx: Context, next: Next, found: TenantRow | null) => {
    if (!found) throw new AppError(404, 'tenant_not_found', messages.tenant.notFound);
    if (!found.active) throw new AppError(403, 'tenant_inactive', messages.tenant.blockedDetail);
    ctx.state.tenant = found;
    return next();
  };
  return function tenant(ctx, next) {
    const path = routePath(ctx.path);
    if (!path.startsWith('/api') && path !== '/ws' && path !== '/counter' && path !== '/read') return next();
    const host = ctx.host || ctx.get('host');
    const hit = tenants.cached(host);
    if (hit !== undefined) return enter(ctx, next, hit);
    return tenants.resolve(host).then((found) => enter(ctx, next, found));
  };
}
