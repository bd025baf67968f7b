import { createRealtimeClient, type WebSocketConstructor } from '@atendimento/schemas';
import type { LiveSource, LiveSubscriptionLike } from './liveSource';

/**
 * The console's own realtime client on this page's /ws (same origin), for when the mounting
 * app passes no live source. `getToken` gives the current access token; the client
 * re-authenticates and resumes its subscriptions after reconnects by itself.
 */
export function browserLiveSource(getToken: () => string | null | Promise<string | null>): LiveSource & { close(): void } {
  const base = typeof location !== 'undefined' ? location : { protocol: 'http:', host: 'localhost' };
  const client = createRealtimeClient({
    url: `${base.protocol === 'https:' ? 'wss:' : 'ws:'}//${base.host}/ws`,
    WebSocket: globalThis.WebSocket as unknown as WebSocketConstructor,
    getToken,
  });
  client.connect();
  return {
    subscribe: (collection, query) => client.subscribe(collection, query) as unknown as LiveSubscriptionLike,
    close: () => client.close(),
  };
}
