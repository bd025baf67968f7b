import { open, type FileHandle } from 'node:fs/promises';
import type { Knex } from 'knex';
import { sqliteFileOf } from './knex';
import { DEFER_WAL_SYNC } from './sqlite-client';

/**
 * Group commit's WAL sync off the event loop (SQLite; docs/ingest.md "Durability").
 *
 * better-sqlite3 is synchronous: with `synchronous=FULL` the group's COMMIT blocks the event
 * loop for its fdatasync (~0.5 ms of a ~0.76 ms COMMIT on this box), and no request is read meanwhile. A group's
 * transaction instead runs with `transactionConfig` (sqlite-client.ts: at `synchronous=NORMAL`,
 * so its COMMIT writes the WAL frames without syncing them), and the lane then
 * awaits `durable()`: an fdatasync of the WAL file on libuv's thread pool. Nobody is answered
 * before it returns, so an acknowledged message is on disk exactly as with FULL (fdatasync
 * flushes every frame written before it started, whichever descriptor wrote them); the event
 * loop reads and verifies the next requests while the disk works. Every other transaction
 * keeps FULL.
 *
 * The WAL file is opened once: SQLite rewrites it in place after a checkpoint, and deletes it
 * only when the last connection closes (the server's lives as long as the process). PostgreSQL and an
 * in-memory database need none of this: both calls do nothing there.
 */
export interface WalSync {
  /** knex transaction config whose COMMIT skips the sync; whoever uses it awaits `durable()` before telling anyone. */
  readonly transactionConfig: Knex.TransactionConfig | undefined;
  /** Resolves once every commit that returned before this call is on disk. */
  durable(): Promise<void>;
  close(): Promise<void>;
}

const NOTHING_TO_SYNC: WalSync = {
  transactionConfig: undefined,
  durable: () => Promise.resolve(),
  close: async () => {},
};

export function createWalSync(db: Knex): WalSync {
  const file = sqliteFileOf(db);
  if (!file) return NOTHING_TO_SYNC;
  let handle: Promise<FileHandle> | null = null;
  /** The sync running now, and the one that will start after it (shared by everyone who asks meanwhile). */
  let running: Promise<void> | null = null;
  let queued: Promise<void> | null = null;

  function start(): Promise<void> {
    handle ??= open(`${file}-wal`, 'r+');
    const sync = handle.then((h) => h.datasync());
    sync.catch(() => {
      // Opened on the next try (an unreadable WAL is an error for this group only).
      handle = null;
    });
    running = sync.finally(() => {
      running = null;
    });
    return running;
  }

  return {
    transactionConfig: { [DEFER_WAL_SYNC]: true } as Knex.TransactionConfig,
    durable() {
      if (!running) return start();
      // The sync in flight may have started before this commit wrote its frames: the next one covers it.
      queued ??= running.catch(() => {}).then(() => {
        queued = null;
        return start();
      });
      return queued;
    },
    async close() {
      const h = await handle?.catch(() => null);
      handle = null;
      await h?.close();
    },
  };
}
