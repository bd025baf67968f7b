import pg from 'pg';
import type { Db } from './knex';

/**
 * PostgreSQL LISTEN/NOTIFY for the pg change bus (services/changes/pg-bus.ts): the bus owns
 * reconnecting; the SQL and the dedicated connection live here.
 */
export interface PgListener {
  close(): Promise<void>;
}

/**
 * Opens a dedicated connection and LISTENs on `channel`. `onLost` is called once when the
 * connection fails or ends (never after `close`); a failed open rejects after calling it.
 */
export async function openPgListener(options: {
  connectionString: string;
  channel: string;
  onNotification(payload: string): void;
  onLost(err: Error | null): void;
}): Promise<PgListener> {
  const client = new pg.Client({ connectionString: options.connectionString, keepAlive: true });
  let done = false;
  const lost = (err: Error | null) => {
    if (done) return;
    done = true;
    client.removeAllListeners('notification');
    client.end().catch(() => {});
    options.onLost(err);
  };
  client.on('notification', (msg) => {
    if (msg.channel === options.channel && msg.payload) options.onNotification(msg.payload);
  });
  client.on('error', (err) => lost(err));
  client.on('end', () => lost(null));
  try {
    await client.connect();
    await client.query(`LISTEN ${pg.escapeIdentifier(options.channel)}`);
  } catch (err) {
    lost(err as Error);
    throw err;
  }
  return {
    async close() {
      done = true;
      client.removeAllListeners('notification');
      await client.end().catch(() => {});
    },
  };
}

/** NOTIFY through the normal pool (no extra connection needed to publish). */
export async function pgNotify(db: Db, channel: string, payload: string): Promise<void> {
  await db.raw('select pg_notify(?, ?)', [channel, payload]);
}
