import type { Context } from 'koa';
import { messages } from '@atendimento/schemas';
import { AppError } from '../../errors';
import type { Logger } from '../../logger';
import { routePath } from '../path-rule';

/**
 * The one error mapping (run by the edge middleware, edge-middleware.ts): typed errors become
 * `{ error, errorMessage }` with their status; body-parser and HTTP errors thrown by Koa keep
 * their 4xx; anything else is logged once with the request id and answered as a 500 without
 * internals.
 */
export function answerError(ctx: Context, err: unknown, logger: Logger): void {
  if (err instanceof AppError) {
    ctx.status = err.status;
    ctx.body = { error: err.code, errorMessage: err.errorMessage, ...(err.extra.fields && { fields: err.extra.fields }), ...(err.extra.data !== undefined && { data: err.extra.data }) };
    for (const [name, value] of Object.entries(err.extra.headers ?? {})) ctx.set(name, value);
    return;
  }
  const status = (err as { status?: number; statusCode?: number }).status ?? (err as { statusCode?: number }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    ctx.status = status;
    ctx.body = status === 413
      ? { error: 'payload_too_large', errorMessage: messages.errors.payloadTooLarge }
      : { error: 'bad_request', errorMessage: messages.errors.badJson };
    return;
  }
  logger.error({ err, requestId: ctx.state.requestId, method: ctx.method, path: ctx.path }, 'request.failed');
  ctx.status = 500;
  ctx.body = { error: 'internal_error', errorMessage: messages.errors.internal };
}

/** An /api path no route answered gets the JSON 404 (the SPA's paths fall through to static files). */
export function answerUnmatched(ctx: Context): void {
  if (ctx.status === 404 && ctx.body === undefined && routePath(ctx.path).startsWith('/api')) {
    ctx.status = 404;
    ctx.body = { error: 'route_not_found', errorMessage: messages.errors.routeNotFound };
  }
}
