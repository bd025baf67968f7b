import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderHook, waitFor } from '@testing-library/react';
import type { WebSocketConstructor, WebSocketLike } from '@atendimento/schemas';
import { useIntegrationViews, resetIntegrationViews } from '../integrations';
import { loadOnlineAgents } from '../presence/onlineAgents';
import { useLiveRefresh } from '../registers/list/useLiveRefresh';
import { realtimeTransport, sessionLiveSource, sessionRealtime } from './realtime';
import { session, setSession } from './session';

/** A /ws stand-in: records every socket the tab opens and every frame sent on it; answers auth with ready. */
class FakeSocket implements WebSocketLike {
  static opened: FakeSocket[] = [];
  readyState = 0;
  sent: { type: string; collection?: string }[] = [];
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.opened.push(this);
    queueMicrotask(() => {
      this.readyState = 1;
      this.onopen?.({});
    });
  }
  send(data: string): void {
    const frame = JSON.parse(data) as { type: string; collection?: string; id?: string };
    this.sent.push(frame);
    if (frame.type === 'auth') queueMicrotask(() => this.onmessage?.({ data: JSON.stringify({ type: 'ready', sessionId: 'x', expiresAt: Date.now() + 60_000 }) }));
  }
  close(): void {
    this.readyState = 3;
  }
}

const user = { id: 'u1', displayName: 'Admin', email: 'admin@acme.test', claims: { admin: true } } as never;
const openSockets = () => FakeSocket.opened.filter((socket) => socket.readyState < 2);
const subscribed = () => FakeSocket.opened.flatMap((socket) => socket.sent.filter((f) => f.type === 'subscribe').map((f) => f.collection));

let original: typeof realtimeTransport.WebSocket;
beforeEach(() => {
  FakeSocket.opened = [];
  original = realtimeTransport.WebSocket;
  realtimeTransport.WebSocket = () => FakeSocket as unknown as WebSocketConstructor;
  // The integrations' definitions fetch has no server here; it logs and goes on with none.
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  session.clear();
  resetIntegrationViews();
  realtimeTransport.WebSocket = original;
  vi.restoreAllMocks();
});

describe('the session realtime client', () => {
  it('is the one socket of a signed-in tab: the console, a register list, the integrations and Agentes Online share it', async () => {
    expect(sessionRealtime()).toBeNull();
    setSession({ accessToken: 'token-1', user });
    const client = sessionRealtime();
    expect(client).not.toBeNull();

    const rooms = sessionLiveSource.subscribe('rooms', { limit: 10 });
    renderHook(() => useLiveRefresh({ collection: 'contacts', sort: { field: 'displayName', order: 'ASC' }, page: 1, perPage: 25, refetch: () => {} }));
    renderHook(() => useIntegrationViews());
    void loadOnlineAgents().catch(() => {});

    // Every consumer's subscription went out on the same socket.
    await waitFor(() => expect(subscribed().sort()).toEqual(['contacts', 'integration_views', 'presence', 'rooms']));
    expect(FakeSocket.opened).toHaveLength(1);
    expect(sessionRealtime()).toBe(client);
    expect(FakeSocket.opened[0]!.sent[0]).toEqual({ type: 'auth', token: 'token-1' });
    rooms.close();

    // Sign-out closes it; nothing reopens it until the next sign-in.
    session.clear();
    expect(openSockets()).toHaveLength(0);
    expect(sessionRealtime()).toBeNull();
    await expect(loadOnlineAgents()).rejects.toThrow(/not signed in/);
    expect(FakeSocket.opened).toHaveLength(1);

    setSession({ accessToken: 'token-2', user });
    expect(sessionRealtime()).not.toBe(client);
    await waitFor(() => expect(openSockets()).toHaveLength(1));
    expect(FakeSocket.opened).toHaveLength(2);
  });

  it("passes a growing list's `from` to the client: the grown window's subscribe resumes from the rooms held, as a full window", async () => {
    setSession({ accessToken: 'token-1', user });
    const first = sessionLiveSource.subscribe('rooms', { tab: 'queuesChats', limit: 2 });
    await waitFor(() => expect(subscribed()).toEqual(['rooms']));
    const socket = FakeSocket.opened[0]!;
    const id = (socket.sent.find((f) => f.type === 'subscribe') as unknown as { id: string }).id;
    socket.onmessage?.({ data: JSON.stringify({ type: 'snapshot', id, records: [{ id: 'r1' }, { id: 'r2' }], cursor: 7, orderBy: [], limit: 2 }) });
    first.close();
    const grown = sessionLiveSource.subscribe('rooms', { tab: 'queuesChats', limit: 102 }, { from: first });
    expect(grown.records.map((r) => r.id)).toEqual(['r1', 'r2']);
    await waitFor(() => expect(subscribed()).toEqual(['rooms', 'rooms']));
    expect(socket.sent.filter((f) => f.type === 'subscribe').at(-1)).toMatchObject({ query: { limit: 102 }, cursor: 7, ids: ['r1', 'r2'], full: true });
    grown.close();
  });
});
