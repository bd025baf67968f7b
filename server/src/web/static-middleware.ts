import { messages } from '@atendimento/schemas';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Middleware } from 'koa';
import send from 'koa-send';
import { routePath } from './path-rule';

/**
 * Serves the built single-page app: real files from dist/, and index.html for every other
 * path that is not /api or /ws (history-mode routing). Hashed assets are cached for a year.
 */
export function staticMiddleware(root: string | null): Middleware {
  const index = root ? path.join(root, 'index.html') : null;
  return async function spa(ctx, next) {
    // '/api' alone is the app's API screen (seed 000 §2), not the REST API under '/api/'.
    const route = routePath(ctx.path);
    const restApi = route.startsWith('/api') && route !== '/api';
    if (restApi || route === '/ws' || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    if (!root || !index || !existsSync(index)) {
      ctx.status = 503;
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = messages.errors.uiNotBuilt;
      return;
    }
    if (ctx.path !== '/' && !ctx.path.endsWith('/')) {
      try {
        const served = await send(ctx, ctx.path, {
          root,
          immutable: ctx.path.startsWith('/assets/'),
          maxage: ctx.path.startsWith('/assets/') ? 365 * 24 * 3600 * 1000 : 0,
        });
        if (served) return;
      } catch (error) {
        if ((error as { status?: number }).status !== 404) throw error;
      }
      // A missing build file (a tab opened before a deploy asking for a chunk that is gone) is a
      // 404, not the app's page: served as JavaScript, index.html failed the dynamic import with a
      // MIME error the page could not tell from a broken network.
      if (ctx.path.startsWith('/assets/')) {
        ctx.status = 404;
        ctx.set('Cache-Control', 'no-cache');
        return;
      }
    }
    ctx.set('Cache-Control', 'no-cache');
    await send(ctx, 'index.html', { root });
  };
}
