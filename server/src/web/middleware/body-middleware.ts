import { bodyParser } from '@koa/bodyparser';
import type { Middleware } from 'koa';
import { messages } from '@atendimento/schemas';
import { badRequest } from '../../errors';
import { MAIL_FILE_PATH } from '../routes/mail';
import { routePath } from '../path-rule';
import type { UploadBudget } from '../upload-budget';

/** The methods the parser reads a body for (its own default): the rest, most of the traffic, skip it without a call. */
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/**
 * The request's body: JSON parsed up to 2 MB, except for provider webhooks (signed over the
 * exact bytes) and mail replies with attachments (larger than the JSON limit), whose routes
 * read the raw body themselves. Also hands every route the process's one upload budget, so
 * none of the routes that take a file is left out of it.
 */
export function bodyMiddleware(uploads: UploadBudget): Middleware {
  const parse = bodyParser({ enableTypes: ['json'], jsonLimit: '2mb', encoding: 'utf-8' });
  return function body(ctx, next) {
    ctx.state.uploads = uploads;
    if (!WITH_BODY.has(ctx.method)) return next();
    const route = routePath(ctx.path);
    if (route.startsWith('/api/webhooks/') || MAIL_FILE_PATH.test(route)) return next();
    return parse(ctx, () => {
      // A NUL in a text: PostgreSQL refuses it in every text column (a 500 deep in a write),
      // SQLite stores it and every screen cuts the text there. Refused at the door on both.
      const raw = (ctx.request as { rawBody?: string }).rawBody;
      if (raw && raw.includes('u0000') && hasNul(ctx.request.body)) throw badRequest('nul_character', messages.errors.nulChar);
      return next();
    });
  };
}

/** True when a string anywhere in a parsed JSON value (keys included) holds U+0000. */
function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\0');
  if (value === null || typeof value !== 'object' || depth > 64) return false;
  if (Array.isArray(value)) return value.some((v) => hasNul(v, depth + 1));
  return Object.entries(value).some(([k, v]) => k.includes('\0') || hasNul(v, depth + 1));
}
