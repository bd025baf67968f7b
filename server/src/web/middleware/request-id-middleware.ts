import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import { logContextFields, withLogContext, type LogContext, type Logger } from '../../logger';

const SANE_ID = /^[\w-]{8,64}$/;

/**
 * A request's log context. Tenant and user are read when a line is written: they are set
 * further down the chain. A class, not an object literal with getters: V8 keeps such a literal
 * in dictionary mode (a property hash table, two accessor pairs and two closures per request),
 * and with one per request GC took ~18 µs of each request instead of ~1.3 (B1c, docs/bench.md).
 */
class RequestLogContext implements LogContext {
  constructor(
    readonly requestId: string,
    private readonly state: { tenant?: unknown; principal?: unknown },
  ) {}

  get tenantId(): string | undefined {
    return (this.state.tenant as { id?: string } | undefined)?.id;
  }

  get userId(): string | undefined {
    const principal = this.state.principal as { kind?: string; user?: { id?: string }; roomId?: string } | null | undefined;
    return principal?.kind === 'user' ? principal.user?.id : principal?.kind === 'anonymous' ? `visitor:${principal.roomId}` : undefined;
  }
}

/**
 * Gives every request an id (kept from X-Request-Id when sane), attaches it with the tenant and
 * the user (once known) to every log line written while serving it, and logs one line per
 * request. It runs on every request, so it allocates little (tests/bench B1): the rest of the
 * chain runs directly inside the log context, and the request line is built only when written.
 */
export function requestIdMiddleware(logger: Logger): Middleware {
  return async function requestId(ctx, next) {
    const incoming = ctx.req.headers['x-request-id'];
    const id = typeof incoming === 'string' && SANE_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = id;
    ctx.res.setHeader('X-Request-Id', id);
    const started = performance.now();
    const context = new RequestLogContext(id, ctx.state);
    try {
      await withLogContext(context, next);
    } finally {
      // Outside the context here, so the line names what the logger's mixin would have added.
      if (logger.isLevelEnabled('info') && ctx.path.startsWith('/api')) {
        logger.info({ ...logContextFields(context), method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(performance.now() - started) }, 'request');
      }
    }
  };
}
