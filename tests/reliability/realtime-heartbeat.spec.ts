import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { RawSocket, TEST_COLLECTION, testTagsCollection, writeTag, wsUrl } from '../server/realtime/realtime-helpers';
import { waitFor } from '../helpers/wait-for';

/**
 * Heartbeats: the hub pings every socket each WS_HEARTBEAT_SECONDS and terminates
 * one that did not answer the previous ping (a peer that vanished without closing), freeing
 * its subscriptions; live peers are never dropped. Compression is not negotiated.
 */

let t: TestServer;
const sockets: RawSocket[] = [];

beforeAll(async () => {
  t = await startTestServer({ env: { WS_HEARTBEAT_SECONDS: '1' } });
  t.server.hub.registerCollection(testTagsCollection(t.server.db));
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t.close();
});

/** A RawSocket whose `ws` does not answer protocol pings: a peer that is gone but never closed. */
class DeadPeerSocket extends RawSocket {
  pings = 0;
  constructor(baseUrl: string, host: string) {
    super(baseUrl, host, { autoPong: false });
    this.ws.on('ping', () => this.pings++);
  }
}

async function subscribed<S extends RawSocket>(s: S, subId: string): Promise<S> {
  sockets.push(s);
  await s.auth(await t.tokenFor('acme', 'acme-admin'));
  s.send({ type: 'subscribe', id: subId, collection: TEST_COLLECTION, query: { filter: { field: 'department', op: '==', value: 'heartbeat' } } });
  await s.frame('snapshot');
  return s;
}

describe('heartbeats', () => {
  it('terminates a socket that stops answering pings, and keeps the one that answers', async () => {
    const before = t.server.hub.stats();
    const live = await subscribed(new RawSocket(t.baseUrl, t.hosts.acme), 'live');
    const dead = await subscribed(new DeadPeerSocket(t.baseUrl, t.hosts.acme), 'dead');
    let livePings = 0;
    live.ws.on('ping', () => livePings++);
    expect(t.server.hub.stats().subscriptions).toBe(before.subscriptions + 2);

    // Neither socket sends anything from here on: only protocol pongs can keep one alive.
    const closed = await dead.closedWith(5_000);
    expect(dead.pings).toBeGreaterThanOrEqual(1);
    // Terminated, not closed politely: a dead peer would never complete a close handshake.
    expect(closed.code).toBe(1006);
    await waitFor(() => t.server.hub.stats().subscriptions === before.subscriptions + 1, 'dead subscription freed');
    expect(t.server.hub.stats().connections).toBe(before.connections + 1);

    // The answering socket outlives several more heartbeats and still gets changes.
    await waitFor(() => livePings >= 3, 'three heartbeats', 6_000);
    expect(live.closed).toBeNull();
    await writeTag(t.server.services.changes, 'acme', { id: 'hb-1', name: 'hb', department: 'heartbeat' });
    const got = await live.frame('changes');
    expect(got.added.map((r) => r.id)).toEqual(['hb-1']);
  });

  it('does not negotiate permessage-deflate even when the client offers it', async () => {
    const ws = new WebSocket(wsUrl(t.baseUrl), { headers: { host: t.hosts.acme }, perMessageDeflate: true });
    const response = new Promise<http.IncomingMessage>((resolve, reject) => {
      ws.once('upgrade', resolve);
      ws.once('error', reject);
    });
    await new Promise((resolve) => ws.once('open', resolve));
    expect((await response).headers['sec-websocket-extensions']).toBeUndefined();
    expect(ws.extensions).toBe('');
    ws.terminate();
  });
});
