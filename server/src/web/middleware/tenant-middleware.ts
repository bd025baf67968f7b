import type { Middleware } from 'koa';
import { messages } from '@atendimento/schemas';
import { AppError } from '../../errors';
import type { TenantService } from '../../services/tenants/tenant-service';
import { routePath } from '../path-rule';

/**
 * Resolves the tenant from the Host header for /api and /ws; an unknown host is a 404 and an
 * inactive tenant a 403 on every route (the app shows 'Acesso Desabilitado.').
 */
export function tenantMiddleware(tenants: TenantService): Middleware {
  return async function tenant(ctx, next) {
    const path = routePath(ctx.path);
    if (!path.startsWith('/api') && path !== '/ws' && path !== '/counter' && path !== '/read') return next();
    const found = await tenants.resolve(ctx.host || ctx.get('host'));
    if (!found) throw new AppError(404, 'tenant_not_found', messages.tenant.notFound);
    if (!found.active) throw new AppError(403, 'tenant_inactive', messages.tenant.blockedDetail);
    ctx.state.tenant = found;
    return next();
  };
}
