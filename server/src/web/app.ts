import Koa from 'koa';
import { bodyParser } from '@koa/bodyparser';
import type { Logger } from '../logger';
import type { AuthService } from '../services/auth/auth-service';
import type { TenantService } from '../services/tenants/tenant-service';
import { createRouteIndex } from './route-index';
import { createApiRegistry, type ApiRegistry, type ApiTokenAuthenticator } from './access';
import { errorsMiddleware } from './middleware/errors-middleware';
import { requestIdMiddleware } from './middleware/request-id-middleware';
import { securityHeadersMiddleware } from './middleware/security-headers-middleware';
import { tenantMiddleware } from './middleware/tenant-middleware';
import { opsMiddleware, requestMetricsMiddleware, type OpsDeps } from './middleware/ops-middleware';
import { staticMiddleware } from './static-middleware';
import { MAIL_FILE_PATH } from './routes/mail';
import { routePath } from './path-rule';
import type { UploadBudget } from './upload-budget';

interface AppDeps {
  logger: Logger;
  auth: AuthService;
  tenants: TenantService;
  staticDir: string | null;
  trustProxy: boolean;
  /** API tokens (docs/api.md): bearer tokens for external systems, scoped per token. */
  apiTokens?: ApiTokenAuthenticator;
  /** Metrics, health and the graceful stop's draining flag (docs/production.md). */
  ops?: OpsDeps;
  /** Uploads in flight (docs/security.md "Limits"). */
  uploads: UploadBudget;
  /** Each domain's routes (web/routes/<domain>), in order: a path registered first wins. */
  routes: ((api: ApiRegistry) => void)[];
}

/** Builds the Koa app: middleware order is request id → metrics → errors → ops endpoints → headers → tenant → body → routes → SPA. */
export function createApp(deps: AppDeps): { app: Koa; api: ApiRegistry } {
  const app = new Koa({ proxy: deps.trustProxy });
  const router = createRouteIndex();
  const api = createApiRegistry(router, deps.auth, deps.apiTokens);

  for (const register of deps.routes) register(api);

  // Errors outside the middleware chain (writing to a socket the client closed...).
  app.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE' || err.code === 'ECONNRESET' || err.code === 'ERR_STREAM_PREMATURE_CLOSE') return;
    deps.logger.error({ err }, 'app.error');
  });
  app.use(requestIdMiddleware(deps.logger));
  if (deps.ops) app.use(requestMetricsMiddleware(deps.ops));
  app.use(errorsMiddleware(deps.logger));
  if (deps.ops) app.use(opsMiddleware(deps.ops));
  app.use(securityHeadersMiddleware(async (host) => {
    const url = (await deps.tenants.resolve(host))?.appConfig.quotesUrl;
    return url ? [new URL(url).origin] : [];
  }));
  app.use(tenantMiddleware(deps.tenants));
  // One budget for every route that takes a file, so none of them is left out of it.
  app.use((ctx, next) => {
    ctx.state.uploads = deps.uploads;
    return next();
  });
  // Provider webhooks are signed over the exact bytes, and mail replies with attachments are
  // larger than the JSON limit: their routes read the raw body themselves.
  app.use((ctx, next) => {
    const route = routePath(ctx.path);
    if (route.startsWith('/api/webhooks/') || MAIL_FILE_PATH.test(route)) (ctx as { disableBodyParser?: boolean }).disableBodyParser = true;
    return next();
  });
  app.use(bodyParser({ enableTypes: ['json'], jsonLimit: '2mb', encoding: 'utf-8' }));
  app.use(router.routes());
  app.use(staticMiddleware(deps.staticDir));
  return { app, api };
}
