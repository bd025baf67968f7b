import type { Context, Middleware, Next } from 'koa';
import { withLogContext, type Logger } from '../../logger';
import { answerError, answerUnmatched } from './error-answers';
import { answerOpsEndpoint, observeRequest, type OpsDeps } from './ops-endpoints';
import { logRequest, startRequest } from './request-id';
import { setSecurityHeaders, type FrameOrigins } from './security-headers';

interface EdgeDeps {
  logger: Logger;
  /** Metrics, health and the graceful stop's draining flag (docs/production.md). */
  ops?: OpsDeps;
  frameOrigins?: FrameOrigins;
}

/**
 * What every request goes through before its tenant is known, as one middleware: request id
 * and log context → metrics → error mapping → process endpoints and draining → security
 * headers. One middleware, not five: each layer was an async function, a promise and a
 * dispatch per request, and every request runs this code cold between the load generator's
 * turns (tests/bench B1, docs/bench.md "The edge as one middleware"). The order is the one the
 * five had: metrics record the status the error mapping chose, the error's answer gets the
 * security headers, the process endpoints answer without them.
 */
export function edgeMiddleware(deps: EdgeDeps): Middleware {
  const { logger, ops, frameOrigins } = deps;

  async function answer(ctx: Context, next: Next): Promise<void> {
    try {
      const answered = ops ? answerOpsEndpoint(ops, ctx) : false;
      if (answered === true || (answered !== false && (await answered))) return;
      try {
        await next();
      } finally {
        const pending = setSecurityHeaders(ctx, frameOrigins);
        if (pending) await pending;
      }
      answerUnmatched(ctx);
    } catch (err) {
      answerError(ctx, err, logger);
    }
  }

  return async function edge(ctx, next) {
    const started = performance.now();
    const context = startRequest(ctx);
    try {
      await withLogContext(context, () => answer(ctx, next));
    } finally {
      if (ops) observeRequest(ops, ctx, started);
      logRequest(logger, context, ctx, started);
    }
  };
}
