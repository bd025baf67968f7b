import { timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { Context } from 'koa';
import { format, messages } from '@atendimento/schemas';
import { AppError } from '../../errors';
import type { Metrics } from '../../services/ops/metrics';
import type { Readiness, ReadinessCheck } from '../../services/ops/readiness';

export interface OpsDeps {
  metrics: Metrics;
  readiness: ReadinessCheck;
  draining(): boolean;
  /** METRICS_TOKEN; null: only direct callers from loopback or a private network. */
  metricsToken: string | null;
}

/**
 * Records a finished request for /metrics (run by the edge middleware after the error mapping,
 * so the status is the one the client got); the route label is the router's pattern (bounded
 * cardinality).
 */
export function observeRequest(ops: OpsDeps, ctx: Context, started: number): void {
  // Keep-alive sockets would hold the stopping server open: each answer while draining ends its connection.
  if (ops.draining()) ctx.set('Connection', 'close');
  const matched = (ctx as { _matchedRoute?: string })._matchedRoute;
  const path = ctx.path;
  const route = typeof matched === 'string' ? matched : path === '/metrics' || path.startsWith('/api/health') ? path : path.startsWith('/api/') ? 'unmatched' : 'static';
  const method = ctx.method;
  ops.metrics.observeRequest(method, route, ctx.status, (performance.now() - started) / 1000);
  if (method === 'POST' && path.startsWith('/api/webhooks/')) {
    const provider = path.split('/')[3] ?? 'unknown';
    const channel = typeof ctx.params?.channelId === 'string' && typeof matched === 'string' ? ctx.params.channelId : 'unknown';
    ops.metrics.observeIngest(provider, channel, ctx.status);
  }
}

function privateAddress(address: string): boolean {
  const ip = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(ip) === 4) {
    const [a, b] = ip.split('.').map(Number) as [number, number];
    return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
  }
  return ip === '::1' || /^f[cd][0-9a-f]{2}:/i.test(ip);
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Endpoints that answer for the process, not for a tenant, so the edge middleware runs them
 * before the tenant is resolved (a load balancer probes by IP): /metrics, /api/health/live,
 * /api/health/ready. While a graceful stop drains, every other request is answered 503 with
 * Retry-After. True when the request was answered here; a promise only when it had to wait
 * (every request passes here, tests/bench B1).
 */
export function answerOpsEndpoint(ops: OpsDeps, ctx: Context): boolean | Promise<boolean> {
  const path = ctx.path;
  if (path === '/api/health' && ctx.method === 'GET') {
    // The tenant's /api/health (web/routes/tenants) reports the same live/ready state.
    const known = ops.readiness.current();
    if (!known) return ops.readiness().then((state) => passOn(ops, ctx, state));
    return passOn(ops, ctx, known);
  }
  if (path === '/metrics' || path.startsWith('/api/health/')) return answerProbe(ops, ctx);
  return passOn(ops, ctx);
}

/** Lets the request on to the tenant's routes (with the readiness /api/health reports), unless the process is draining. */
function passOn(ops: OpsDeps, ctx: Context, readiness?: Readiness): false {
  if (readiness) (ctx.state as { readiness?: Readiness }).readiness = readiness;
  if (ops.draining()) {
    ctx.set('Connection', 'close');
    throw new AppError(503, 'shutting_down', messages.ops.shuttingDown, { headers: { 'Retry-After': '2' } });
  }
  return false;
}

async function answerProbe(ops: OpsDeps, ctx: Context): Promise<boolean> {
  const path = ctx.path;
  const get = ctx.method === 'GET';
  if (path === '/api/health/live' && get) {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { data: { live: true } };
    return true;
  }
  if (path === '/api/health/ready' && get) {
    const state = ops.readiness.current() ?? (await ops.readiness());
    ctx.set('Cache-Control', 'no-store');
    ctx.status = state.ready ? 200 : 503;
    const failing = Object.entries(state.checks).filter(([, ok]) => !ok).map(([name]) => name);
    ctx.body = state.ready
      ? { data: { live: true, ...state } }
      : { error: 'not_ready', errorMessage: format(messages.ops.notReady, { checks: failing.join(', ') }), data: { live: true, ...state } };
    return true;
  }
  if (path === '/metrics' && get) {
    const header = ctx.get('Authorization');
    const bearer = header.startsWith('Bearer ') ? header.slice(7) : '';
    // The socket's address, never X-Forwarded-For: behind a proxy on loopback every public
    // request would look local, so a forwarded request needs the token.
    const direct = !ctx.get('X-Forwarded-For') && privateAddress(ctx.req.socket.remoteAddress ?? '');
    const allowed = ops.metricsToken ? sameSecret(bearer, ops.metricsToken) : direct;
    if (!allowed) throw new AppError(ops.metricsToken ? 401 : 403, 'metrics_forbidden', messages.ops.metricsForbidden);
    ctx.set('Cache-Control', 'no-store');
    ctx.type = ops.metrics.contentType;
    ctx.body = await ops.metrics.text();
    return true;
  }
  return passOn(ops, ctx);
}
