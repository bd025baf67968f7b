import { randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import { logContextFields, type LogContext, type Logger } from '../../logger';

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
 * Gives the request its id (kept from X-Request-Id when sane) and the context the edge
 * middleware attaches to every log line written while serving it (edge-middleware.ts).
 */
export function startRequest(ctx: Context): LogContext {
  const incoming = ctx.req.headers['x-request-id'];
  const id = typeof incoming === 'string' && SANE_ID.test(incoming) ? incoming : randomUUID();
  ctx.state.requestId = id;
  ctx.res.setHeader('X-Request-Id', id);
  return new RequestLogContext(id, ctx.state);
}

/** The one line per /api request, built only when info is logged (it runs outside the context, so it names the context's fields itself). */
export function logRequest(logger: Logger, context: LogContext, ctx: Context, started: number): void {
  if (logger.isLevelEnabled('info') && ctx.path.startsWith('/api')) {
    logger.info({ ...logContextFields(context), method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(performance.now() - started) }, 'request');
  }
}
