import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import { withLogContext, type LogContext, type Logger } from '../../logger';

/**
 * Gives every request an id (kept from X-Request-Id when sane), attaches it with the tenant and
 * the user (once known) to every log line written while serving it, and logs one line per
 * request.
 */
export function requestIdMiddleware(logger: Logger): Middleware {
  return async function requestId(ctx, next) {
    const incoming = ctx.get('X-Request-Id');
    const id = /^[\w-]{8,64}$/.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    const started = performance.now();
    // Read lazily: the tenant and principal are set further down the chain.
    const context: LogContext = {
      requestId: id,
      get tenantId() {
        return (ctx.state.tenant as { id?: string } | undefined)?.id;
      },
      get userId() {
        const principal = ctx.state.principal as { kind?: string; user?: { id?: string }; roomId?: string } | null | undefined;
        return principal?.kind === 'user' ? principal.user?.id : principal?.kind === 'anonymous' ? `visitor:${principal.roomId}` : undefined;
      },
    };
    await withLogContext(context, async () => {
      try {
        await next();
      } finally {
        if (ctx.path.startsWith('/api')) {
          logger.info({ method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(performance.now() - started) }, 'request');
        }
      }
    });
  };
}
