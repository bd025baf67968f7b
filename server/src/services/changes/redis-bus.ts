import { Redis } from 'ioredis';
import type { Logger } from '../../logger';
import { encodeNote, type ChangeBus } from './change-bus';
import { createBusListeners, reconnectDelay } from './bus-reconnect';

interface RedisBusOptions {
  url: string;
  /** Pub/sub channel; one per database + schema so deployments sharing a Redis stay apart. */
  channel: string;
  logger: Logger;
}

/**
 * Change notes over Redis pub/sub: one publishing and one subscribed connection per process.
 * ioredis reconnects by itself; after each reconnect we SUBSCRIBE again and then tell the feed
 * to re-read the log (pub/sub does not keep what was sent while we were away).
 */
export function createRedisBus(options: RedisBusOptions): ChangeBus & { ready: Promise<void> } {
  const { channel, logger } = options;
  const listeners = createBusListeners();
  const retryStrategy = (times: number) => reconnectDelay(Math.min(times, 7), 100);
  // Publishing fails fast while Redis is away instead of queueing behind a dead connection.
  const pub = new Redis(options.url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1, retryStrategy });
  // We re-subscribe ourselves so the catch-up read starts only once SUBSCRIBE is confirmed.
  const sub = new Redis(options.url, { lazyConnect: true, retryStrategy, autoResubscribe: false });
  let subscribedOnce = false;

  for (const [name, conn] of [['pub', pub], ['sub', sub]] as const) {
    conn.on('error', (err: Error) => logger.warn({ err, conn: name, channel }, 'bus.redis_error'));
  }
  sub.on('message', (ch: string, payload: string) => {
    if (ch === channel) listeners.deliver(payload);
  });
  sub.on('ready', () => {
    if (!subscribedOnce) return;
    sub
      .subscribe(channel)
      .then(() => {
        logger.info({ channel }, 'bus.redis_reconnected');
        listeners.reconnected();
      })
      .catch((err: Error) => logger.warn({ err, channel }, 'bus.redis_resubscribe_failed'));
  });

  const ready = (async () => {
    try {
      await Promise.all([pub.connect(), sub.connect()]);
      await sub.subscribe(channel);
      subscribedOnce = true;
    } catch (err) {
      pub.disconnect();
      sub.disconnect();
      throw new Error(`createRedisBus: cannot reach Redis at ${options.url} (${(err as Error).message}). Start Redis, fix REDIS_URL or use BUS=memory.`);
    }
  })();

  return {
    ready,
    async publish(note) {
      await pub.publish(channel, encodeNote(note));
    },
    subscribe: listeners.subscribe,
    onReconnect: listeners.onReconnect,
    connected: () => pub.status === 'ready' && sub.status === 'ready',
    async close() {
      listeners.clear();
      await Promise.allSettled([pub.quit(), sub.quit()]);
      pub.disconnect();
      sub.disconnect();
    },
  };
}
