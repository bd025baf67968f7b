import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRealtimeClient, type WebSocketLike } from './client';
import { CLOSE_CODES, REALTIME_EVENTS } from './protocol';

/** A WebSocket the test drives by hand: it records what the client sends. */
class FakeSocket implements WebSocketLike {
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: Record<string, unknown>[] = [];
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(data: string): void {
    this.sent.push(JSON.parse(data));
  }
  close(): void {
    this.readyState = 3;
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(frame: object): void {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
  drop(code = 1006): void {
    this.readyState = 3;
    this.onclose?.({ code, reason: '' });
  }
}

const ready = { type: 'ready', userId: 'u1', roomId: null, expiresAt: '2030-01-01T00:00:00.000Z' };

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.all = [];
});
afterEach(() => vi.useRealTimers());

/** Lets the client's `await getToken()` run. */
const tick = () => vi.advanceTimersByTimeAsync(0);

describe('realtime client reconnects', () => {
  it('waits a full-jitter delay that doubles per failed attempt, capped, and resets once ready', async () => {
    const randoms = [0.5, 0.5, 0.5, 0.5, 0.5, 0.999];
    const client = createRealtimeClient({ url: 'ws://x/ws', WebSocket: FakeSocket, getToken: () => 'tok', backoff: { initialMs: 100, maxMs: 1_000 }, random: () => randoms.shift()! });
    client.connect();
    await tick();
    expect(FakeSocket.all).toHaveLength(1);
    // Ceilings 100, 200, 400, 800, 1000 (capped); random 0.5 → half of each.
    for (const [i, delay] of [50, 100, 200, 400, 500].entries()) {
      FakeSocket.all[i]!.drop();
      expect(client.state).toBe('waiting');
      await vi.advanceTimersByTimeAsync(delay - 1);
      expect(FakeSocket.all, `attempt ${i + 1} too early`).toHaveLength(i + 1);
      await vi.advanceTimersByTimeAsync(1);
      expect(FakeSocket.all).toHaveLength(i + 2);
    }
    // Success resets the attempt count: the next drop waits within the first ceiling again.
    const sock = FakeSocket.all[5]!;
    sock.open();
    sock.receive(ready);
    expect(client.state).toBe('ready');
    sock.drop();
    await vi.advanceTimersByTimeAsync(99);
    expect(FakeSocket.all).toHaveLength(7);
    client.close();
  });

  it('resubscribes with cursor and held ids after a reconnect, and applies the resumed frame', async () => {
    const client = createRealtimeClient({ url: 'ws://x/ws', WebSocket: FakeSocket, getToken: () => 'tok', random: () => 0 });
    client.connect();
    await tick();
    const first = FakeSocket.all[0]!;
    first.open();
    expect(first.sent).toEqual([{ type: 'auth', token: 'tok' }]);
    first.receive(ready);
    const sub = client.subscribe('tags', { limit: 10 });
    expect(first.sent[1]).toEqual({ type: 'subscribe', id: sub.id, collection: 'tags', query: { limit: 10 } });
    first.receive({ type: 'snapshot', id: sub.id, records: [{ id: 'a', name: 'a' }, { id: 'b', name: 'b' }], cursor: 7, orderBy: [{ field: 'name', direction: 'asc' }], limit: 10 });
    first.receive({ type: 'changes', id: sub.id, added: [{ id: 'c', name: 'c' }], modified: [], removed: ['a'], cursor: 9 });

    first.drop();
    await vi.advanceTimersByTimeAsync(0);
    const second = FakeSocket.all[1]!;
    second.open();
    second.receive(ready);
    expect(second.sent).toEqual([
      { type: 'auth', token: 'tok' },
      { type: 'subscribe', id: sub.id, collection: 'tags', query: { limit: 10 }, cursor: 9, ids: ['b', 'c'] },
    ]);
    second.receive({ type: 'changes', id: sub.id, added: [{ id: 'd', name: 'd' }], modified: [{ id: 'b', name: 'b2' }], removed: [], cursor: 12, resumed: true });
    expect(sub.records).toEqual([{ id: 'b', name: 'b2' }, { id: 'c', name: 'c' }, { id: 'd', name: 'd' }]);
    expect(sub.set.cursor).toBe(12);
    client.close();
  });

  it('reconnects after the goingAway hint of a server shutting down, not its own backoff', async () => {
    // random 0 would reconnect at once; 0.999 would wait ~500 ms: the hint (1 234 ms) wins both ways.
    for (const random of [0, 0.999]) {
      FakeSocket.all = [];
      const client = createRealtimeClient({ url: 'ws://x/ws', WebSocket: FakeSocket, getToken: () => 'tok', random: () => random });
      client.connect();
      await tick();
      const first = FakeSocket.all[0]!;
      first.open();
      first.receive(ready);
      first.receive({ type: 'goingAway', retryInMs: 1_234 });
      first.drop(CLOSE_CODES.goingAway);
      expect(client.state).toBe('waiting');
      await vi.advanceTimersByTimeAsync(1_233);
      expect(FakeSocket.all, `random ${random}: too early`).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(FakeSocket.all).toHaveLength(2);
      // The hint is for that one close: the next drop is back on the backoff.
      FakeSocket.all[1]!.drop(CLOSE_CODES.goingAway);
      await vi.advanceTimersByTimeAsync(Math.floor(random * 1_000));
      expect(FakeSocket.all).toHaveLength(3);
      client.close();
    }
  });

  it('gives up on fatal close codes and reconnects at once after an expired token', async () => {
    let token = 'old';
    const client = createRealtimeClient({ url: 'ws://x/ws', WebSocket: FakeSocket, getToken: () => token, random: () => 0.9 });
    const failed: unknown[] = [];
    client.on(REALTIME_EVENTS.failed, (e) => failed.push(e));
    client.connect();
    await tick();
    FakeSocket.all[0]!.open();
    token = 'new';
    FakeSocket.all[0]!.drop(CLOSE_CODES.tokenExpired);
    await tick();
    expect(FakeSocket.all).toHaveLength(2);
    FakeSocket.all[1]!.open();
    expect(FakeSocket.all[1]!.sent[0]).toEqual({ type: 'auth', token: 'new' });
    FakeSocket.all[1]!.drop(CLOSE_CODES.unauthorized);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(client.state).toBe('failed');
    expect(failed).toEqual([{ code: CLOSE_CODES.unauthorized, reason: '' }]);
    expect(FakeSocket.all).toHaveLength(2);
  });

  it('retries when getting the token fails (refresh during an outage) and when a socket never opens', async () => {
    let calls = 0;
    const client = createRealtimeClient({
      url: 'ws://x/ws',
      WebSocket: FakeSocket,
      getToken: async () => {
        if (++calls === 1) throw new Error('rede indisponível');
        return 'tok';
      },
      random: () => 0.5,
      backoff: { initialMs: 100 },
      connectTimeoutMs: 2_000,
    });
    client.connect();
    await tick();
    expect(FakeSocket.all).toHaveLength(0);
    expect(client.state).toBe('waiting');
    await vi.advanceTimersByTimeAsync(50);
    expect(FakeSocket.all).toHaveLength(1);
    // The SYN went nowhere: no open, no close. The client gives up on it and tries again.
    await vi.advanceTimersByTimeAsync(1_999);
    expect(FakeSocket.all).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1 + 100);
    expect(FakeSocket.all).toHaveLength(2);
    FakeSocket.all[1]!.open();
    FakeSocket.all[1]!.receive(ready);
    expect(client.state).toBe('ready');
    client.close();
  });
});
