/**
 * `npm run bench`: every benchmark prints a figure, the in-run baseline it is compared with,
 * and the ratio; results go to bench/results/latest.json. Figures are not asserted: a slow
 * machine must not fail CI. BENCH_SECONDS (default 5) sets each measurement's duration.
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
import { printTable, writeResults, percentile, type BenchLine } from './report';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);

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
  return { id: 'B11', name: 'argon2id hash (m=19456, t=2, p=1), p50', value: percentile(times, 50), unit: 'ms', baselineName: 'randomBytes(32)', baseline, note: `p95 ${percentile(times, 95).toFixed(1)} ms over 20 hashes` };
}

async function main(): Promise<void> {
  const lines: BenchLine[] = [];
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-'));
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, { port: 0, host: '127.0.0.1', defaultTenant: 'acme', staticDir: null, databaseUrl: null });
  const server = await createServer({ config, logger: createLogger('silent'), mailer: { send: async () => {}, close: () => {} } });
  await server.repos.tenants.create({ id: 'acme', name: 'Acme', active: true, appConfig: defaultAppConfig('acme', 'Acme') }, [], new Date());
  const url = await server.listen(0, '127.0.0.1');
  try {
    console.log(`bench: ${seconds}s per measurement, node ${process.version}, ${os.cpus().length} cores`);
    lines.push(...(await httpBench(url, seconds)));
    lines.push(...(await storageBench(Math.max(1, Math.round(seconds / 2)))));
    lines.push(await argonBench());
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  printTable(lines);
  writeResults(lines);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
