import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { createServer, loadConfig } from '@atendimento/server';
import { createLogger } from '@atendimento/server/logger';
import { defaultAppConfig } from '@atendimento/server/services/tenants/default-app-config';
import { channelRow } from '../helpers/rows';
import { stopServerNow } from '../helpers/stop-server';
import { percentile, type BenchLine } from './report';

type Server = Awaited<ReturnType<typeof createServer>>;

/**
 * Clones the room and message a real web-chat session wrote into `rooms` rooms with
 * `perRoom` messages each: raw `insert ... select` over a recursive counter, one transaction.
 */
export async function seedRooms(server: Server, rooms: number, perRoom: number): Promise<void> {
  const db = server.db;
  const pg = db.client.config.client === 'pg';
  const seq = (n: number) => `with recursive seq(n) as (select 1 union all select n + 1 from seq where n < ${n})`;
  // Timestamps: one room per second back from now, messages a second apart inside a room.
  const ts = (expr: string) => (pg ? `to_char((now() at time zone 'utc') - (${expr}) * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')` : `strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || (${expr}) || ' seconds')`);
  const set = pg ? (json: string, pairs: [string, string][]) => pairs.reduce((acc, [k, v]) => `jsonb_set(${acc}, '{${k}}', to_jsonb(${v}))`, `${json}::jsonb`) : (json: string, pairs: [string, string][]) => `json_set(${json}, ${pairs.map(([k, v]) => `'$.${k}', ${v}`).join(', ')})`;
  const cat = (...parts: string[]) => parts.join(' || ');
  const rid = (expr: string) => cat(`'r'`, `cast(${expr} as text)`);
  await db.transaction(async (trx) => {
    await trx.raw(`${seq(rooms)}
      insert into rooms (id, tenant_id, data, created_at, updated_at, deleted_at, room_inc, chat_id, channel, channel_id, contact_id, department_id, destination, active, in_attend, unread, internal, public_token, last_message_at, closed_at, unread_count, on_hold, hide, nps_value, csat_value, origin, chat_id_tail, author_name, open_key)
      select ${rid('n')}, tenant_id, ${set('data', [['id', rid('n')], ['roomInc', 'n + 1'], ['lastMessageAt', ts('n')], ['publicToken', cat(`'p'`, 'cast(n as text)')]])}, created_at, updated_at, deleted_at, n + 1, ${cat('chat_id', `'.'`, 'cast(n as text)')}, channel, channel_id, contact_id, department_id, destination, active, in_attend, unread, internal, ${cat(`'p'`, 'cast(n as text)')}, ${ts('n')}, closed_at, unread_count, on_hold, hide, nps_value, csat_value, origin, chat_id_tail, author_name, ${cat('open_key', `'.'`, 'cast(n as text)')}
      from rooms cross join seq where rooms.tenant_id = 'acme'`);
    await trx.raw(`${seq(rooms * perRoom)}
      insert into messages (id, tenant_id, room_id, channel_id, external_id, author_type, author_id, type, status, data, created_at, updated_at, idempotency_key, annotation, deleted_data)
      select ${cat(`'m'`, 'cast(n as text)')}, tenant_id, ${rid(`(n - 1) / ${perRoom} + 1`)}, channel_id, ${cat(`'x'`, 'cast(n as text)')}, author_type, author_id, type, status, ${set('data', [['id', cat(`'m'`, 'cast(n as text)')], ['roomId', rid(`(n - 1) / ${perRoom} + 1`)]])}, ${ts(`(n - 1) / ${perRoom} + (n % ${perRoom}) * 0.001`)}, updated_at, null, annotation, null
      from messages cross join seq where messages.tenant_id = 'acme'`);
  });
  if (pg) await db.raw('analyze');
  else await db.raw('analyze');
}

/**
 * B8: GET /api/rooms (first page, admin, newest first) at `rooms` rooms / `rooms * 10`
 * messages: p95 over the HTTP call and the SQL statements the request ran (knex 'query'
 * events), for page sizes 25 and 100. Baseline: the page's own SELECT run raw on better-sqlite3.
 */
export async function roomsBench(seconds: number, rooms = Number(process.env.BENCH_ROOMS ?? 100_000), env: Record<string, string> = {}, id = 'B8', label = 'SQLite', suffix = ['a', 'b', 'c']): Promise<BenchLine[]> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-rooms-'));
  const schema = env.DATABASE_URL ? `bench_${randomBytes(4).toString('hex')}` : '';
  const config = loadConfig(
    { ...process.env, DATABASE_URL: '', ...env, DATA_DIR: dataDir, DATABASE_SCHEMA: schema, LOG_LEVEL: 'silent' },
    { port: 0, host: '127.0.0.1', jwtSecret: randomBytes(32).toString('hex'), defaultTenant: 'acme', staticDir: null },
  );
  const server = await createServer({ config, logger: createLogger('silent'), mailer: { send: async () => {}, close: () => {} } });
  try {
    const now = server.clock.now();
    const iso = now.toISOString();
    await server.repos.tenants.create({ id: 'acme', name: 'Acme', active: true, appConfig: defaultAppConfig('acme', 'Acme') }, ['acme.test'], now);
    await server.repos.users.create('acme', { id: 'admin', email: 'admin@acme.test', displayName: 'Admin', passwordHash: 'x', emailVerified: true, claims: { admin: true } }, now);
    await server.db('channels').insert(channelRow('acme', { id: 'site', type: 'webchat', displayName: 'Site', departmentId: null }, iso));
    const sid = randomUUID();
    await server.repos.sessions.createSession('acme', { id: sid, userId: 'admin', ip: null, userAgent: 'bench' }, now);
    const token = await server.services.tokens.sign({ sub: 'admin', tid: 'acme', sid, typ: 'user' }, now);
    const url = (await server.listen(0, '127.0.0.1')).replace('localhost', '127.0.0.1');
    const session = await fetch(`${url}/api/webchat/site/session`, { method: 'POST', headers: { host: 'acme.test', 'content-type': 'application/json' }, body: JSON.stringify({ text: 'Olá, quero saber do meu pedido', displayName: 'Visitante', clientId: randomUUID() }) });
    if (session.status !== 200) throw new Error(`bench rooms: session answered ${session.status}`);

    const seedStart = performance.now();
    await seedRooms(server, rooms, 10);
    const seedMs = performance.now() - seedStart;

    let statements: { sql: string; bindings: unknown[] }[] = [];
    server.db.on('query', (q: { sql: string; bindings?: unknown[] }) => statements.push({ sql: q.sql, bindings: q.bindings ?? [] }));
    const page = async (limit: number) => {
      statements = [];
      const start = performance.now();
      const res = await fetch(`${url}/api/rooms?tab=queuesChats&limit=${limit}`, { headers: { host: 'acme.test', authorization: `Bearer ${token}` } });
      const body = (await res.json()) as { data?: unknown[] };
      const ms = performance.now() - start;
      if (res.status !== 200 || body.data?.length !== limit) throw new Error(`bench rooms: GET /api/rooms answered ${res.status} with ${body.data?.length} rooms`);
      return { ms, count: statements.length, select: statements.find((s) => /from [`"]rooms[`"]/.test(s.sql) && /limit/i.test(s.sql)) };
    };
    const measure = async (limit: number) => {
      const times: number[] = [];
      const first = await page(limit);
      // Fewest statements seen: a background statement (change feed, pruner) that runs during
      // one request is not the page's.
      let count = first.count;
      const until = performance.now() + seconds * 1000;
      while (performance.now() < until || times.length < 20) {
        const r = await page(limit);
        times.push(r.ms);
        count = Math.min(count, r.count);
      }
      times.sort((a, b) => a - b);
      return { p95: percentile(times, 95), p50: percentile(times, 50), n: times.length, statements: count, select: first.select };
    };
    const p25 = await measure(25);
    const p100 = await measure(100);

    let baseline: number | undefined;
    let baselineName: string | undefined;
    if (!env.DATABASE_URL && p25.select) {
      const raw = new Database(config.sqliteFile, { readonly: true });
      const stmt = raw.prepare(p25.select.sql);
      const bind = p25.select.bindings.map((b) => (typeof b === 'boolean' ? Number(b) : b));
      const times: number[] = [];
      for (let i = 0; i < 200; i++) {
        const start = performance.now();
        stmt.all(...bind);
        times.push(performance.now() - start);
      }
      raw.close();
      times.sort((a, b) => a - b);
      baseline = percentile(times, 95);
      baselineName = 'same SELECT, raw better-sqlite3';
    }
    return [
      {
        id: `${id}${suffix[0]}`, name: `room list first page, 25 rooms (${rooms / 1000}k rooms / ${rooms / 100}k messages, ${label}), p95`, value: p25.p95, unit: 'ms',
        baselineName, baseline, ratio: baseline ? p25.p95 / baseline : undefined, target: '<= 50 ms', met: p25.p95 <= 50,
        note: `p50 ${p25.p50.toFixed(1)} ms over ${p25.n} requests; seeded in ${(seedMs / 1000).toFixed(1)} s`,
      },
      { id: `${id}${suffix[1]}`, name: `room list first page, 100 rooms (${label}), p95`, value: p100.p95, unit: 'ms', target: '<= 50 ms', met: p100.p95 <= 50, note: `p50 ${p100.p50.toFixed(1)} ms over ${p100.n} requests` },
      { id: `${id}${suffix[2]}`, name: `SQL statements per page (25 vs 100 rooms, ${label})`, value: p25.statements, unit: 'statements', baselineName: 'page of 100', baseline: p100.statements, ratio: p100.statements / p25.statements, target: 'constant in page size', met: p25.statements === p100.statements },
    ];
  } finally {
    await stopServerNow(server, { schema });
    rmSync(dataDir, { recursive: true, force: true });
  }
}
