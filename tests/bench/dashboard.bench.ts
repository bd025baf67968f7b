import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServer, loadConfig } from '@atendimento/server';
import { createLogger } from '@atendimento/server/logger';
import { defaultAppConfig } from '@atendimento/server/services/tenants/default-app-config';
import { channelRow, departmentRow } from '../helpers/rows';
import { percentile, type BenchLine } from './report';
import { seedRooms } from './rooms.bench';

const DAY = 86_400_000;
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

/**
 * B13: the dashboard at `rooms` rooms / `rooms * 10` messages spread over 90 days.
 * (a) `GET /api/dashboard/reports?days=90` p95 for an admin and (b) for a supervisor of one
 * department, target ≤ 100 ms; baseline: the naive query (rooms per day straight from
 * `rooms`). (c) the rebuild of the 90 days from raw data (how the counters were filed).
 * (d) the export of every room of the period (CSV, background job), peak RSS growth while it
 * runs, target ≤ 100 MB; baseline: the file's size.
 */
export async function dashboardBench(seconds: number, rooms = Number(process.env.BENCH_ROOMS ?? 100_000), env: Record<string, string> = {}, label = 'SQLite', id = 'B13'): Promise<BenchLine[]> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-dashboard-'));
  const schema = env.DATABASE_URL ? `bench_${randomBytes(4).toString('hex')}` : '';
  const config = loadConfig(
    { ...process.env, DATABASE_URL: '', ...env, DATA_DIR: dataDir, DATABASE_SCHEMA: schema, LOG_LEVEL: 'silent' },
    { port: 0, host: '127.0.0.1', jwtSecret: randomBytes(32).toString('hex'), defaultTenant: 'acme', staticDir: null },
  );
  const server = await createServer({ config, logger: createLogger('silent'), mailer: { send: async () => {}, close: () => {} }, startMail: false });
  const db = server.db;
  const pg = db.client.config.client === 'pg';
  try {
    const now = server.clock.now();
    const iso = now.toISOString();
    await server.repos.tenants.create({ id: 'acme', name: 'Acme', active: true, appConfig: defaultAppConfig('acme', 'Acme') }, ['acme.test'], now);
    await server.repos.users.create('acme', { id: 'admin', email: 'admin@acme.test', displayName: 'Admin', passwordHash: 'x', emailVerified: true, claims: { admin: true } }, now);
    await server.repos.users.create('acme', { id: 'sup', email: 'sup@acme.test', displayName: 'Supervisora', passwordHash: 'x', emailVerified: true, claims: { dashboard: true } }, now);
    await db('departments').insert([departmentRow('acme', { id: 'vendas', displayName: 'Vendas', supervisors: ['sup'] }, iso), departmentRow('acme', { id: 'suporte', displayName: 'Suporte' }, iso)]);
    await db('department_members').insert({ tenant_id: 'acme', department_id: 'vendas', user_id: 'sup', role: 'supervisor' });
    await db('channels').insert(channelRow('acme', { id: 'site', type: 'webchat', displayName: 'Site', departmentId: 'vendas' }, iso));
    const tokenOf = async (userId: string) => {
      const sid = randomUUID();
      await server.repos.sessions.createSession('acme', { id: sid, userId, ip: null, userAgent: 'bench' }, now);
      return server.services.tokens.sign({ sub: userId, tid: 'acme', sid, typ: 'user' }, now);
    };
    const adminToken = await tokenOf('admin');
    const supToken = await tokenOf('sup');
    const url = (await server.listen(0, '127.0.0.1')).replace('localhost', '127.0.0.1');
    const session = await fetch(`${url}/api/webchat/site/session`, { method: 'POST', headers: { host: 'acme.test', 'content-type': 'application/json' }, body: JSON.stringify({ text: 'Olá, quero saber do meu pedido', displayName: 'Visitante', clientId: randomUUID() }) });
    if (session.status !== 200) throw new Error(`bench dashboard: session answered ${session.status}`);

    await seedRooms(server, rooms, 10);
    // Spread the rooms over the last 89 days, every other one in 'suporte', one in three closed.
    const span = Math.floor((89 * DAY) / 1000 / rooms);
    const n = pg ? "cast(substr(id, 2) as integer)" : 'cast(substr(id, 2) as integer)';
    const created = pg ? `to_char((now() at time zone 'utc') - (${n} * ${span}) * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')` : `strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || (${n} * ${span}) || ' seconds')`;
    const closed = pg ? `to_char((now() at time zone 'utc') - (${n} * ${span} - 900) * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')` : `strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || (${n} * ${span} - 900) || ' seconds')`;
    await db.raw(`update rooms set created_at = ${created}, department_id = case when ${n} % 2 = 0 then 'suporte' else 'vendas' end, closed_at = case when ${n} % 3 = 0 then ${closed} else null end, nps_value = case when ${n} % 6 = 0 then ${n} % 11 else null end where tenant_id = 'acme' and id like 'r%'`);
    await db.raw('analyze');

    const tz = 'America/Sao_Paulo';
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: tz }).format(now);
    const from = new Date(Date.parse(`${today}T00:00:00Z`) - 90 * DAY).toISOString().slice(0, 10);
    const rebuildStart = performance.now();
    const rebuilt = await server.services.reports.rebuild('acme', from, today);
    const rebuildMs = performance.now() - rebuildStart;

    const measure = async (token: string, query: string) => {
      const times: number[] = [];
      const until = performance.now() + seconds * 1000;
      let days = 0;
      while (performance.now() < until || times.length < 20) {
        const start = performance.now();
        const res = await fetch(`${url}/api/dashboard/reports?${query}`, { headers: { host: 'acme.test', authorization: `Bearer ${token}` } });
        const body = (await res.json()) as { data?: { days: unknown[] } };
        times.push(performance.now() - start);
        if (res.status !== 200) throw new Error(`bench dashboard: answered ${res.status}`);
        days = body.data!.days.length;
        if (times.length >= 2000) break;
      }
      times.sort((a, b) => a - b);
      return { p95: percentile(times, 95), p50: percentile(times, 50), count: times.length, days };
    };
    const admin = await measure(adminToken, 'days=90');
    const supervisor = await measure(supToken, 'days=90');
    // Baseline: what answering from raw rows costs for one figure (rooms per day, 90 days).
    const naiveTimes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      await db('rooms').where('tenant_id', 'acme').andWhere('created_at', '>=', `${from}T00:00:00.000Z`).select(db.raw('substr(created_at, 1, 10) as day')).count({ c: '*' }).groupByRaw('substr(created_at, 1, 10)');
      naiveTimes.push(performance.now() - start);
    }
    naiveTimes.sort((a, b) => a - b);
    const naive = percentile(naiveTimes, 50);

    // (d, e) the export of the whole period as CSV and as JSON, RSS sampled every 20 ms while it runs.
    const yesterday = new Date(Date.parse(`${today}T00:00:00Z`) - DAY).toISOString().slice(0, 10);
    const measureExport = async (fileType: 'csv' | 'json') => {
      if (global.gc) global.gc();
      const startUsage = process.memoryUsage();
      const rssStart = startUsage.rss;
      let peak = rssStart;
      // Where growth sits: V8's heap (reserved and used) or outside it (native, buffers).
      let heapTotalPeak = startUsage.heapTotal;
      let heapUsedPeak = startUsage.heapUsed;
      let externalPeak = startUsage.external;
      const sampler = setInterval(() => {
        const usage = process.memoryUsage();
        peak = Math.max(peak, usage.rss);
        heapTotalPeak = Math.max(heapTotalPeak, usage.heapTotal);
        heapUsedPeak = Math.max(heapUsedPeak, usage.heapUsed);
        externalPeak = Math.max(externalPeak, usage.external);
      }, 20);
      const exportStart = performance.now();
      const started = await fetch(`${url}/api/dashboard/export`, {
        method: 'POST',
        headers: { host: 'acme.test', authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ period: [new Date(Date.parse(`${yesterday}T00:00:00Z`) - 89 * DAY).toISOString().slice(0, 10), yesterday], fileType, timezone: 'UTC', reference: 'createdAt' }),
      });
      const job = ((await started.json()) as { data: { id: string } }).data;
      let state = { status: 'running', rows: 0, bytes: 0 };
      while (state.status === 'running' || state.status === 'queued') {
        await new Promise((r) => setTimeout(r, 50));
        state = await server.services.reportExports.progress('acme', 'admin', job.id);
      }
      clearInterval(sampler);
      const exportMs = performance.now() - exportStart;
      if (state.status !== 'sent') throw new Error(`bench dashboard: the ${fileType} export failed`);
      return {
        rows: state.rows, growthMb: (peak - rssStart) / 1024 / 1024, fileMb: state.bytes / 1024 / 1024,
        note: `${(exportMs / 1000).toFixed(1)} s; growth of V8 heap reserved ${mb(heapTotalPeak - startUsage.heapTotal)} MB, used ${mb(heapUsedPeak - startUsage.heapUsed)} MB, external ${mb(externalPeak - startUsage.external)} MB`,
      };
    };
    const csv = await measureExport('csv');
    const json = await measureExport('json');

    const tag = `${label}, ${rooms.toLocaleString('en-US')} rooms / ${(rooms * 10).toLocaleString('en-US')} messages over 90 days`;
    return [
      { id: `${id}a`, name: `GET /api/dashboard/reports?days=90 p95, admin (${tag})`, value: admin.p95, unit: 'ms', baselineName: 'naive rooms-per-day query on raw rows', baseline: naive, ratio: naive / admin.p95, target: '≤ 100 ms', met: admin.p95 <= 100, note: `p50 ${admin.p50.toFixed(1)} ms over ${admin.count} calls, ${admin.days} days answered` },
      { id: `${id}b`, name: `GET /api/dashboard/reports?days=90 p95, supervisor of 1 of 2 departments (${label})`, value: supervisor.p95, unit: 'ms', baselineName: 'admin p95', baseline: admin.p95, ratio: supervisor.p95 / admin.p95, target: '≤ 100 ms', met: supervisor.p95 <= 100, note: `p50 ${supervisor.p50.toFixed(1)} ms over ${supervisor.count} calls` },
      { id: `${id}c`, name: `reports rebuild of 91 days from raw data (${label})`, value: rebuildMs / 1000, unit: 's', note: `${rebuilt.rooms} rooms re-filed` },
      ...([['d', 'CSV', csv], ['e', 'JSON', json]] as const).map(([suffix, kind, e]) => ({
        id: `${id}${suffix}`, name: `export of ${e.rows.toLocaleString('en-US')} rooms (${kind}, background, ${label}): peak RSS growth`, value: e.growthMb, unit: 'MB',
        baselineName: 'file size', baseline: e.fileMb, ratio: e.growthMb / e.fileMb, target: '≤ 100 MB', met: e.growthMb <= 100, note: e.note,
      })),
    ];
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
