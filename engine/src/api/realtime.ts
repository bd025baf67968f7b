import { createRealtimeClient, type LiveQueryInput, type RealtimeClient, type WebSocketConstructor } from '@atendimento/schemas';
import type { LiveSource, LiveSubscriptionLike } from '@atendimento/console';
import { session } from './session';

/**
 * Where the tab's client connects: this page's /ws with the browser's WebSocket. A spec swaps
 * the constructor to count the sockets a signed-in tab opens.
 */
export const realtimeTransport: { url(): string; WebSocket(): WebSocketConstructor | undefined } = {
  url: () => `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/ws`,
  WebSocket: () => (typeof WebSocket === 'undefined' ? undefined : (globalThis.WebSocket as unknown as WebSocketConstructor)),
};

let client: RealtimeClient | null = null;

/**
 * The signed-in tab's one realtime client (docs/engine.md "One realtime client"): every live
 * consumer — the console, the register lists' live refresh, the integration definitions and
 * 'Agentes Online' — subscribes on it, so a tab holds one socket to /ws however many screens
 * it visits. It is opened for the session (the signed-in app asks for it when it mounts),
 * authenticates with the session's current token, and is closed by sign-out. Null while
 * signed out or where there is no WebSocket.
 */
export function sessionRealtime(): RealtimeClient | null {
  if (client) return client;
  const WebSocketImpl = realtimeTransport.WebSocket();
  if (!session.token || !WebSocketImpl || typeof location === 'undefined') return null;
  client = createRealtimeClient({ url: realtimeTransport.url(), WebSocket: WebSocketImpl, getToken: () => session.token });
  client.connect();
  return client;
}

// Sign-out (or an expired session) closes the socket for good; the next sign-in opens a new one.
session.onSignOut(() => {
  const closing = client;
  client = null;
  closing?.close();
});

/**
 * The console's LiveSource on the session client. Subscribing while signed out (the app is
 * leaving for /login) gives a subscription that never updates.
 */
export const sessionLiveSource: LiveSource = {
  subscribe(collection, query, options) {
    const live = sessionRealtime();
    // `from` is a subscription this source returned: the client's own (it ignores any other).
    if (live) return live.subscribe(collection, query as LiveQueryInput, options as Parameters<RealtimeClient['subscribe']>[2]) as unknown as LiveSubscriptionLike;
    return { records: [], state: 'loading', onUpdate: () => () => {}, close: () => {} };
  },
};
