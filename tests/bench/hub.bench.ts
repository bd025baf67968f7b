import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';
import { hubSignature } from '@atendimento/integrations';
import type { BenchServerReady } from './bench-server';
import { percentile, type BenchLine } from './report';

const here = path.dirname(fileURLToPath(import.meta.url));
const autocannon = createRequire(import.meta.url)('autocannon') as (opts: object) => Promise<{ requests: { average: number; total: number }; non2xx: number; errors: number; latency: { p50: number; p99: number } }>;

export interface BenchChild {
  ready: BenchServerReady;
  child: ChildProcess;
  rss(): Promise<number>;
  /** CPU time (user + system) the process has used so far, in ms. */
  cpu(): Promise<number>;
  /** The app server's ANALYZE on PostgreSQL (after a warm-up); nothing on SQLite or the bare server. */
  analyze(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Forks bench-server.ts (mode app or bare) with --expose-gc, resolves when it is listening.
 * BENCH_CPU_PROF=dir writes a V8 CPU profile of each server process there (docs/bench.md).
 */
export async function startBenchServer(mode: 'app' | 'bare', env: Record<string, string> = {}): Promise<BenchChild> {
  const child = fork(path.join(here, 'bench-server.ts'), [], {
    execArgv: ['--import', 'tsx', '--expose-gc', ...(process.env.BENCH_TRACE_GC ? ['--trace-gc'] : []), ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [])],
    env: { ...process.env, ...env, BENCH_MODE: mode },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<BenchServerReady>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench-server (${mode}) exited with ${code}`)));
    child.on('message', (m: { type: string }) => m.type === 'ready' && resolve(m as BenchServerReady));
  });
  return {
    ready,
    child,
    rss: () =>
      new Promise((resolve) => {
        const on = (m: { type: string; rss?: number }) => {
          if (m.type !== 'rss') return;
          child.off('message', on);
          resolve(m.rss!);
        };
        child.on('message', on);
        child.send({ type: 'rss' });
      }),
    cpu: () =>
      new Promise((resolve) => {
        const on = (m: { type: string; cpu?: NodeJS.CpuUsage }) => {
          if (m.type !== 'cpu') return;
          child.off('message', on);
          resolve((m.cpu!.user + m.cpu!.system) / 1000);
        };
        child.on('message', on);
        child.send({ type: 'cpu' });
      }),
    analyze: () =>
      mode === 'bare'
        ? Promise.resolve()
        : new Promise((resolve) => {
          const on = (m: { type: string }) => {
            if (m.type !== 'analyzed') return;
            child.off('message', on);
            resolve();
          };
          child.on('message', on);
          child.send({ type: 'analyze' });
        }),
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.disconnect();
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

/** One client socket; `onRecords(n)` is called with how many records each frame delivered. */
interface Client {
  ws: WebSocket;
  onRecords: (n: number) => void;
}

async function openClients(ready: BenchServerReady, n: number, mode: 'app' | 'bare'): Promise<Client[]> {
  const url = `${ready.url.replace(/^http/, 'ws')}${mode === 'app' ? '/ws' : '/'}`;
  const clients: Client[] = [];
  const batch = 100;
  for (let i = 0; i < n; i += batch) {
    await Promise.all(
      Array.from({ length: Math.min(batch, n - i) }, async () => {
        const ws = new WebSocket(url, { headers: { host: ready.host }, perMessageDeflate: false });
        const client: Client = { ws, onRecords: () => {} };
        ws.on('error', () => {});
        await new Promise<void>((resolve, reject) => {
          ws.once('open', () => {
            if (mode === 'bare') return resolve();
            ws.send(JSON.stringify({ type: 'auth', token: ready.token }));
          });
          ws.once('close', (code) => reject(new Error(`bench: socket closed with ${code} while connecting`)));
          ws.on('message', function first(data) {
            const frame = JSON.parse(String(data)) as { type: string };
            if (frame.type === 'ready') {
              ws.off('message', first);
              resolve();
            }
          });
        });
        ws.removeAllListeners('close');
        ws.on('message', (data) => {
          const frame = JSON.parse(String(data)) as { type: string; added?: unknown[] };
          if (frame.type === 'changes') client.onRecords(mode === 'app' ? frame.added?.length ?? 0 : 1);
        });
        clients.push(client);
      }),
    );
  }
  return clients;
}

async function subscribeAll(clients: Client[], roomId: string): Promise<void> {
  await Promise.all(
    clients.map(
      (c) =>
        new Promise<void>((resolve) => {
          const on = (data: unknown) => {
            if ((JSON.parse(String(data)) as { type: string }).type === 'snapshot') {
              c.ws.off('message', on);
              resolve();
            }
          };
          c.ws.on('message', on);
          c.ws.send(JSON.stringify({ type: 'subscribe', id: 'm', collection: 'messages', query: { roomId } }));
        }),
    ),
  );
}

const text1k = (i: number) => `mensagem ${i} `.padEnd(1024, 'x');

/** Same secret as bench-server.ts's channel 'wa-meta'. */
const META_APP_SECRET = 'segredo-do-app-bench';
/** BENCH_CONTACTS=10000000 makes every webhook a new customer (new contact and room: the first-message path). */
const WEBHOOK_CONTACTS = Number(process.env.BENCH_CONTACTS ?? 200);
let webhookSeq = 0;
const runId = randomUUID().slice(0, 8);

/**
 * A signed Meta webhook with one inbound text, shaped as integrations/fixtures/
 * whatsapp/inbound_text.json; a unique wamid each time and one of 200 contacts (200 rooms).
 */
function webhook(): { body: Buffer; signature: string } {
  const n = webhookSeq++;
  return webhookFor(`5511${String(n % WEBHOOK_CONTACTS).padStart(9, '0')}`, `wamid.bench.${runId}.${n}`, 'Olá, tudo bem? Quero saber do meu pedido.');
}

/** One signed Meta webhook carrying an inbound text from `waId`. */
export function webhookFor(waId: string, wamid: string, text: string): { body: Buffer; signature: string } {
  const body = Buffer.from(JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [{
      id: '1234567890987654321',
      changes: [{
        field: 'messages',
        value: {
          messaging_product: 'whatsapp',
          metadata: { display_phone_number: '972123456789', phone_number_id: '1122334455667' },
          contacts: [{ profile: { name: `Cliente ${waId.slice(-4)}` }, wa_id: waId }],
          messages: [{ from: waId, id: wamid, timestamp: String(Math.floor(Date.now() / 1000)), text: { body: text }, type: 'text' }],
        },
      }],
    }],
  }));
  return { body, signature: hubSignature(META_APP_SECRET, body) };
}

/** POSTs a signed webhook to channel `channelId` of the tenant `host`; answers the status. */
export function sendWebhook(url: string, host: string, agent: http.Agent, signed: { body: Buffer; signature: string }, channelId = 'wa-meta'): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${url}/api/webhooks/whatsapp/${channelId}`,
      { method: 'POST', agent, headers: { host, 'content-type': 'application/json', 'content-length': signed.body.length, 'x-hub-signature-256': signed.signature } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(signed.body);
  });
}

/** POST one signed webhook; answers the status. */
function postWebhook(ready: BenchServerReady, agent: http.Agent): Promise<number> {
  return sendWebhook(ready.url, ready.host, agent, webhook());
}

/** A visitor's 1 KB web-chat message into the bench room (B6's events). */
function post(ready: BenchServerReady, agent: http.Agent, i: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ text: text1k(i), clientId: randomUUID() });
    const req = http.request(
      `${ready.url}/api/webchat/rooms/${ready.roomId ?? 'r'}/message`,
      { method: 'POST', agent, headers: { host: ready.host, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-visitor-key': ready.visitorKey ?? '' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Broadcast `count` 1 KB events (app: visitor messages; bare: IPC broadcast) and wait for all deliveries. */
async function deliveries(server: BenchChild, mode: 'app' | 'bare', clients: Client[], count: number, agent: http.Agent): Promise<number> {
  let got = 0;
  const want = count * clients.length;
  let done!: () => void;
  const all = new Promise<void>((r) => (done = r));
  for (const c of clients) c.onRecords = (n) => ((got += n) >= want ? done() : undefined);
  const start = performance.now();
  if (mode === 'bare') for (let i = 0; i < count; i++) server.child.send({ type: 'broadcast', bytes: 1024, seq: i });
  else {
    let next = 0;
    await Promise.all(Array.from({ length: 4 }, async () => {
      while (next < count) {
        const status = await post(server.ready, agent, next++);
        if (status !== 201) throw new Error(`bench: ingest answered ${status}`);
      }
    }));
  }
  await all;
  return (want / (performance.now() - start)) * 1000;
}

/** p95 over rounds of (receipt time on each socket - first receipt of that broadcast). */
async function spread(server: BenchChild, mode: 'app' | 'bare', clients: Client[], rounds: number, agent: http.Agent): Promise<{ spread: number; fromSend: number }> {
  const spreads: number[] = [];
  const fromSend: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const times: number[] = [];
    let done!: () => void;
    const all = new Promise<void>((res) => (done = res));
    for (const c of clients) {
      let seen = false;
      c.onRecords = (n) => {
        if (seen || n === 0) return;
        seen = true;
        times.push(performance.now());
        if (times.length === clients.length) done();
      };
    }
    const start = performance.now();
    if (mode === 'bare') server.child.send({ type: 'broadcast', bytes: 1024, seq: r });
    else await post(server.ready, agent, 100_000 + r);
    await all;
    const first = Math.min(...times);
    for (const t of times) {
      spreads.push(t - first);
      fromSend.push(t - start);
    }
  }
  spreads.sort((a, b) => a - b);
  fromSend.sort((a, b) => a - b);
  return { spread: percentile(spreads, 95), fromSend: percentile(fromSend, 95) };
}

export async function hubRun(mode: 'app' | 'bare', sockets: number, events: number, rounds: number, env: Record<string, string>) {
  const server = await startBenchServer(mode, env);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  try {
    // Warm-up sockets first, so allocator and JIT growth of the first connections is not
    // counted (and startup garbage freed by the first GC cannot make the delta negative).
    const warm = await openClients(server.ready, 200, mode);
    const before = await server.rss();
    const clients = await openClients(server.ready, sockets, mode);
    const after = await server.rss();
    for (const c of warm) c.ws.terminate();
    if (mode === 'app') await subscribeAll(clients, server.ready.roomId!);
    const rate = await deliveries(server, mode, clients, events, agent);
    const s = await spread(server, mode, clients, rounds, agent);
    for (const c of clients) c.ws.terminate();
    return { perSocket: (after - before) / sockets, rate, ...s };
  } finally {
    agent.destroy();
    await server.stop();
  }
}

/** B5/B6: the real hub over real sockets vs a bare `ws` server, 2,000 sockets each. */
export async function hubBench(seconds: number, sockets = Number(process.env.BENCH_SOCKETS ?? 2000)): Promise<BenchLine[]> {
  const events = Math.max(10, seconds * 3);
  const rounds = 10;
  const ours = await hubRun('app', sockets, events, rounds, { DATABASE_URL: '' });
  const bare = await hubRun('bare', sockets, events, rounds, {});
  const kb = (b: number) => b / 1024;
  return [
    { id: 'B5', name: `RSS per idle authenticated socket (${sockets} sockets)`, value: kb(ours.perSocket), unit: 'KB', baselineName: 'bare ws', baseline: kb(bare.perSocket), ratio: ours.perSocket / bare.perSocket, target: '<= 100 KB', met: kb(ours.perSocket) <= 100, note: `server RSS after a full GC, before vs after ${sockets} more sockets connected (and authenticated), 200 warm-up sockets first` },
    { id: 'B6a', name: `deliveries of 1 KB events to ${sockets} subscribers`, value: ours.rate, unit: 'deliveries/s', baselineName: 'bare ws broadcast', baseline: bare.rate, ratio: ours.rate / bare.rate, target: '>= 30,000/s', met: ours.rate >= 30_000, note: `${events} visitor messages (HTTP ingest -> change feed -> hub) to a 'messages' subscription on every socket; deliveries counted at the clients` },
    { id: 'B6b', name: `p95 spread of one broadcast over ${sockets} sockets`, value: ours.spread, unit: 'ms', baselineName: 'bare ws broadcast', baseline: bare.spread, ratio: ours.spread / bare.spread, target: '<= 50 ms', met: ours.spread <= 50, note: `receipt minus first receipt, ${rounds} broadcasts; p95 from the send: ours ${ours.fromSend.toFixed(1)} ms, bare ${bare.fromSend.toFixed(1)} ms (clients share this process)` },
  ];
}

/** Connections the open model opens before its clock starts (and never more). */
const OPEN_MODEL_SOCKETS = 128;

/** Opens `count` keep-alive sockets on `agent` (concurrent GETs of the liveness probe), left free in its pool. */
async function warmSockets(ready: BenchServerReady, agent: http.Agent, count: number): Promise<void> {
  await Promise.all(Array.from({ length: count }, () => new Promise<void>((resolve, reject) => {
    const req = http.request(`${ready.url}/api/health/live`, { agent, headers: { host: ready.host } }, (res) => {
      res.resume();
      res.on('end', () => resolve());
    });
    req.on('error', reject);
    req.end();
  })));
}

/**
 * Calls `send(n, at)` for n = 0…total-1 at `rate` a second, each at its scheduled time `at`
 * (performance.now()) whatever the earlier ones' answers (an open model: latency is timed from
 * `at`, so a slow server cannot slow the load down), and waits for all of them.
 */
export async function atRate(rate: number, total: number, send: (n: number, at: number) => Promise<unknown>): Promise<void> {
  const start = performance.now();
  const pending: Promise<unknown>[] = [];
  for (let n = 0; n < total; n++) {
    const at = start + (n * 1000) / rate;
    const wait = at - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    pending.push(send(n, at));
  }
  await Promise.all(pending);
}

/**
 * Open model: request i is scheduled at start + i / rate; latency counts from the schedule, so
 * a request waiting for a free socket counts its wait (no coordinated omission). The sockets
 * are opened before the clock starts, as wrk2 does: opened on demand, the first second measured
 * the load generator connecting up to 256 sockets one by one while sharing the two cores with
 * a busy server (requests up to 1.2 s late while the server saw none slower than 150 ms;
 * docs/bench.md "B2b").
 */
async function openModel(ready: BenchServerReady, rate: number, seconds: number): Promise<{ p50: number; p99: number; errors: number; sent: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: OPEN_MODEL_SOCKETS });
  await warmSockets(ready, agent, OPEN_MODEL_SOCKETS);
  const total = rate * seconds;
  const latencies: number[] = [];
  let errors = 0;
  await atRate(rate, total, (_n, at) =>
    postWebhook(ready, agent).then(
      (status) => {
        if (status < 200 || status > 299) errors++;
        latencies.push(performance.now() - at);
      },
      () => void errors++,
    ),
  );
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors, sent: total };
}

/** Seconds of load before a max-rate run is measured (BENCH_WARM_UP; 0 measures a cold process). */
export const WARM_UP_SECONDS = Number(process.env.BENCH_WARM_UP ?? 2);

async function maxRate(ready: BenchServerReady, seconds: number): Promise<{ rate: number; total: number }> {
  const result = await autocannon({
    url: ready.url,
    connections: 20,
    duration: seconds,
    requests: [{
      method: 'POST',
      path: '/api/webhooks/whatsapp/wa-meta',
      headers: { host: ready.host, 'content-type': 'application/json' },
      setupRequest: (req: { headers: Record<string, string> }) => {
        const { body, signature } = webhook();
        return { ...req, body, headers: { ...req.headers, 'x-hub-signature-256': signature } };
      },
    }],
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`bench ingest: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rate: result.requests.average, total: result.requests.total };
}

/**
 * Max rate, and the server's CPU time per request during it (steadier than req/s on a shared box).
 * A warm-up at the same load runs first and is not counted (ours and the bare baseline alike):
 * a fresh process spends its first seconds compiling the hot path on V8's background threads
 * (~0.3 of a core here) and filling the pool and the database's caches, which a server that has
 * been up for a while no longer pays (docs/bench.md "Warm-up"). On PostgreSQL the tables the
 * warm-up filled from empty are then analyzed, as autovacuum does within a minute.
 */
async function maxRateAndCpu(server: BenchChild, seconds: number): Promise<{ rate: number; cpuMs: number }> {
  if (WARM_UP_SECONDS > 0) {
    await maxRate(server.ready, WARM_UP_SECONDS);
    await server.analyze();
  }
  const before = await server.cpu();
  const { rate, total } = await maxRate(server.ready, seconds);
  return { rate, cpuMs: ((await server.cpu()) - before) / Math.max(1, total) };
}

/**
 * B2 (and B9 on PostgreSQL): signed Meta webhook → verify HMAC on the raw bytes → parse →
 * dedupe insert in one transaction → commit → 200, over 200 contacts (200 rooms).
 */
export async function ingestBench(seconds: number, env: Record<string, string> = {}, id = 'B2', label = 'SQLite'): Promise<BenchLine[]> {
  const app = await startBenchServer('app', env);
  const bare = await startBenchServer('bare');
  try {
    const { rate: ours, cpuMs } = await maxRateAndCpu(app, seconds);
    const { rate: base, cpuMs: baseCpuMs } = await maxRateAndCpu(bare, seconds);
    // One second of schedule (1,000 requests): below 1,000 req/s of capacity the backlog, and
    // the run, grow with every scheduled second; one second already shows it.
    const open = await openModel(app.ready, 1000, 1);
    // Issue 22's targets: 2,000 req/s on SQLite (one process, no network hop), 1,000 on PostgreSQL.
    const minRate = label === 'PostgreSQL' ? 1000 : 2000;
    return [
      { id: `${id}a`, name: `webhook ingest max (signed Meta text, ${label})`, value: ours, unit: 'req/s', baselineName: 'bare node:http POST', baseline: base, ratio: ours / base, target: `>= ${minRate.toLocaleString('en-US')} req/s`, met: ours >= minRate },
      { id: `${id}c`, name: `server CPU per webhook (${label})`, value: cpuMs, unit: 'ms', baselineName: 'bare node:http POST', baseline: baseCpuMs, ratio: cpuMs / baseCpuMs, note: 'user + system CPU of the server process during the max-rate run, per request' },
      { id: `${id}b`, name: `webhook ingest p99 at 1,000 req/s open model (${label})`, value: open.p99, unit: 'ms', baselineName: 'p50', baseline: open.p50, ratio: open.p99 / open.p50, target: '<= 50 ms', met: open.p99 <= 50 && open.errors === 0, note: `${open.sent} requests scheduled, ${open.errors} errors; latency from the scheduled time` },
    ];
  } finally {
    await app.stop();
    await bare.stop();
  }
}
