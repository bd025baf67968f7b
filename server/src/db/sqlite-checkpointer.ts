import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Knex } from 'knex';
import type { Logger } from '../logger';
import { sqliteFileOf } from './knex';

/**
 * WAL checkpoints off the event loop (SQLite; docs/ingest.md "Durability").
 *
 * SQLite's automatic checkpoint runs inside the COMMIT that crosses 1,000 WAL pages: it copies
 * them into the database file and syncs both, 2–60 ms during which better-sqlite3 holds the
 * event loop and no request is read (B2's COMMIT outliers). The server turns the automatic
 * checkpoint off on its connection and a worker thread with a connection of its own runs
 * `PRAGMA wal_checkpoint(PASSIVE)` every `intervalMs`: PASSIVE never waits for a lock and never
 * blocks the writer, which keeps appending to the WAL meanwhile; SQLite restarts the WAL from
 * its start at the first commit after a checkpoint that copied everything. If the worker
 * fails, the connection gets its automatic checkpoint back, so the WAL cannot grow unbounded.
 * PostgreSQL and an in-memory database need none of this (`start` returns a no-op).
 */
export interface Checkpointer {
  stop(): Promise<void>;
}


/** The worker: CommonJS evaluated as is (no TypeScript loader needed in it, under tsx, vitest or a build). */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
let failures = 0;
function checkpoint() {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
    failures = 0;
  } catch (error) {
    // SQLITE_BUSY and the like pass with the next tick; a lasting failure hands the job back.
    if (++failures >= 5) parentPort.postMessage({ failed: String(error && error.message) });
  }
}
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.postMessage({ stopped: true });
});
`;

const require = createRequire(import.meta.url);

export async function startCheckpointer(db: Knex, logger: Logger, options: { intervalMs?: number } = {}): Promise<Checkpointer> {
  const file = sqliteFileOf(db);
  if (!file) return { stop: async () => {} };
  // Off while the worker runs; SQLite's default (1,000 pages) when it stops or fails.
  const setAutocheckpoint = (on: boolean) => (on ? db.raw('pragma wal_autocheckpoint = 1000') : db.raw('pragma wal_autocheckpoint = 0'));
  await setAutocheckpoint(false);
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { file, driver: require.resolve('better-sqlite3'), intervalMs: options.intervalMs ?? 250 },
  });
  let running = true;
  const handBack = (reason: string) => {
    if (!running) return;
    running = false;
    logger.error({ reason }, 'db.checkpointer_failed');
    void setAutocheckpoint(true).catch(() => {});
    void worker.terminate();
  };
  const stopped = new Promise<void>((resolve) => {
    worker.on('message', (message: { failed?: string; stopped?: boolean }) => {
      if (message.stopped) resolve();
      else if (message.failed) handBack(message.failed);
    });
    worker.once('exit', () => resolve());
  });
  worker.on('error', (error) => handBack(error.message));
  // Never what keeps the process alive: close() stops it, and a process that exits anyway loses
  // nothing (the WAL is replayed). After the listeners: adding a 'message' listener refs the port again.
  worker.unref();
  return {
    async stop() {
      if (!running) return;
      running = false;
      worker.postMessage('stop');
      await stopped;
      await worker.terminate();
      await setAutocheckpoint(true);
    },
  };
}
