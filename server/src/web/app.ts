import Koa from 'koa';
import { bodyParser } from '@koa/bodyparser';
import type { Logger } from '../logger';
import type { AuthService } from '../services/auth/auth-service';
import type { TenantService } from '../services/tenants/tenant-service';
import { createRouteIndex } from './route-index';
import { createApiRegistry, type ApiRegistry, type ApiTokenAuthenticator } from './access';
import { edgeMiddleware } from './middleware/edge-middleware';
import { tenantMiddleware } from './middleware/tenant-middleware';
import type { OpsDeps } from './middleware/ops-endpoints';
import { staticMiddleware } from './static-middleware';
import { bodyMiddleware } from './middleware/body-middleware';
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

/** Builds the Koa app: edge (request id, metrics, errors, ops endpoints, headers) → tenant → body → routes → SPA. */
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
  app.use(edgeMiddleware({
    logger: deps.logger,
    ops: deps.ops,
    frameOrigins: async (host) => {
      const url = (await deps.tenants.resolve(host))?.appConfig.quotesUrl;
      return url ? [new URL(url).origin] : [];
    },
  }));
  app.use(tenantMiddleware(deps.tenants));
  app.use(bodyMiddleware(deps.uploads));
  app.use(router.routes());
  app.use(staticMiddleware(deps.staticDir));
  return { app, api };
}
