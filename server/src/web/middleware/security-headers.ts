import type { Context } from 'koa';
import { routePath } from '../path-rule';

/**
 * The policy pages are served with: only our own scripts (no inline script), so stored HTML in
 * messages or registers cannot run even if a renderer slipped.
 */
const policy = (frameSources: string) =>
  `default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; media-src 'self' blob:; connect-src 'self' ws: wss:; font-src 'self' data:; frame-src 'self' blob:${frameSources}; object-src 'none'; frame-ancestors 'self'; base-uri 'self'`;
const CONTENT_SECURITY_POLICY = policy('');

/**
 * The tenant's pages the console frames (the quotes portal, seed 001 §8), by the request's Host:
 * only their origins join `frame-src`, so a page of one tenant never frames another's portal.
 */
export type FrameOrigins = (host: string) => Promise<string[]>;

/**
 * Every answer gets nosniff; documents (everything outside /api) also get the CSP and framing
 * rules. JSON answers are never rendered as documents, so they skip the long CSP header — it
 * is measurable on the hot path (tests/bench B1). Run by the edge middleware after the routes,
 * also when they threw (the error's answer needs these too); a promise only for documents (their
 * framed origins are the tenant's).
 */
export function setSecurityHeaders(ctx: Context, frameOrigins?: FrameOrigins): void | Promise<void> {
  // res.setHeader, not ctx.set: Koa's set builds arrays on every call (tests/bench B1).
  const res = ctx.res;
  if (res.headersSent) return;
  res.setHeader('X-Content-Type-Options', 'nosniff');
  const path = routePath(ctx.path);
  if (!path.startsWith('/api/')) {
    res.setHeader('Referrer-Policy', 'same-origin');
    res.setHeader('X-Frame-Options', 'SAMEORIGIN');
    if (!frameOrigins) return void res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    return frameOrigins(ctx.host || ctx.get('host')).catch(() => []).then((origins) => {
      if (!res.headersSent) res.setHeader('Content-Security-Policy', origins.length ? policy(` ${origins.join(' ')}`) : CONTENT_SECURITY_POLICY);
    });
  }
  if (path.startsWith('/api/files/')) {
    // Uploaded files are served from /api: they must not run scripts either (SVG, HTML).
    res.setHeader('Content-Security-Policy', "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox");
  }
}
