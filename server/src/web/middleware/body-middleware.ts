import { bodyParser } from '@koa/bodyparser';
import type { Middleware } from 'koa';
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
    return parse(ctx, next);
  };
}
