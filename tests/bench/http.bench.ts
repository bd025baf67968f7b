import http from 'node:http';
import type { AddressInfo } from 'node:net';
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

/** B1: our Koa stack (request id, errors, headers, tenant, router) vs a bare node:http server. */
export async function httpBench(appUrl: string, seconds: number): Promise<BenchLine[]> {
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
  return lines;
}
