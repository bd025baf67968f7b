import type { Logger } from '../../logger';
import type { Db } from '../../db/knex';
import { openPgListener, pgNotify, type PgListener } from '../../db/pg-notify';
import { encodeNote, type ChangeBus } from './change-bus';
import { createBusListeners, reconnectDelay } from './bus-reconnect';

interface PgBusOptions {
  /** postgres://... of the database whose change log this bus announces. */
  connectionString: string;
  /** LISTEN/NOTIFY channel; one per database + schema so neighbours never hear each other. */
  channel: string;
  /** Pool used for NOTIFY (no extra connection needed to publish). */
  db: Db;
  logger: Logger;
  /** First reconnect delay; doubles up to 10 s. */
  retryMs?: number;
}

/**
 * Change notes over PostgreSQL LISTEN/NOTIFY: one dedicated listening connection per process,
 * NOTIFY through the normal pool. Payloads are "seq:tenant" (a few bytes, far under the
 * 8000-byte limit); the change log stays the source of truth. A dropped listening connection
 * is reopened with backoff and `onReconnect` listeners re-read the log.
 */
export function createPgBus(options: PgBusOptions): ChangeBus & { ready: Promise<void> } {
  const { channel, db, logger } = options;
  const listeners = createBusListeners();
  let listener: PgListener | null = null;
  let closed = false;
  let attempt = 0;
  let everConnected = false;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let resolveReady!: () => void;
  let rejectReady!: (err: Error) => void;
  const ready = new Promise<void>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });

  function lost(err: Error | null): void {
    listener = null;
    if (closed) return;
    logger.warn({ err, channel }, 'bus.pg_connection_lost');
    retryTimer = setTimeout(() => void connect(), reconnectDelay(attempt++, options.retryMs ?? 250));
    retryTimer.unref?.();
  }

  async function connect(): Promise<void> {
    retryTimer = null;
    if (closed) return;
    let opened: PgListener;
    try {
      opened = await openPgListener({ connectionString: options.connectionString, channel, onNotification: listeners.deliver, onLost: lost });
    } catch (err) {
      if (!everConnected && attempt >= 3) rejectReady(new Error(`createPgBus: cannot LISTEN on PostgreSQL (${(err as Error).message}). Check DATABASE_URL or use BUS=memory.`));
      return;
    }
    if (closed) {
      await opened.close();
      return;
    }
    listener = opened;
    attempt = 0;
    if (everConnected) {
      logger.info({ channel }, 'bus.pg_reconnected');
      listeners.reconnected();
    }
    everConnected = true;
    resolveReady();
  }

  void connect();

  return {
    ready,
    async publish(note) {
      await pgNotify(db, channel, encodeNote(note));
    },
    subscribe: listeners.subscribe,
    onReconnect: listeners.onReconnect,
    connected: () => listener !== null && !closed,
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      listeners.clear();
      const current = listener;
      listener = null;
      if (current) await current.close();
    },
  };
}
