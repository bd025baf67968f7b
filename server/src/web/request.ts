import type { Context } from 'koa';
import { messages } from '@atendimento/schemas';
import { badRequest } from '../errors';
import type { ChatScope } from '../services/chat/room-scope';
import type { AppContext } from './access';

/**
 * What every route reads from a request, in one place: the parsed JSON body, the
 * idempotency key, query parameters, and the caller's chat scope.
 */

/** The parsed JSON body as sent (undefined without one; app.ts parses JSON only). */
export function bodyOf(ctx: Context): unknown {
  return (ctx.request as { body?: unknown }).body;
}

/** The body, or `{}` without one (schemas then report the missing fields). */
export function bodyOrEmpty(ctx: Context): unknown {
  return bodyOf(ctx) ?? {};
}

/**
 * The body when it is a JSON object, `{}` without one; any other JSON (an array, a string, a
 * number) is 400: a route that reads fields must not take `[…]` as "nothing to change".
 */
export function objectBody(ctx: Context): Record<string, unknown> {
  const value = bodyOf(ctx);
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequest('invalid_body', messages.errors.badJson);
  return value as Record<string, unknown>;
}

/** The `Idempotency-Key` header of a send (a body `clientId` wins over it); 400 when too long. */
export function idempotencyKey(ctx: Context): string | null {
  const key = ctx.get('Idempotency-Key').trim();
  if (!key) return null;
  if (key.length > 100) throw badRequest('idempotency_key_invalid', messages.validation.invalidValue);
  return key;
}

/** The first value of a query parameter (`?a=1&a=2` → '1'); undefined when absent. */
export function queryValue(value: unknown): string | undefined {
  return Array.isArray(value) ? value[0] : typeof value === 'string' ? value : undefined;
}

/**
 * The caller's chat scope `{ tenantId, viewer, config }`, built once per request (the
 * viewer costs a query for supervisors) and kept on `ctx.state`.
 */
export function scopeOf(ctx: AppContext, chat: { scope(tenant: AppContext['state']['tenant'], principal: NonNullable<AppContext['state']['principal']>): Promise<ChatScope> }): Promise<ChatScope> {
  ctx.state.scope ??= chat.scope(ctx.state.tenant, ctx.state.principal!);
  return ctx.state.scope;
}

/** Aborts when the caller goes away before the answer (seed 000 §7: ERP calls are cancellable). */
export function abortOnClose(ctx: Context): AbortSignal {
  const controller = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) controller.abort();
  });
  return controller.signal;
}

/**
 * The answer of an idempotent create (a send with a client id): 201 with the new record, or 200
 * with the one a previous attempt already created, `meta.created` saying which.
 */
export function answerCreated(ctx: Context, result: { created: boolean }, data: unknown): void {
  ctx.status = result.created ? 201 : 200;
  ctx.body = { meta: { ok: true, created: result.created }, data };
}
