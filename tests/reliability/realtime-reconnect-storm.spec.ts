import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRealtimeClient, type LiveSubscription, type RealtimeClient, type WebSocketLike } from '@atendimento/schemas';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { hostSocket, TEST_COLLECTION, testTagsCollection, writeTag, wsUrl, type TestTag } from '../server/realtime/realtime-helpers';
import { waitFor } from '../helpers/wait-for';

/**
 * R4 reconnect storm: R4_CLIENTS typed clients (1,000 by default, ~30 s here;
 * R4_CLIENTS=2000 for the issue's figure, ~60 s) hold a live subscription over real sockets to
 * a real server. While tags keep being published, every connection is dropped twice — once from
 * the clients' side (every TCP connection reset, as when the network goes) and once from the
 * server's side (every server socket destroyed) — and the clients come back with full-jitter
 * backoff. Each client must resume from its last cursor: one snapshot ever, one resumed frame
 * per drop, and every frame adds exactly the published tags whose seq lies between the
 * previous frame's cursor and its own (no gap, no duplicate), ending with every published tag.
 */

const CLIENTS = Number(process.env.R4_CLIENTS ?? 1000);
const DEPARTMENT = 'storm';
/** Under the subscription's limit: every published tag stays in every window. */
const MAX_PUBLISHED = 1500;
/**
 * One tag at a time with this pause (500 ms; 1 s for 2,000 clients): changes keep flowing
 * through both storms. Not faster: the typed clients share this process with the server, and
 * each one re-sorts its records on every frame (LiveSet.list), so more tags starve the event
 * loop the server accepts connections on.
 */
const PUBLISH_EVERY_MS = Math.max(500, CLIENTS / 2);
/** How long a storm may take to settle (a loaded 2-core box reconnects ~20-50 clients/s). */
const WAIT_MS = Math.max(60_000, CLIENTS * 60);

let t: TestServer;
/** Client-side TCP sockets of the clients' current connections. */
const clientSockets = new Set<net.Socket>();
/** Server-side TCP sockets of every upgraded connection. */
const serverSockets = new Set<net.Socket>();
let token: string;
const clients: RealtimeClient[] = [];

beforeAll(async () => {
  // No heartbeat: on a loaded box a slow-but-alive client must not be dropped a third time.
  t = await startTestServer({ env: { WS_HEARTBEAT_SECONDS: '0' } });
  t.server.hub.registerCollection(testTagsCollection(t.server.db));
  t.server.httpServer.on('upgrade', (_req: unknown, socket: net.Socket) => {
    serverSockets.add(socket);
    socket.once('close', () => serverSockets.delete(socket));
  });
  token = await t.tokenFor('acme', 'acme-admin');
});
afterAll(async () => {
  for (const c of clients) c.close();
  await t?.close();
});

const changes = () => t.server.services.changes;

/** Deterministic pseudo-random numbers in [0, 1) (the high bits of an LCG). */
function seeded(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/** What a client kept of one frame: enough to check it against the change log afterwards. */
interface SeenFrame {
  type: 'snapshot' | 'changes';
  cursor: number;
  ids: string[];
  others: number;
  resumed: boolean;
}

interface StormClient {
  client: RealtimeClient;
  sub: LiveSubscription<TestTag>;
  frames: SeenFrame[];
  resumes: number;
}

/** The TCP socket under a `ws` WebSocket (once it is connected). */
function tcpOf(ws: WebSocketLike): net.Socket | undefined {
  return (ws as unknown as { _socket?: net.Socket })._socket;
}

/** `ws` WebSockets whose TCP sockets the test can reach, to cut them. */
function trackedSocket(): new (url: string) => WebSocketLike {
  const Base = hostSocket(t.hosts.acme);
  return class extends Base {
    constructor(url: string) {
      super(url);
      const ws = this as unknown as WebSocketLike & { once(event: string, listener: () => void): void };
      ws.once('open', () => {
        const tcp = tcpOf(ws);
        if (!tcp) return;
        clientSockets.add(tcp);
        tcp.once('close', () => clientSockets.delete(tcp));
      });
    }
  };
}

function startClient(i: number): StormClient {
  const client = createRealtimeClient({
    url: wsUrl(t.baseUrl),
    WebSocket: trackedSocket(),
    getToken: () => token,
    // Full jitter over 2 s (then 4 s, 8 s): the storm comes back spread, ~250 connections/s.
    backoff: { initialMs: 2000, maxMs: 8000 },
    random: seeded(i * 7919 + 1),
  });
  clients.push(client);
  const sub = client.subscribe<TestTag>(TEST_COLLECTION, { filter: { field: 'department', op: '==', value: DEPARTMENT }, limit: 2000 });
  const state: StormClient = { client, sub, frames: [], resumes: 0 };
  sub.onUpdate((u) => {
    if (u.kind === 'error') {
      state.frames.push({ type: 'changes', cursor: -1, ids: [], others: 1, resumed: false });
      return;
    }
    const f = u.frame;
    if (f.type === 'snapshot') {
      state.frames.push({ type: 'snapshot', cursor: f.cursor, ids: f.records.map((r) => r.id), others: 0, resumed: false });
      return;
    }
    if (f.resumed) state.resumes++;
    state.frames.push({ type: 'changes', cursor: f.cursor, ids: f.added.map((r) => r.id), others: f.modified.length + f.removed.length, resumed: f.resumed === true });
  });
  client.connect();
  return state;
}

/** Publishes new tags one after another (as users do) until stopped. */
function startPublisher() {
  let stopped = false;
  let published = 0;
  const done = (async () => {
    while (!stopped && published < MAX_PUBLISHED) {
      const id = `storm-${String(published).padStart(5, '0')}`;
      await writeTag(changes(), 'acme', { id, name: id, department: DEPARTMENT });
      published++;
      await new Promise((r) => setTimeout(r, PUBLISH_EVERY_MS));
    }
  })();
  return {
    get published() {
      return published;
    },
    async stop() {
      stopped = true;
      await done;
    },
  };
}

/** The published tags with their seq, in seq order, from the change log. */
async function publishedLog(): Promise<{ id: string; seq: number }[]> {
  const out: { id: string; seq: number }[] = [];
  let after = 0;
  for (;;) {
    const page = await changes().since('acme', after, 1000);
    for (const e of page) if (e.collection === TEST_COLLECTION) out.push({ id: e.id, seq: e.seq });
    if (page.length < 1000) return out;
    after = page[page.length - 1]!.seq;
  }
}

/** Ids with seq in (after, upTo], sorted. */
function between(log: { id: string; seq: number }[], after: number, upTo: number): string[] {
  return log.filter((e) => e.seq > after && e.seq <= upTo).map((e) => e.id).sort();
}

/** Every way a client's frames differ from the published log (empty when all is well). */
function problemsOf(c: StormClient, index: number, log: { id: string; seq: number }[], drops: number): string[] {
  const problems: string[] = [];
  const who = `client ${index}`;
  const snapshots = c.frames.filter((f) => f.type === 'snapshot').length;
  if (snapshots !== 1) problems.push(`${who}: ${snapshots} snapshots (a resume fell back to a snapshot)`);
  if (c.resumes !== drops) problems.push(`${who}: ${c.resumes} resumed frames for ${drops} drops`);
  let cursor = -1;
  const seen = new Set<string>();
  for (const f of c.frames) {
    if (f.cursor < cursor) problems.push(`${who}: cursor went back from ${cursor} to ${f.cursor}`);
    if (f.others) problems.push(`${who}: ${f.others} unexpected modified/removed/error at ${f.cursor}`);
    const expected = between(log, f.type === 'snapshot' ? 0 : cursor, f.cursor);
    const got = [...f.ids].sort();
    if (got.join() !== expected.join()) {
      const missing = expected.filter((id) => !got.includes(id));
      const extra = got.filter((id) => !expected.includes(id));
      problems.push(`${who}: ${f.type}${f.resumed ? ' (resumed)' : ''} (${cursor}, ${f.cursor}] missing [${missing.slice(0, 5)}] extra [${extra.slice(0, 5)}]`);
    }
    for (const id of f.ids) {
      if (seen.has(id)) problems.push(`${who}: ${id} delivered twice`);
      seen.add(id);
    }
    cursor = f.cursor;
  }
  if (seen.size !== log.length) problems.push(`${who}: received ${seen.size} of ${log.length} published tags`);
  return problems;
}

describe('R4 reconnect storm', () => {
  it(`${CLIENTS} clients dropped twice while tags are published all resume without gaps or duplicates`, { timeout: 60_000 + 4 * WAIT_MS }, async () => {
    const started = Date.now();
    const storm: StormClient[] = [];
    // Connect in waves of 100, as tabs open over a morning, not in one SYN flood.
    for (let i = 0; i < CLIENTS; i += 100) {
      const wave = Array.from({ length: Math.min(100, CLIENTS - i) }, (_, j) => startClient(i + j));
      storm.push(...wave);
      await waitFor(() => wave.every((c) => c.sub.state === 'live'), `wave ${i / 100} live`, 30_000);
    }
    const connected = Date.now();
    const allBack = (drops: number) => storm.every((c) => c.client.state === 'ready' && c.resumes === drops);

    const publisher = startPublisher();
    await waitFor(() => publisher.published >= 5, 'first tags published', 30_000);

    // Drop 1, the clients' side: every TCP connection reset at once (the network went away).
    const cutAt = Date.now();
    expect(clientSockets.size).toBe(CLIENTS);
    for (const tcp of [...clientSockets]) tcp.resetAndDestroy();
    await waitFor(() => allBack(1), 'every client back after the client-side drop', WAIT_MS);
    const backFirst = Date.now() - cutAt;
    const afterFirst = publisher.published;
    await waitFor(() => publisher.published >= afterFirst + 5, 'tags published after the first storm', 30_000);

    // Drop 2, the server's side: every server socket destroyed at once.
    const dropAt = Date.now();
    expect(serverSockets.size).toBe(CLIENTS);
    for (const tcp of [...serverSockets]) tcp.resetAndDestroy();
    await waitFor(() => allBack(2), 'every client back after the server-side drop', WAIT_MS);
    const backSecond = Date.now() - dropAt;

    const afterSecond = publisher.published;
    await waitFor(() => publisher.published >= afterSecond + 5, 'tags published after the second storm', 30_000);
    await publisher.stop();
    const log = await publishedLog();
    expect(log).toHaveLength(publisher.published);
    const last = log[log.length - 1]!.seq;
    await waitFor(() => storm.every((c) => (c.sub.set.cursor ?? 0) >= last), 'every client caught up', WAIT_MS);

    const caughtUp = Date.now();
    const problems = storm.flatMap((c, i) => problemsOf(c, i, log, 2));
    expect(problems.slice(0, 20)).toEqual([]);
    for (const c of storm) expect(c.sub.records.length).toBe(log.length);
    // Published while the clients were away, so some resumes carried missed tags.
    expect(storm.some((c) => c.frames.some((f) => f.resumed && f.ids.length > 0))).toBe(true);
    expect(t.server.hub.stats().subscriptions).toBe(CLIENTS);
    console.info(`R4: ${CLIENTS} clients connected in ${connected - started} ms; ${log.length} tags published; all back ${backFirst} ms after the client-side drop, ${backSecond} ms after the server-side drop; storms done in ${caughtUp - connected} ms, checks ${Date.now() - caughtUp} ms`);
  });
});
