import type { Clock } from '../../clock';
import type { Logger } from '../../logger';
import { dialectOf, inJobScope, inSavepoint, type Db, type Executor, type SavepointOutcome, type Transaction } from '../../db/knex';
import { createChangeLogRepository } from '../../db/repositories/change-log-repository';
import { createWalSync } from '../../db/wal-sync';
import { enableWriteBehind, flushWrites } from '../../db/write-behind';
import type { ChangeBus } from './change-bus';

/** A record that a write created, changed or (soft-)deleted. */
export interface Change {
  /** Live collection name as clients subscribe to it: rooms, messages, contacts, departaments... */
  collection: string;
  id: string;
  op: 'upsert' | 'delete';
  /**
   * The write changed nothing derived data reads (a customer's message into an open room: the
   * daily reports, docs/reports.md): pre-commit hooks may skip it. Not logged.
   */
  reportNeutral?: boolean;
}

/** A committed change, numbered per tenant without gaps. */
export interface ChangeEvent extends Change {
  tenantId: string;
  seq: number;
  at: string;
}

export type RecordChange = (change: Change) => void;
type Work<T> = (trx: Transaction, record: RecordChange) => Promise<T>;

/**
 * Reads a group's jobs would each make one by one, made once for the whole group before its
 * jobs run, with every job's input (ingest's read-ahead, docs/ingest.md "Read-ahead"). A
 * reader only primes what its jobs will look up; a job must still be right without it (a
 * lone job, and the group's run with savepoints after a failure, skip the readers).
 */
export type GroupReader<I> = (trx: Transaction, inputs: I[]) => Promise<void>;
export interface GroupRead<I> {
  reader: GroupReader<I>;
  input: I;
}

/** A write waiting for the next group commit (`feed.grouped`). */
interface GroupJob {
  tenantId: string;
  work: Work<unknown>;
  read?: GroupRead<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/**
 * Jobs written by one group commit at most: bounds how long one transaction holds the writer
 * (SQLite) and how much one failed commit sends back to be retried.
 */
const GROUP_MAX = 200;
/** After a group whose optimistic run failed, the lane's next groups start with savepoints for this long. */
const SAVEPOINTS_AFTER_FAILURE_MS = 1_000;

/** Thrown inside a group's optimistic run to roll it back when one of its jobs failed. */
class OptimisticGroupFailed extends Error {}
type ChangeListener = (tenantId: string, events: ChangeEvent[]) => void | Promise<void>;
/** Runs inside the writer's transaction, before commit, with the changes it recorded. */
export type BeforeCommitHook = (trx: Transaction, tenantId: string, changes: Change[]) => Promise<void>;

/**
 * The one path by which writes become live events (docs/realtime.md):
 *
 * 1. a service runs its write in `feed.transaction(tenantId, async (trx, record) => ...)` and
 *    calls `record({ collection, id, op })` for each record it touched;
 * 2. just before commit the changes are appended to `change_log` with gap-free per-tenant
 *    sequence numbers (the counter row lock serialises numbering and commit per tenant, so a
 *    reader never sees seq 12 before seq 11);
 * 3. after commit — never before, never for a rollback — the bus tells every server process
 *    "tenant T reached seq N"; each process reads what it has not seen from the log, in order,
 *    and hands it to its listeners (the hub).
 */
export function createChangeFeed(deps: { db: Db; bus: ChangeBus; clock: Clock; logger: Logger }) {
  const { db, bus, clock, logger } = deps;
  const listeners = new Set<ChangeListener>();
  const beforeCommitHooks: BeforeCommitHook[] = [];
  /** Per tenant: last seq handed to listeners, and the promise chain that keeps order. */
  const tenants = new Map<string, { delivered: number; noted: number; chain: Promise<void> }>();
  /** Events this process committed, kept until dispatched so the origin skips a log read. */
  const pending = new Map<string, Map<number, ChangeEvent>>();

  const log = createChangeLogRepository(db);
  const wal = createWalSync(db);

  function latestSeq(tenantId: string, q: Executor = db): Promise<number> {
    return log.latestSeq(tenantId, q);
  }

  async function since(tenantId: string, afterSeq: number, limit = 1000, q: Executor = db): Promise<ChangeEvent[]> {
    return (await log.since(tenantId, afterSeq, limit, q)).map((e) => ({ tenantId, ...e }));
  }

  /** Appends the changes to the log inside the caller's transaction; returns the events. */
  async function append(trx: Transaction, tenantId: string, changes: Change[]): Promise<ChangeEvent[]> {
    // Same record touched twice in one transaction: one event, the last op wins, at its last place.
    const unique = new Map<string, Change>();
    for (const c of changes) {
      const key = `${c.collection}\u0000${c.id}`;
      unique.delete(key); // keeps the order in which records were last touched
      unique.set(key, { collection: c.collection, id: c.id, op: c.op });
    }
    const list = [...unique.values()];
    const n = list.length;
    const at = clock.now().toISOString();
    const last = await log.reserveAndAppend(trx, tenantId, list, at);
    return list.map((c, i) => ({ ...c, tenantId, seq: last - n + 1 + i, at }));
  }

  function stateOf(tenantId: string) {
    let state = tenants.get(tenantId);
    if (!state) {
      state = { delivered: -1, noted: -1, chain: Promise.resolve() };
      tenants.set(tenantId, state);
    }
    return state;
  }

  /** Delivers everything up to `seq` for the tenant, in order, each event once. */
  function dispatch(tenantId: string, seq: number): Promise<void> {
    const state = stateOf(tenantId);
    if (seq > state.noted) state.noted = seq;
    state.chain = state.chain.then(async () => {
      if (state.delivered < 0) {
        // Nobody here listened to this tenant before: start at this note, nothing older is owed.
        state.delivered = seq - 1 - countPendingBelow(tenantId, seq);
      }
      while (state.delivered < seq) {
        const known = pending.get(tenantId);
        let batch: ChangeEvent[] = [];
        for (let s = state.delivered + 1; s <= seq && known?.has(s); s++) batch.push(known.get(s)!);
        if (batch.length === 0) batch = await since(tenantId, state.delivered, 1000);
        if (batch.length === 0) break;
        for (const e of batch) known?.delete(e.seq);
        state.delivered = batch[batch.length - 1]!.seq;
        // Every listener is handed the batch in the same tick that `delivered` moves, so a
        // listener comparing its own position with `track()` never sees a batch "in flight".
        await Promise.all(
          [...listeners].map(async (listener) => {
            try {
              await listener(tenantId, batch);
            } catch (err) {
              logger.error({ err, tenantId }, 'changes.listener_failed');
            }
          }),
        );
      }
      const known = pending.get(tenantId);
      if (known) for (const s of known.keys()) if (s <= state.delivered) known.delete(s);
    });
    return state.chain;
  }

  function countPendingBelow(tenantId: string, seq: number): number {
    const known = pending.get(tenantId);
    if (!known) return 0;
    let n = 0;
    while (known.has(seq - n)) n++;
    return Math.max(0, n - 1);
  }

  /** Runs a writer's work, then the before-commit hooks on the changes it recorded (into `changes`). */
  async function runWork<T>(trx: Transaction, tenantId: string, work: Work<T>, changes: Change[]): Promise<T> {
    const value = await work(trx, (change) => changes.push(change));
    // Derived data kept atomically with the write (the daily reports, docs/reports.md).
    if (changes.length) for (const hook of beforeCommitHooks) await hook(trx, tenantId, changes);
    return value;
  }

  /** Makes committed events live: this process delivers at once, the bus tells the others. */
  function publish(tenantId: string, events: ChangeEvent[]): void {
    if (events.length === 0) return;
    let known = pending.get(tenantId);
    if (!known) pending.set(tenantId, (known = new Map()));
    for (const e of events) known.set(e.seq, e);
    const seq = events[events.length - 1]!.seq;
    // This process delivers at once, without waiting for its own note to come back.
    void dispatch(tenantId, seq);
    // Not awaited: a slow or unreachable bus must not hold the caller's request. The write
    // is committed; other processes catch up at the next note or when their bus reconnects.
    bus.publish({ tenantId, seq }).catch((err) => logger.error({ err, tenantId }, 'changes.publish_failed'));
  }

  /**
   * Group commit (docs/ingest.md). Jobs queue per lane until the event loop's next check phase
   * (every request received in this turn) or while the lane's previous group is committing;
   * the next group writes all of them in one transaction, each in its own savepoint
   * (a failing job rolls back alone and gets its own error), appends each tenant's changes to
   * the log once, commits once, then answers every job and publishes once per tenant. SQLite
   * has one writer connection, so one lane serves every tenant; on PostgreSQL each tenant has
   * its own lane (tenants commit side by side; one tenant's commits are serialised by its log
   * counter row anyway).
   */
  const lanes = new Map<string, GroupJob[]>();
  const pg = dialectOf(db) === 'pg';
  const laneOf = pg ? (tenantId: string) => tenantId : () => '';

  async function drainLane(lane: string, queue: GroupJob[]): Promise<void> {
    try {
      do {
        // Let every request already received reach the queue first: on SQLite a transaction runs
        // to its COMMIT in microtasks (the driver is synchronous), so without this turn of the
        // event loop no request would ever be parsed while a commit is in flight.
        await new Promise<void>((resolve) => setImmediate(resolve));
        await commitGroup(queue.splice(0, GROUP_MAX));
      } while (queue.length);
    } catch (error) {
      // commitGroup settles its own jobs; this is a bug after the commit: nobody may wait forever.
      logger.error({ err: error }, 'changes.group_failed');
      for (const job of queue.splice(0)) job.reject(error);
    } finally {
      lanes.delete(lane);
    }
  }

  /** Until when groups run with a savepoint per job from the start (a failure was just seen). */
  let savepointsUntil = 0;

  /**
   * One group in one transaction. First optimistically, jobs one after another without
   * savepoints (two statements fewer per job, a round trip each on PostgreSQL): almost every
   * group commits so. If a job throws, that run is rolled back whole and the group runs again
   * with a savepoint per job, so only the failing job fails (docs/ingest.md "Group commit").
   */
  async function commitGroup(jobs: GroupJob[]): Promise<void> {
    if (jobs.length > 1 && Date.now() >= savepointsUntil) {
      const done = await runGroup(jobs, false);
      if (done) return;
      savepointsUntil = Date.now() + SAVEPOINTS_AFTER_FAILURE_MS;
    }
    await runGroup(jobs, true);
  }

  /** Each reader of the group's jobs once, with their inputs in job order. */
  async function readAhead(trx: Transaction, jobs: GroupJob[]): Promise<void> {
    const inputs = new Map<GroupReader<unknown>, unknown[]>();
    for (const { read } of jobs) {
      if (!read) continue;
      const list = inputs.get(read.reader);
      if (list) list.push(read.input);
      else inputs.set(read.reader, [read.input]);
    }
    for (const [reader, list] of inputs) await reader(trx, list);
  }

  /** Runs and settles the group; false (nothing settled, nothing committed) when an optimistic run met a failing job. */
  async function runGroup(jobs: GroupJob[], savepoints: boolean): Promise<boolean> {
    const outcomes: Array<SavepointOutcome<unknown>> = [];
    const written = new Map<string, ChangeEvent[]>();
    try {
      // SQLite: the COMMIT leaves the WAL's sync to `wal.durable()` below, off the event loop.
      await log.transaction(async (trx) => {
        const byTenant = new Map<string, Change[]>();
        const optimistic = jobs.length > 1 && !savepoints;
        if (optimistic) {
          // Held-back writes (write-behind.ts) fail this run, not a job: the rerun with savepoints writes each job's own.
          if (pg) enableWriteBehind(trx);
          await readAhead(trx, jobs);
        }
        for (const job of jobs) {
          const changes: Change[] = [];
          const run = () => runWork(trx, job.tenantId, job.work, changes);
          // Alone in its group (a quiet moment), a job needs no savepoint: its failure is the transaction's.
          const outcome: SavepointOutcome<unknown> = jobs.length === 1 ? { ok: true, value: await run(), afterCommit: [] } : savepoints ? await inSavepoint(trx, run) : await inJobScope(trx, run);
          if (!outcome.ok && !savepoints) throw new OptimisticGroupFailed();
          outcomes.push(outcome);
          if (outcome.ok && changes.length) {
            const list = byTenant.get(job.tenantId);
            if (list) list.push(...changes);
            else byTenant.set(job.tenantId, changes);
          }
        }
        if (optimistic) await flushWrites(trx);
        // Counter rows locked in one order by every group: two groups never wait on each other in a cycle.
        for (const tenantId of [...byTenant.keys()].sort()) written.set(tenantId, await append(trx, tenantId, byTenant.get(tenantId)!));
      }, wal.transactionConfig);
    } catch (error) {
      if (!savepoints) return false;
      // Nothing of the group is committed: every job fails (with its own error if it had one).
      jobs.forEach((job, i) => {
        const outcome = outcomes[i];
        job.reject(outcome && !outcome.ok ? outcome.error : error);
      });
      return true;
    }
    // Nobody hears of the group before its rows are on disk (an acknowledged message survives a power loss).
    const unsynced = await wal.durable().then(
      () => null,
      (error: unknown) => {
        // Committed but maybe not on disk: every job fails, so its sender retries (ingest is idempotent).
        logger.error({ err: error }, 'changes.wal_sync_failed');
        return { error };
      },
    );
    for (const [tenantId, events] of written) publish(tenantId, events);
    jobs.forEach((job, i) => {
      const outcome = outcomes[i]!;
      if (!outcome.ok) return job.reject(outcome.error);
      for (const fn of outcome.afterCommit) {
        try {
          fn();
        } catch (err) {
          logger.error({ err, tenantId: job.tenantId }, 'changes.after_commit_failed');
        }
      }
      if (unsynced) job.reject(unsynced.error);
      else job.resolve(outcome.value);
    });
    return true;
  }

  const unsubscribeBus = bus.subscribe((note) => {
    void dispatch(note.tenantId, note.seq);
  });
  // Notes sent while a bus connection was down are lost: catch up every tenant we deliver.
  const unsubscribeReconnect = bus.onReconnect?.(() => {
    for (const tenantId of tenants.keys()) {
      void latestSeq(tenantId)
        .then((seq) => dispatch(tenantId, seq))
        .catch((err) => logger.error({ err, tenantId }, 'changes.catch_up_failed'));
    }
  });

  return {
    /**
     * Runs `work` in one transaction. Changes passed to `record` are logged before commit and
     * published after it.
     * @example await feed.transaction(tenantId, async (trx, record) => { await tags.insert(trx, tenantId, tag); record({ collection: 'tags', id: tag.id, op: 'upsert' }); });
     */
    async transaction<T>(tenantId: string, work: Work<T>): Promise<T> {
      let events: ChangeEvent[] = [];
      const result = await log.transaction(async (trx) => {
        const changes: Change[] = [];
        const value = await runWork(trx, tenantId, work, changes);
        if (changes.length) events = await append(trx, tenantId, changes);
        return value;
      });
      publish(tenantId, events);
      return result;
    },

    /**
     * `transaction` for the hot write path (inbound messages and receipts): `work` joins the
     * next group commit with whatever else arrived meanwhile, and resolves only once that
     * commit is done. `work` must not wait on anything outside the transaction (another
     * request, the network): the whole group waits with it. `read` joins the group's
     * read-ahead (GroupReader): its reader runs once before the jobs with every job's input.
     */
    grouped<T, I = never>(tenantId: string, work: Work<T>, read?: GroupRead<I>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const lane = laneOf(tenantId);
        let queue = lanes.get(lane);
        const job: GroupJob = { tenantId, work, read: read as GroupRead<unknown> | undefined, resolve: resolve as (value: unknown) => void, reject };
        if (queue) return void queue.push(job);
        lanes.set(lane, (queue = [job]));
        void drainLane(lane, queue);
      });
    },

    /**
     * Runs a read (a subscription's snapshot) and returns the tenant's seq it is consistent
     * with: changes after that seq are exactly the ones the snapshot does not reflect.
     */
    async read<T>(tenantId: string, work: (trx: Transaction) => Promise<T>): Promise<{ result: T; seq: number }> {
      return log.readConsistent(async (trx) => {
        const seq = await latestSeq(tenantId, trx);
        const result = await work(trx);
        return { result, seq };
      });
    },

    /** Logged changes after `afterSeq`, oldest first (resume after a reconnect). */
    since,
    latestSeq,

    /** The oldest seq still in the log for the tenant (older cursors need a fresh snapshot). */
    async oldestSeq(tenantId: string): Promise<number> {
      return (await log.oldestSeq(tenantId)) ?? (await latestSeq(tenantId)) + 1;
    },

    /**
     * Makes sure this process delivers the tenant's changes after `seq` (a subscription whose
     * snapshot is at `seq`). Returns the seq listeners have already been given: the caller
     * reads (seq, returned] with `since` itself, in the same tick it starts listening.
     */
    track(tenantId: string, seq: number): number {
      const state = stateOf(tenantId);
      if (state.delivered < 0) state.delivered = seq;
      return state.delivered;
    },

    /**
     * Hooks that derive data from a transaction's changes inside it, before commit (a failing
     * hook rolls the write back, so derived data never disagrees with what was written).
     */
    beforeCommit(hook: BeforeCommitHook): () => void {
      beforeCommitHooks.push(hook);
      return () => {
        const i = beforeCommitHooks.indexOf(hook);
        if (i >= 0) beforeCommitHooks.splice(i, 1);
      };
    },

    /** Listeners get each tenant's committed changes once, in seq order. */
    onChanges(listener: ChangeListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    /** Resolves when everything noted so far has been delivered (tests, shutdown). */
    async idle(): Promise<void> {
      await Promise.all([...tenants.values()].map((s) => s.chain));
    },

    /** Change-feed lag for /metrics: events noted (own commits, bus notes) but not yet handed to listeners. */
    stats(): { tenants: number; undelivered: number } {
      let undelivered = 0;
      for (const state of tenants.values()) if (state.delivered >= 0 && state.noted > state.delivered) undelivered += state.noted - state.delivered;
      return { tenants: tenants.size, undelivered };
    },

    /** Deletes log rows older than `before` (ISO date); cursors older than that get a fresh snapshot. */
    async prune(before: string): Promise<number> {
      return log.pruneBefore(before);
    },

    close(): void {
      void wal.close();
      unsubscribeBus();
      unsubscribeReconnect?.();
      listeners.clear();
    },
  };
}

export type ChangeFeed = ReturnType<typeof createChangeFeed>;
