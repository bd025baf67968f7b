import pg from 'pg';
import type { Logger } from '../../logger';
import type { Db } from '../../db/knex';
import { decodeNote, encodeNote, type ChangeBus, type ChangeNote } from './change-bus';

export interface PgBusOptions {
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
  const listeners = new Set<(note: ChangeNote) => void>();
  const reconnectListeners = new Set<() => void>();
  let client: pg.Client | null = null;
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

  async function connect(): Promise<void> {
    retryTimer = null;
    if (closed) return;
    const c = new pg.Client({ connectionString: options.connectionString, keepAlive: true });
    client = c;
    c.on('notification', (msg) => {
      if (msg.channel !== channel || !msg.payload) return;
      const note = decodeNote(msg.payload);
      if (note) for (const l of listeners) l(note);
    });
    c.on('error', (err) => lost(c, err));
    c.on('end', () => lost(c, null));
    try {
      await c.connect();
      await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (err) {
      lost(c, err as Error);
      if (!everConnected && attempt >= 3) rejectReady(new Error(`createPgBus: cannot LISTEN on PostgreSQL (${(err as Error).message}). Check DATABASE_URL or use BUS=memory.`));
      return;
    }
    attempt = 0;
    if (everConnected) {
      logger.info({ channel }, 'bus.pg_reconnected');
      for (const l of reconnectListeners) l();
    }
    everConnected = true;
    resolveReady();
  }

  function lost(c: pg.Client, err: Error | null): void {
    if (client !== c) return;
    client = null;
    c.removeAllListeners('notification');
    c.end().catch(() => {});
    if (closed) return;
    logger.warn({ err, channel }, 'bus.pg_connection_lost');
    const delay = Math.min(10_000, (options.retryMs ?? 250) * 2 ** attempt++);
    retryTimer = setTimeout(() => void connect(), delay);
    retryTimer.unref?.();
  }

  void connect();

  return {
    ready,
    async publish(note) {
      await db.raw('select pg_notify(?, ?)', [channel, encodeNote(note)]);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onReconnect(listener) {
      reconnectListeners.add(listener);
      return () => reconnectListeners.delete(listener);
    },
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      listeners.clear();
      reconnectListeners.clear();
      const c = client;
      client = null;
      if (c) await c.end().catch(() => {});
    },
  };
}
