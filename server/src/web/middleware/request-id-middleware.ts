import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from '../../logger';

/** Gives every request an id (kept from X-Request-Id when sane) and logs one line per request. */
export function requestIdMiddleware(logger: Logger): Middleware {
  return async function requestId(ctx, next) {
    const incoming = ctx.get('X-Request-Id');
    const id = /^[\w-]{8,64}$/.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    const started = performance.now();
    try {
      await next();
    } finally {
      if (ctx.path.startsWith('/api')) {
        logger.info(
          { requestId: id, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(performance.now() - started), tenantId: ctx.state.tenant?.id },
          'request',
        );
      }
    }
  };
}
