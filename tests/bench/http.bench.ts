import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Duplex } from 'node:stream';
import Koa from 'koa';
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import type { BenchLine } from './report';

const autocannonBin = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

/**
 * Load comes from autocannon in a child process, so the load generator and the server under
 * test do not share one event loop (on 2 cores: one each).
 */
function load(url: string, seconds: number, pipelining: number): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [autocannonBin, '-c', '50', '-d', String(seconds), '-p', String(pipelining), '--json', url], { maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => {
      if (error) return reject(error);
      const result = JSON.parse(stdout);
      if (result.non2xx > 0 || result.errors > 0) return reject(new Error(`bench http: ${url} answered ${result.non2xx} non-2xx and ${result.errors} errors`));
      resolve(result.requests.average);
    });
  });
}

/** Serves one GET through `handler` over a socket that discards what is written: JavaScript only. */
function inject(handler: http.RequestListener, url: string, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = new Duplex({ write: (_c, _e, cb) => cb(), writev: (_c, cb) => cb(), read() {} });
    const req = new http.IncomingMessage(socket as never);
    Object.assign(req, { method: 'GET', url, headers: { host, 'user-agent': 'bench' }, httpVersion: '1.1', httpVersionMajor: 1, httpVersionMinor: 1 });
    req.push(null);
    const res = new http.ServerResponse(req);
    res.assignSocket(socket as never);
    res.on('finish', () => (res.statusCode === 200 ? resolve() : reject(new Error(`bench http: ${url} answered ${res.statusCode} in process`))));
    handler(req, res);
  });
}

/** Microseconds per request, best of five rounds: the figure moves less than throughput on a shared box. */
async function perRequest(handler: http.RequestListener, url: string, host: string): Promise<number> {
  let best = Infinity;
  for (let round = 0; round < 5; round++) {
    const start = performance.now();
    for (let i = 0; i < 5_000; i++) await inject(handler, url, host);
    best = Math.min(best, ((performance.now() - start) * 1000) / 5_000);
  }
  return best;
}

/**
 * B1: our Koa stack (request id, errors, headers, tenant, router) vs a bare node:http server;
 * B1c: the same request in process (no sockets, no load generator) vs Koa alone answering it,
 * the part of the cost that is ours (docs/bench.md).
 */
export async function httpBench(appUrl: string, seconds: number, app?: http.RequestListener): Promise<BenchLine[]> {
  const body = JSON.stringify({ data: { ok: true, tenantId: 'acme' } });
  const bare = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((r) => bare.listen(0, '127.0.0.1', () => r()));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;
  const lines: BenchLine[] = [];
  try {
    for (const pipelining of [1, 10]) {
      const ours = await load(`${appUrl}/api/health`, seconds, pipelining);
      const base = await load(bareUrl, seconds, pipelining);
      lines.push({
        id: pipelining === 1 ? 'B1a' : 'B1b', name: `Koa GET /api/health (pipelining ${pipelining})`, value: ours, unit: 'req/s',
        baselineName: 'bare node:http', baseline: base, ratio: ours / base, target: '>= 0.65x', met: ours / base >= 0.65,
      });
    }
  } finally {
    bare.close();
  }
  if (app) {
    const koa = new Koa();
    koa.use((ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { data: { ok: true, tenantId: 'acme', live: true, ready: true, checks: {} } };
    });
    const host = new URL(appUrl).host;
    const alone = await perRequest(koa.callback(), '/api/health', host);
    const ours = await perRequest(app, '/api/health', host);
    lines.push({ id: 'B1c', name: 'GET /api/health in process, JS per request', value: ours, unit: 'us', baselineName: 'Koa alone', baseline: alone, ratio: ours / alone, note: 'best of 5 rounds of 5,000; no target (explains B1a/b)' });
  }
  return lines;
}
