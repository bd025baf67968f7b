import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRealtimeClient, REALTIME_EVENTS, type LiveSubscription, type RealtimeClient, type WebSocketLike } from '@atendimento/schemas';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { expectedWindow, hostSocket, TEST_COLLECTION, testTagsCollection, writeTag, wsUrl, type TestTag } from '../server/realtime/realtime-helpers';
import { waitFor } from '../helpers/wait-for';

/**
 * Slow consumer: a client that stops reading must not hold server memory nor slow
 * anyone else. Once its unsent bytes pass WS_MAX_BUFFERED_BYTES the hub cuts it; the others
 * keep receiving every change on time; the slow one, reading again, reconnects and catches up.
 */

const CAP = 256 * 1024;
let t: TestServer;
const clients: RealtimeClient[] = [];

beforeAll(async () => {
  t = await startTestServer({ env: { WS_MAX_BUFFERED_BYTES: String(CAP) } });
  t.server.hub.registerCollection(testTagsCollection(t.server.db));
});
afterAll(async () => {
  for (const c of clients) c.close();
  await t.close();
});

const query = { filter: { field: 'department', op: '==' as const, value: 'slow' }, limit: 1000 };

/** A typed client whose sockets the test can reach (to stop reading from them). */
function client(): { client: RealtimeClient; sub: LiveSubscription<TestTag>; sockets: WebSocketLike[]; closes: number[] } {
  const sockets: WebSocketLike[] = [];
  const Base = hostSocket(t.hosts.acme);
  const Recorded = class extends Base {
    constructor(url: string) {
      super(url);
      sockets.push(this);
    }
  };
  const c = createRealtimeClient({ url: wsUrl(t.baseUrl), WebSocket: Recorded, getToken: () => t.tokenFor('acme', 'acme-admin'), backoff: { initialMs: 20, maxMs: 200 } });
  clients.push(c);
  const closes: number[] = [];
  c.on(REALTIME_EVENTS.closed, (e) => closes.push((e as { code: number }).code));
  c.connect();
  return { client: c, sub: c.subscribe<TestTag>(TEST_COLLECTION, query), sockets, closes };
}

/** The TCP socket under a `ws` WebSocket: pausing it is a peer that stops reading. */
function tcpOf(ws: WebSocketLike): net.Socket {
  return (ws as unknown as { _socket: net.Socket })._socket;
}

describe('slow consumer', () => {
  it('drops the client that stops reading once its buffer passes the cap, while the others keep up', { timeout: 90_000 }, async () => {
    const fast = [client(), client()];
    const slow = client();
    await waitFor(() => [...fast, slow].every((c) => c.sub.state === 'live'), 'three snapshots');
    tcpOf(slow.sockets[0]!).pause();

    // ~20 KB records, rewritten in rounds: every round sends each client ~400 KB.
    const big = 'x'.repeat(20_000);
    const latest = () => t.server.services.changes.latestSeq('acme');
    let rounds = 0;
    while (t.server.hub.stats().slowDrops === 0) {
      rounds++;
      expect(rounds, 'the slow client was never dropped').toBeLessThanOrEqual(120);
      for (let i = 0; i < 20; i++) await writeTag(t.server.services.changes, 'acme', { id: `slow-${i}`, name: `slow-${i}`, department: 'slow', note: `${rounds}${big}` });
      // The fast clients are never held back by the stalled one: they are current after every round.
      const seq = await latest();
      await waitFor(() => fast.every((c) => c.sub.set.cursor === seq), `fast clients at ${seq} (round ${rounds})`, 5_000);
    }
    // Dropped by cap, not by luck: it took more than one round to fill the kernel buffers and the cap.
    expect(rounds).toBeGreaterThan(1);
    expect(t.server.hub.stats().slowDrops).toBe(1);

    // Writes after the drop still reach the others.
    await writeTag(t.server.services.changes, 'acme', { id: 'after-drop', name: 'after-drop', department: 'slow' });
    const expected = async () => JSON.stringify(await expectedWindow(t.server, 'acme', 'admin@acme.test', query));
    for (const c of fast) await waitFor(async () => JSON.stringify(c.sub.records) === (await expected()), 'fast client in sync');
    expect(fast.flatMap((c) => c.closes)).toEqual([]);

    // The slow client reads again: it finds its connection gone, reconnects and catches up.
    tcpOf(slow.sockets[0]!).resume();
    await waitFor(() => slow.closes.length === 1, 'slow client sees the drop', 30_000);
    await waitFor(async () => JSON.stringify(slow.sub.records) === (await expected()), 'slow client in sync again', 30_000);
    expect(slow.sockets.length).toBe(2);
    expect(t.server.hub.stats().slowDrops).toBe(1);
  });
});
