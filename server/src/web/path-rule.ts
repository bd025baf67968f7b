/**
 * The one path-matching rule (docs/security.md): @koa/router matches paths
 * case-insensitively and ignores a trailing slash, so every other check on a path (API token
 * deny-list and scopes, tenant middleware, body-parser exceptions, security headers, the hub's
 * /ws) compares this form instead of the raw path. A check that compared the raw path let
 * `POST /api/GenerateToken` through a leaked token's deny-list while the router served it.
 */
export function routePath(path: string): string {
  const lower = path.toLowerCase();
  const trimmed = lower.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/** Whether `path` is `prefix` or below it, under the route rule (`/API/auth/` is below `/api/auth`). */
export function underPath(path: string, prefix: string): boolean {
  const p = routePath(path);
  const base = routePath(prefix);
  return p === base || p.startsWith(`${base}/`);
}
