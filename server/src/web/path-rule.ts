/**
 * The one path-matching rule (docs/security.md): @koa/router matches paths
 * case-insensitively and ignores a trailing slash, so every other check on a path (API token
 * deny-list and scopes, tenant middleware, body-parser exceptions, security headers, the hub's
 * /ws) compares this form instead of the raw path. A check that compared the raw path let
 * `POST /api/GenerateToken` through a leaked token's deny-list while the router served it.
 */
export function routePath(path: string): string {
  // Every request runs this several times (tests/bench B1): a path already in the rule's form,
  // as nearly all are, is returned as it is, without allocating a copy.
  const lower = UPPER_CASE.test(path) ? path.toLowerCase() : path;
  if (lower.length > 0 && lower.charCodeAt(lower.length - 1) !== SLASH) return lower;
  const trimmed = lower.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

// Anything outside ASCII goes through toLowerCase too, as the router's case-insensitive match would.
const UPPER_CASE = /[A-Z\u0080-\uffff]/;
const SLASH = 47;

/** Whether `path` is `prefix` or below it, under the route rule (`/API/auth/` is below `/api/auth`). */
export function underPath(path: string, prefix: string): boolean {
  const p = routePath(path);
  const base = routePath(prefix);
  return p === base || p.startsWith(`${base}/`);
}
