/**
 * `npm run bench`: every benchmark prints a figure, the in-run baseline it is compared with,
 * and the ratio; results go to bench/results/latest.json. Figures are not asserted: a slow
 * machine must not fail CI. BENCH_SECONDS (default 5) sets each measurement's duration;
 * BENCH_ONLY=B1,B8 runs a subset; BENCH_SOCKETS (2000) and BENCH_ROOMS (100000) size B5/B6
 * and B8 and B13 (dashboard); DATABASE_URL (PostgreSQL) adds B9, B13pg and B14 (routing; B14_CHATS, 5000). See docs/bench.md.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import argon2 from 'argon2';
import { createServer, loadConfig } from '@atendimento/server';
import { createLogger } from '@atendimento/server/logger';
import { ARGON2_PARAMS } from '@atendimento/server/services/auth/password';
import { defaultAppConfig } from '@atendimento/server/services/tenants/default-app-config';
import { httpBench } from './http.bench';
import { storageBench } from './storage.bench';
import { hubBench, ingestBench } from './hub.bench';
import { roomsBench } from './rooms.bench';
import { restartBench } from './restart.bench';
import { frontendBench, scrollBench } from './frontend.bench';
import { e2eBench } from './e2e.bench';
import { routingBench } from './routing.bench';
import { campaignBench } from './campaign.bench';
import { dashboardBench } from './dashboard.bench';
import { printTable, writeResults, percentile, type BenchLine } from './report';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
// B4 runs with B3, B6 with B5 (same setup).
const aliases: Record<string, string> = { B4: 'B3', B6: 'B5' };
const only = process.env.BENCH_ONLY ? process.env.BENCH_ONLY.split(',').map((s) => aliases[s.trim().toUpperCase()] ?? s.trim().toUpperCase()) : null;
const wanted = (id: string) => !only || only.includes(id);
const pgUrl = process.env.DATABASE_URL ?? '';

async function argonBench(): Promise<BenchLine> {
  const times: number[] = [];
  for (let i = 0; i < 20; i++) {
    const start = performance.now();
    await argon2.hash(`senha-${i}`, ARGON2_PARAMS);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const start = performance.now();
  for (let i = 0; i < 20; i++) randomBytes(32);
  const baseline = (performance.now() - start) / 20;
  const p50 = percentile(times, 50);
  return { id: 'B11', name: 'argon2id hash (m=19456, t=2, p=1), p50', value: p50, unit: 'ms', baselineName: 'randomBytes(32)', baseline, ratio: p50 / baseline, note: `p95 ${percentile(times, 95).toFixed(1)} ms over 20 hashes; no target (cost is chosen, not minimised)` };
}

async function main(): Promise<void> {
  const lines: BenchLine[] = [];
  const started = performance.now();
  console.log(`bench: ${seconds}s per measurement, node ${process.version}, ${os.cpus().length} cores${only ? `, only ${only.join(',')}` : ''}`);
  const step = async (id: string, fn: () => Promise<BenchLine[]>) => {
    if (!wanted(id)) return;
    const t = performance.now();
    const out = await fn();
    lines.push(...out);
    console.log(`  ${id} done in ${((performance.now() - t) / 1000).toFixed(1)} s: ${out.map((l) => `${l.id} ${l.value.toFixed(2)} ${l.unit}`).join('; ')}`);
  };
  await step('B1', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-'));
    const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, { port: 0, host: '127.0.0.1', defaultTenant: 'acme', staticDir: null, databaseUrl: null });
    const server = await createServer({ config, logger: createLogger('silent'), mailer: { send: async () => {}, close: () => {} } });
    await server.repos.tenants.create({ id: 'acme', name: 'Acme', active: true, appConfig: defaultAppConfig('acme', 'Acme') }, [], new Date());
    const url = await server.listen(0, '127.0.0.1');
    try {
      return await httpBench(url, seconds, server.app.callback());
    } finally {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
  await step('B2', () => ingestBench(seconds, { DATABASE_URL: '' }));
  await step('B3', () => storageBench(Math.max(1, Math.round(seconds / 2))));
  await step('B5', () => hubBench(seconds));
  // 3 s of webhooks at 200/s: 600 messages, each to the 100 agents of its tenant.
  await step('B7', () => e2eBench(Math.min(seconds, 3)));
  await step('B8', () => roomsBench(seconds));
  if (pgUrl) {
    await step('B9', async () => [...(await ingestBench(seconds, { DATABASE_URL: pgUrl }, 'B9', 'PostgreSQL')), ...(await roomsBench(seconds, undefined, { DATABASE_URL: pgUrl }, 'B9', 'PostgreSQL', ['d', 'e', 'f']))]);
  } else if (only?.includes('B9')) console.log('bench: B9 needs DATABASE_URL=postgres://...');
  await step('B10', async () => [...(await frontendBench()), ...(await scrollBench(seconds))]);
  await step('B11', async () => [await argonBench()]);
  await step('B12', () => restartBench());
  await step('B13', async () => [...(await dashboardBench(seconds)), ...(pgUrl ? await dashboardBench(seconds, undefined, { DATABASE_URL: pgUrl }, 'PostgreSQL', 'B13pg') : [])]);
  if (pgUrl) await step('B14', () => routingBench(pgUrl));
  else if (only?.includes('B14')) console.log('bench: B14 needs DATABASE_URL=postgres://...');
  await step('B15', () => campaignBench(seconds));
  printTable(lines);
  writeResults(lines);
  console.log(`bench took ${((performance.now() - started) / 1000 / 60).toFixed(1)} min`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
