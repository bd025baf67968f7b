import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnServer, type ServerProcess } from '../reliability/server-process';
import type { BenchLine } from './report';

/** Polls GET /api/health until it answers 200; resolves with the time that took from `since`. */
async function healthyAfter(baseUrl: () => string | null, since: number, timeoutMs = 60_000): Promise<number> {
  for (;;) {
    const url = baseUrl();
    if (url) {
      const ok = await fetch(`${url}/api/health`).then((r) => r.status === 200, () => false);
      if (ok) return performance.now() - since;
    }
    if (performance.now() - since > timeoutMs) throw new Error('bench restart: /api/health never answered');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Starts the built server (server/dist/main.mjs, as `npm start`) on `dataDir` and times it until healthy. */
async function start(env: Record<string, string>, since: number): Promise<{ proc: ServerProcess; ms: number }> {
  let proc: ServerProcess | null = null;
  const started = spawnServer(env).then((p) => (proc = p));
  const ms = await healthyAfter(() => (proc ? proc.baseUrl : null), since);
  return { proc: await started, ms };
}

/**
 * B12: kill -9 of a server that just wrote, then a restart on the same SQLite file, timed from
 * the kill until /api/health answers. Baseline: a clean stop (SIGTERM) and the same restart.
 */
export async function restartBench(rounds = 3): Promise<BenchLine[]> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-restart-'));
  const env = { DATA_DIR: dataDir, JWT_SECRET: randomBytes(32).toString('hex'), LOG_LEVEL: 'warn' };
  const killed: number[] = [];
  const clean: number[] = [];
  try {
    let { proc } = await start(env, performance.now());
    for (let i = 0; i < rounds; i++) {
      // Requests in flight when the process dies (failed sign-ins: reads and rate-limit writes).
      void Promise.all(Array.from({ length: 20 }, () => fetch(`${proc.baseUrl}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', host: proc.host }, body: '{"email":"x@y.z","password":"nao-existe"}' }).catch(() => null)));
      const t0 = performance.now();
      process.kill(proc.pid, 'SIGKILL');
      await waitExit(proc.pid);
      await proc.stop();
      const next = await start(env, t0);
      killed.push(next.ms);
      proc = next.proc;

      const t1 = performance.now();
      await stopKeepingData(proc);
      const again = await start(env, t1);
      clean.push(again.ms);
      proc = again.proc;
    }
    await stopKeepingData(proc);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const k = median(killed) / 1000;
  const c = median(clean) / 1000;
  return [{ id: 'B12', name: 'kill -9 recovery: kill until /api/health answers (median)', value: k, unit: 's', baselineName: 'SIGTERM + restart', baseline: c, ratio: k / c, target: '<= 5 s', met: k <= 5, note: `rounds: ${killed.map((x) => (x / 1000).toFixed(2)).join(', ')} s; includes starting node on the built server` }];
}

async function waitExit(pid: number): Promise<void> {
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** SIGTERM without removing the data dir (spawnServer's stop() removes its own temp dir only). */
async function stopKeepingData(proc: ServerProcess): Promise<void> {
  process.kill(proc.pid, 'SIGTERM');
  await waitExit(proc.pid);
  await proc.stop();
}
