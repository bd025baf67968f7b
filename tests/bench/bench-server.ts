/**
 * The server under test for the hub and ingest benchmarks, in its own process (the load
 * generator and 2,000 client sockets live in the bench process, so the two do not share an
 * event loop and RSS is the server's alone). Started by hub.bench.ts with an IPC channel:
 *
 * - BENCH_MODE=app: the real server (SQLite in a temp dir, or PostgreSQL when DATABASE_URL is
 *   set) with tenant acme (host acme.test), an admin, a web-chat channel and one visitor room.
 * - BENCH_MODE=bare: a bare `ws` server (the in-run baseline): no auth, broadcasts on request.
 *
 * BENCH_HEAP_PROF=/dir writes a sampling heap profile of the run (startHeapProfile).
 * IPC in: { type: 'rss' } (after a full GC), { type: 'cpu' } and, in bare mode, { type: 'broadcast', bytes }.
 * IPC out: { type: 'ready', ... } once listening, { type: 'rss', rss } / { type: 'cpu', cpu } on request.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import inspector from 'node:inspector';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, WebSocket } from 'ws';
import { createServer, loadConfig } from '@atendimento/server';
import { createLogger } from '@atendimento/server/logger';
import { defaultAppConfig } from '@atendimento/server/services/tenants/default-app-config';
import { toJson } from '@atendimento/server/db/knex';
import { stopServerNow } from '../helpers/stop-server';

/** The app secret of the bench's Meta channel 'wa-meta' (hub.bench.ts signs with the same). */
const META_APP_SECRET = 'segredo-do-app-bench';

export interface BenchServerReady {
  type: 'ready';
  url: string;
  host: string;
  token?: string;
  roomId?: string;
  visitorKey?: string;
  rss: number;
  /** BENCH_TENANTS=n: tenants t0..t{n-1} (hosts t0.test…), each with a Meta channel `wa-t{i}` and an admin token. */
  tenants?: { host: string; token: string; channelId: string }[];
}

const send = (msg: object) => process.send!(msg);
const rss = () => {
  (globalThis as { gc?: () => void }).gc?.();
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss;
};

async function bare(): Promise<void> {
  // POST answers 201 with a small JSON after reading and parsing the body (ingest baseline).
  const httpServer = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString()) as { clientId?: string }) : {};
      const out = JSON.stringify({ meta: { ok: true }, data: { id: body.clientId ?? null } });
      res.writeHead(201, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(out) });
      res.end(out);
    });
  });
  const wss = new WebSocketServer({ server: httpServer, perMessageDeflate: false });
  await new Promise<void>((r) => httpServer.listen(0, '127.0.0.1', () => r()));
  process.on('disconnect', () => process.exit(0));
  process.on('message', (m: { type: string; bytes?: number; seq?: number }) => {
    if (m.type === 'rss') send({ type: 'rss', rss: rss() });
    if (m.type === 'cpu') send({ type: 'cpu', cpu: process.cpuUsage() });
    if (m.type === 'broadcast') {
      const frame = JSON.stringify({ type: 'changes', seq: m.seq, text: 'x'.repeat(m.bytes ?? 1024) });
      for (const ws of wss.clients) if (ws.readyState === WebSocket.OPEN) ws.send(frame);
    }
  });
  send({ type: 'ready', url: `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`, host: 'bare', rss: rss() } satisfies BenchServerReady);
}

/**
 * BENCH_HEAP_PROF=/dir: a sampling heap profile of everything the server allocates from ready
 * to the end, garbage included (what the minor GCs pay for), written as <pid>.heapprofile.
 */
function startHeapProfile(): (() => Promise<void>) | null {
  const dir = process.env.BENCH_HEAP_PROF;
  if (!dir) return null;
  const session = new inspector.Session();
  session.connect();
  const post = (method: string, params: object = {}) =>
    new Promise<{ profile?: unknown }>((resolve, reject) => session.post(method, params, (err, result) => (err ? reject(err) : resolve(result as { profile?: unknown }))));
  void post('HeapProfiler.enable').then(() => post('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true }));
  return async () => {
    const { profile } = await post('HeapProfiler.stopSampling');
    writeFileSync(path.join(dir, `${process.pid}.heapprofile`), JSON.stringify(profile));
  };
}

async function app(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-server-'));
  const schema = process.env.DATABASE_URL ? `bench_${randomBytes(4).toString('hex')}` : '';
  const config = loadConfig(
    // The benchmarks open thousands of sockets from 127.0.0.1: no per-address caps.
    { CONN_MAX_PER_IP: '0', WS_MAX_PER_IP: '0', ...process.env, DATA_DIR: dataDir, DATABASE_SCHEMA: schema, LOG_LEVEL: 'silent', BUS: 'memory' },
    { port: 0, host: '127.0.0.1', jwtSecret: randomBytes(32).toString('hex'), defaultTenant: 'acme', staticDir: null },
  );
  const server = await createServer({ config, logger: createLogger('silent'), mailer: { send: async () => {}, close: () => {} } });
  const now = server.clock.now();
  const iso = now.toISOString();
  await server.repos.tenants.create({ id: 'acme', name: 'Acme', active: true, appConfig: defaultAppConfig('acme', 'Acme') }, ['acme.test'], now);
  await server.repos.users.create('acme', { id: 'admin', email: 'admin@acme.test', displayName: 'Admin', passwordHash: 'x', emailVerified: true, claims: { admin: true } }, now);
  await server.db('departments').insert({
    id: 'vendas', tenant_id: 'acme', display_name: 'Vendas', active: true, created_at: iso, updated_at: iso, deleted_at: null,
    data: toJson({ id: 'vendas', displayName: 'Vendas', active: true, agents: [], supervisors: [], lifeControl: { createdAt: iso, deletedAt: null } }),
  });
  await server.db('channels').insert({
    id: 'site', tenant_id: 'acme', type: 'webchat', display_name: 'Site', active: true, created_at: iso, updated_at: iso, deleted_at: null,
    data: toJson({ id: 'site', type: 'webchat', displayName: 'Site', active: true, hide: false, color: '#1976D2', menuOrder: 0, migrated: true, claims: {}, departmentId: 'vendas' }),
  });
  // A Meta WhatsApp channel (B2): inbound webhooks are verified with appSecret; nothing in the
  // text path calls the provider, so baseUrl points nowhere.
  await server.db('channels').insert({
    id: 'wa-meta', tenant_id: 'acme', type: 'meta', display_name: 'WhatsApp', active: true, created_at: iso, updated_at: iso, deleted_at: null,
    data: toJson({
      id: 'wa-meta', type: 'meta', displayName: 'WhatsApp', active: true, hide: false, color: '#25D366', menuOrder: 0, migrated: true, claims: {}, departmentId: 'vendas', phoneNumber: '972123456789',
      provider: { baseUrl: 'http://127.0.0.1:9', apiVersion: 'v21.0', appSecret: META_APP_SECRET, verifyToken: 'bench', accessToken: 'bench', phoneNumberId: '1122334455667', businessAccountId: 'WABA1' },
    }),
  });
  const sid = randomUUID();
  await server.repos.sessions.createSession('acme', { id: sid, userId: 'admin', ip: null, userAgent: 'bench' }, now);
  const token = await server.services.tokens.sign({ sub: 'admin', tid: 'acme', sid, typ: 'user' }, now);
  const url = (await server.listen(0, '127.0.0.1')).replace('localhost', '127.0.0.1');
  const res = await fetch(`${url}/api/webchat/site/session`, {
    method: 'POST',
    headers: { host: 'acme.test', 'content-type': 'application/json' },
    body: JSON.stringify({ text: 'Olá', displayName: 'Visitante', clientId: randomUUID() }),
  });
  if (res.status !== 200) throw new Error(`bench-server: webchat session answered ${res.status} ${await res.text()}`);
  const session = ((await res.json()) as { data: { roomId: string; visitorKey: string } }).data;

  process.on('message', (m: { type: string }) => {
    if (m.type === 'rss') send({ type: 'rss', rss: rss() });
    if (m.type === 'cpu') send({ type: 'cpu', cpu: process.cpuUsage() });
    // After the warm-up: the planner's statistics of tables that grew from empty during it, as
    // PostgreSQL's autovacuum takes them within a minute on a server that has been up (SQLite: none).
    if (m.type === 'analyze') void (schema ? server.db.raw('analyze') : Promise.resolve()).then(() => send({ type: 'analyzed' }));
  });
  const heapProfile = startHeapProfile();
  process.on('disconnect', () => {
    void (async () => {
      await heapProfile?.();
      await stopServerNow(server, { schema }).catch(() => {});
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    })();
  });
  const tenants: { host: string; token: string; channelId: string }[] = [];
  for (let i = 0; i < Number(process.env.BENCH_TENANTS ?? 0); i++) tenants.push(await seedTenant(server, `t${i}`));
  send({ type: 'ready', url, host: 'acme.test', token, roomId: session.roomId, visitorKey: session.visitorKey, rss: rss(), tenants } satisfies BenchServerReady);
}

type Server = Awaited<ReturnType<typeof createServer>>;

/** A tenant with an admin, department vendas and the Meta channel 'wa-meta' (B7). */
async function seedTenant(server: Server, id: string): Promise<{ host: string; token: string; channelId: string }> {
  const now = server.clock.now();
  const iso = now.toISOString();
  await server.repos.tenants.create({ id, name: `Empresa ${id}`, active: true, appConfig: defaultAppConfig(id, `Empresa ${id}`) }, [`${id}.test`], now);
  await server.repos.users.create(id, { id: `${id}-admin`, email: `admin@${id}.test`, displayName: 'Admin', passwordHash: 'x', emailVerified: true, claims: { admin: true } }, now);
  await server.db('departments').insert({
    id: `${id}-vendas`, tenant_id: id, display_name: 'Vendas', active: true, created_at: iso, updated_at: iso, deleted_at: null,
    data: toJson({ id: `${id}-vendas`, displayName: 'Vendas', active: true, agents: [], supervisors: [], lifeControl: { createdAt: iso, deletedAt: null } }),
  });
  await server.db('channels').insert({
    id: `wa-${id}`, tenant_id: id, type: 'meta', display_name: 'WhatsApp', active: true, created_at: iso, updated_at: iso, deleted_at: null,
    data: toJson({
      id: `wa-${id}`, type: 'meta', displayName: 'WhatsApp', active: true, hide: false, color: '#25D366', menuOrder: 0, migrated: true, claims: {}, departmentId: `${id}-vendas`, phoneNumber: '972123456789',
      provider: { baseUrl: 'http://127.0.0.1:9', apiVersion: 'v21.0', appSecret: META_APP_SECRET, verifyToken: 'bench', accessToken: 'bench', phoneNumberId: '1122334455667', businessAccountId: 'WABA1' },
    }),
  });
  const sid = randomUUID();
  await server.repos.sessions.createSession(id, { id: sid, userId: `${id}-admin`, ip: null, userAgent: 'bench' }, now);
  return { host: `${id}.test`, channelId: `wa-${id}`, token: await server.services.tokens.sign({ sub: `${id}-admin`, tid: id, sid, typ: 'user' }, now) };
}

(process.env.BENCH_MODE === 'bare' ? bare() : app()).catch((err) => {
  process.stderr.write(`bench-server: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
