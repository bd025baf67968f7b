import Router from '@koa/router';
import type { Context, Middleware, Next } from 'koa';
import { format, publicMessages } from '@atendimento/schemas';
import { AppError } from '../errors';
import { routePath } from './path-rule';

/**
 * @koa/router's 405 (a known path, another method) and 501 (a method it does not know, e.g.
 * TRACE) answer English plain text; ours is the JSON error every other refusal has, 405 for both
 * (the method is not allowed on this path: a caller's mistake, not a server fault), with the
 * router's Allow header.
 */
async function allowedOrRefused(allowed: (ctx: never, next: Next) => unknown, ctx: Context, next: Next): Promise<void> {
  await allowed(ctx as never, next);
  if ((ctx.status === 405 || ctx.status === 501) && ctx.body == null) {
    const allow = ctx.response.get('Allow');
    throw new AppError(405, 'method_not_allowed', format(publicMessages.errors.methodNotAllowed, { method: ctx.method, allowed: allow || '-' }), { headers: { Allow: allow } });
  }
}

/**
 * The first two segments of a path under the route rule ('/API/Rooms/12/' → '/api/rooms'),
 * the key routes are indexed by.
 */
function prefixOf(path: string): string {
  const p = routePath(path);
  const second = p.indexOf('/', 1);
  if (second < 0) return p;
  const third = p.indexOf('/', second + 1);
  return third < 0 ? p : p.slice(0, third);
}

/** A pattern's literal prefix, or null when its first two segments hold a parameter or a wildcard. */
function literalPrefixOf(pattern: string): string | null {
  const key = prefixOf(pattern);
  return /[:*({?]/.test(key) ? null : key;
}

/**
 * @koa/router tries every route's regular expression in turn, and we have ~420 (registers
 * times their operations): matching was a measurable part of every request (tests/bench B1,
 * docs/bench.md). Routes are kept in one router per literal prefix (`/api/rooms`,
 * `/api/tags`...), and a request only runs the router of its own prefix; the few patterns
 * with a parameter in their first two segments share a last router. Paths under different
 * literal prefixes can never match the same pattern, so "the route registered first wins"
 * still holds inside each router, which is the only place two patterns can overlap.
 */
export function createRouteIndex() {
  const routers = new Map<string, Router>();
  const rest = new Router();
  const chains = new Map<Router, Middleware>();
  const chainOf = (router: Router): Middleware => {
    let chain = chains.get(router);
    if (!chain) {
      const routes = router.routes();
      const allowed = router.allowedMethods();
      // As app.use(routes) then app.use(allowedMethods): a 405/501 is decided after what follows.
      chains.set(router, (chain = (ctx, next) => routes(ctx as never, () => allowedOrRefused(allowed, ctx, next))));
    }
    return chain;
  };
  return {
    register(path: string, methods: string[], middleware: Middleware[]): void {
      const key = literalPrefixOf(path);
      let router = key ? routers.get(key) : rest;
      if (!router) routers.set(key!, (router = new Router()));
      router.register(path, methods, middleware);
    },

    /** Runs the request's prefix router, then the parameter-prefixed routes, then what follows. */
    routes(): Middleware {
      return (ctx, next) => {
        const router = routers.get(prefixOf(ctx.path));
        const last = () => chainOf(rest)(ctx, next);
        return router ? chainOf(router)(ctx, last) : last();
      };
    },
  };
}

export type RouteIndex = ReturnType<typeof createRouteIndex>;
