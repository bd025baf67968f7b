/**
 * What each thing our edge does costs on sockets (docs/bench.md "Where issue 22 ends"): B1's
 * `GET /api/health` answered by a ladder of servers, each rung one step more of what the
 * product's stack does, each in its own process (AsyncLocalStorage turns on promise hooks for
 * the whole process on Node 20, so rungs must not share one), measured with autocannon as B1 is,
 * rungs alternating over the rounds:
 *
 *   npx tsx tests/bench/tools/b1-ladder.ts [--seconds 4] [--rounds 3]   (LADDER_RUNGS=0,5,6: those rungs only)
 *
 * bare node:http → Koa alone → + security headers → + request id → + log context
 * (AsyncLocalStorage) → + metrics (prom-client) → the product's whole stack (createServer:
 * the edge as it is, tenant by Host, body step, route index).
 */
import http from 'node:http';
import { execFile, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { createServer, loadConfig } from '@atendimento/server';
import { createLogger, withLogContext } from '@atendimento/server/logger';
import { createMetrics } from '@atendimento/server/services/ops/metrics';
import { defaultAppConfig } from '@atendimento/server/services/tenants/default-app-config';
import { startRequest } from '@atendimento/server/web/middleware/request-id';
import { setSecurityHeaders } from '@atendimento/server/web/middleware/security-headers';
import { observeRequest, type OpsDeps } from '@atendimento/server/web/middleware/ops-endpoints';

const RUNGS = ['bare node:http', 'Koa alone', '+ security headers', '+ request id', '+ log context', '+ metrics', 'our whole stack'] as const;
const body = { data: { ok: true, tenantId: 'acme', live: true, ready: true, checks: { database: true, migrations: true, bus: true, accepting: true } } };

/** Koa with the first `steps` of the edge's steps, in the edge's order. */
function koaRung(steps: number): http.RequestListener {
  const ops: OpsDeps = {
    metrics: createMetrics({
      sockets: () => ({ connections: 0, authenticated: 0 }), changeFeed: () => ({ undelivered: 0 }), scheduler: () => ({ lagMs: 0, lastScanAt: null }),
      pool: () => ({ used: 0, free: 0, pending: 0, max: 0 }), queues: async () => ({ waitingChats: 0, campaignMessages: 0, dueDeadlines: 0 }), now: () => new Date(),
    }),
    readiness: Object.assign(async () => ({ live: true, ready: true, checks: {} }), { current: () => null }) as never,
    draining: () => false,
    metricsToken: null,
  };
  const koa = new Koa();
  const handler = (ctx: Koa.Context) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  };
  koa.use(async (ctx, next) => {
    const started = performance.now();
    const context = steps >= 2 ? startRequest(ctx) : null;
    const inner = async () => {
      await next();
      if (steps >= 1) setSecurityHeaders(ctx);
    };
    try {
      await (steps >= 3 && context ? withLogContext(context, inner) : inner());
    } finally {
      if (steps >= 4) observeRequest(ops, ctx, started);
    }
  });
  koa.use(handler);
  return koa.callback();
}

async function serve(rung: number): Promise<string> {
  if (rung === RUNGS.length - 1) {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'b1-ladder-'));
    process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
    const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, { port: 0, host: '127.0.0.1', defaultTenant: 'acme', staticDir: null, databaseUrl: null });
    const server = await createServer({ config, logger: createLogger('silent'), mailer: { send: async () => {}, close: () => {} } });
    await server.repos.tenants.create({ id: 'acme', name: 'Acme', active: true, appConfig: defaultAppConfig('acme', 'Acme') }, [], new Date());
    return `${await server.listen(0, '127.0.0.1')}/api/health`;
  }
  const text = JSON.stringify(body);
  const listener: http.RequestListener = rung === 0
    ? (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    }
    : koaRung(rung - 1);
  const server = http.createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/health`;
}

const autocannon = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

function load(url: string, seconds: number, pipelining: number): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [autocannon, '-c', '50', '-d', String(seconds), '-p', String(pipelining), '--json', url], { maxBuffer: 1 << 24 }, (error, stdout) => {
      if (error) return reject(error);
      const result = JSON.parse(stdout);
      if (result.non2xx > 0) return reject(new Error(`b1-ladder: ${url} answered ${result.non2xx} non-2xx`));
      resolve(result.requests.average);
    });
  });
}

async function main(): Promise<void> {
  if (process.env.B1_LADDER_RUNG) {
    process.send!({ url: await serve(Number(process.env.B1_LADDER_RUNG)) });
    process.on('disconnect', () => process.exit(0));
    return;
  }
  const arg = (name: string, fallback: number) => {
    const at = process.argv.indexOf(`--${name}`);
    return at > 0 ? Number(process.argv[at + 1]) : fallback;
  };
  const seconds = arg('seconds', 4);
  const rounds = arg('rounds', 3);
  const results = RUNGS.map(() => ({ p1: [] as number[], p10: [] as number[] }));
  const only = process.env.LADDER_RUNGS?.split(',').map(Number);
  for (let round = 0; round < rounds; round++) {
    for (let rung = 0; rung < RUNGS.length; rung++) {
      if (only && !only.includes(rung)) continue;
      const child = fork(fileURLToPath(import.meta.url), [], { execArgv: ['--import', 'tsx'], env: { ...process.env, B1_LADDER_RUNG: String(rung) } });
      const url = await new Promise<string>((resolve) => child.once('message', (m: { url: string }) => resolve(m.url)));
      await load(url, 1, 1); // JIT warm-up, not counted
      results[rung]!.p1.push(await load(url, seconds, 1));
      results[rung]!.p10.push(await load(url, seconds, 10));
      child.disconnect();
      await new Promise((resolve) => child.once('exit', resolve));
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const bare = results[0]!;
  console.log(`rung                 | p1 req/s (× bare) | 1/rate µs | p10 req/s (× bare) | rounds p1`);
  RUNGS.forEach((name, rung) => {
    const r = results[rung]!;
    if (!r.p1.length) return;
    const p1 = median(r.p1);
    const p10 = median(r.p10);
    console.log(`${name.padEnd(20)} | ${p1.toFixed(0).padStart(7)} (${(p1 / median(bare.p1)).toFixed(2)}×) | ${(1e6 / p1).toFixed(1).padStart(6)} | ${p10.toFixed(0).padStart(7)} (${(p10 / median(bare.p10)).toFixed(2)}×) | ${r.p1.map((x) => x.toFixed(0)).join(' ')}`);
  });
}

await main();
