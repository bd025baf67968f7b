import type { Clock } from '../../clock';
import type { Logger } from '../../logger';
import { dialectOf, type Db, type Transaction, type Executor } from '../../db/knex';
import type { Deadline, DeadlineInput, DeadlineRepository, ScheduleMode } from '../../db/repositories/deadline-repository';
import type { ChangeFeed, RecordChange } from '../changes/change-feed';

/** What a deadline's action gets: its transaction (the deadline row goes with it), the clock's now. */
export interface FireContext {
  trx: Transaction;
  record: RecordChange;
  tenantId: string;
  deadline: Deadline;
  now: Date;
  /** Runs after the transaction commits (deliveries through a channel, router kicks). */
  afterCommit(fn: () => void | Promise<void>): void;
}

/** Moving the deadline instead of removing it: the action runs again at `at`. */
export interface Reschedule {
  moveTo: Date;
  payload?: Record<string, unknown>;
}

/**
 * One kind of time-based action. `lock` runs first in the firing transaction and locks the
 * subject the action writes (a room, a contingency) BEFORE the deadline row: every other
 * writer that touches both takes them in that order too, so PostgreSQL never deadlocks.
 */
export interface DeadlineHandler {
  lock?(trx: Transaction, tenantId: string, subjectId: string): Promise<void>;
  fire(ctx: FireContext): Promise<void | Reschedule>;
}

export interface SchedulerDeps {
  db: Db;
  deadlines: DeadlineRepository;
  feed: ChangeFeed;
  clock: Clock;
  logger: Logger;
  /** Deadlines read per scan. */
  batch?: number;
  /** Deadlines fired at once (PostgreSQL; SQLite has one connection, so one at a time). */
  parallel?: number;
}

/** Wait before retrying a failed action: 5 s, 10 s, 20 s … up to 10 min. */
export function retryDelayMs(attempts: number): number {
  return Math.min(600_000, 5_000 * 2 ** Math.min(attempts, 7));
}

/**
 * The durable scheduler (docs/routing.md "The clock"): every time-based rule is a row in
 * `deadlines`, never a setTimeout, so it survives restarts. A scan reads what is due at
 * `clock.now()`; each due row fires in its own transaction that locks the action's subject,
 * claims the row (PostgreSQL: FOR UPDATE SKIP LOCKED, so with several server processes each
 * row fires in exactly one of them) and deletes or moves it together with the action's
 * writes. A crash before the commit leaves the row due; after it, the row is gone: each
 * action fires exactly once. On SQLite the single process fires them one by one.
 *
 * To add a kind of deadline: `scheduler.handle('kind', { lock?, fire })` at start-up, then
 * `scheduler.schedule(trx, tenantId, { key, kind, subjectId, dueAt, payload })` wherever the
 * rule starts counting, in the same transaction as the write that starts it.
 */
export function createScheduler(deps: SchedulerDeps) {
  const { db, deadlines, feed, clock, logger } = deps;
  const batch = deps.batch ?? 200;
  const parallel = dialectOf(db) === 'pg' ? Math.max(1, deps.parallel ?? 4) : 1;
  const handlers = new Map<string, DeadlineHandler>();
  let running: Promise<number> | null = null;
  let again = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = true;
  let pollMs = 1_000;
  /** For /metrics: how late the oldest due deadline was at the last scan, and when that scan ran. */
  let lagMs = 0;
  let lastScanAt: Date | null = null;

  async function fireOne(due: { tenantId: string; key: string; kind: string; subjectId: string | null }, now: Date): Promise<boolean> {
    const handler = handlers.get(due.kind);
    if (!handler) {
      // A kind this version does not know (a newer process wrote it): retried later, never lost.
      await deadlines.fail(due.tenantId, due.key, new Date(now.getTime() + 600_000).toISOString(), `no handler for kind "${due.kind}"`);
      return false;
    }
    const after: (() => void | Promise<void>)[] = [];
    try {
      const fired = await feed.transaction(due.tenantId, async (trx, record) => {
        after.length = 0;
        if (handler.lock && due.subjectId) await handler.lock(trx, due.tenantId, due.subjectId);
        const deadline = await deadlines.claim(trx, due.tenantId, due.key, now.toISOString());
        if (!deadline) return false;
        const outcome = await handler.fire({ trx, record, tenantId: due.tenantId, deadline, now, afterCommit: (fn) => after.push(fn) });
        if (outcome) await deadlines.move(trx, due.tenantId, due.key, outcome.moveTo.toISOString(), outcome.payload ?? deadline.payload);
        else await deadlines.complete(trx, due.tenantId, due.key);
        return true;
      });
      for (const fn of after) {
        try {
          await fn();
        } catch (err) {
          logger.error({ err, key: due.key }, 'scheduler.after_commit_failed');
        }
      }
      return fired;
    } catch (err) {
      const current = await deadlines.find(due.tenantId, due.key).catch(() => null);
      const attempts = current?.attempts ?? 0;
      logger.error({ err, tenantId: due.tenantId, key: due.key, attempts }, 'scheduler.fire_failed');
      if (current) await deadlines.fail(due.tenantId, due.key, new Date(clock.now().getTime() + retryDelayMs(attempts)).toISOString(), err instanceof Error ? err.message : String(err)).catch(() => {});
      return false;
    }
  }

  async function scanOnce(): Promise<number> {
    let fired = 0;
    // Bounded: a row an action keeps moving to "now" cannot hold the scan forever.
    for (let round = 0; round < 50; round++) {
      const now = clock.now();
      const due = await deadlines.due(now.toISOString(), batch);
      if (round === 0) {
        lastScanAt = now;
        lagMs = due[0] ? Math.max(0, now.getTime() - Date.parse(due[0].dueAt)) : 0;
      }
      if (due.length === 0) break;
      let index = 0;
      let progress = 0;
      await Promise.all(
        Array.from({ length: Math.min(parallel, due.length) }, async () => {
          while (index < due.length) {
            const item = due[index++]!;
            if (await fireOne(item, now)) progress++;
          }
        }),
      );
      fired += progress;
      // Another round while anything fired: an action may have moved its row to a time already due.
      if (progress === 0) break;
    }
    return fired;
  }

  function schedulePoll(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = null;
      void tick().finally(schedulePoll);
    }, pollMs);
    timer.unref?.();
  }

  /**
   * Fires everything due now. Calls while a scan runs wait for it and then scan once more, so a
   * caller that moved the clock sees its deadlines fired when this resolves.
   */
  async function tick(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let total = 0;
      do {
        again = false;
        try {
          total += await scanOnce();
        } catch (err) {
          logger.error({ err }, 'scheduler.scan_failed');
        }
      } while (again);
      return total;
    })().finally(() => {
      running = null;
    });
    return running;
  }

  return {
    /** Registers the action of a kind of deadline. */
    handle(kind: string, handler: DeadlineHandler): void {
      if (handlers.has(kind)) throw new Error(`scheduler.handle: kind "${kind}" is already handled.`);
      handlers.set(kind, handler);
    },

    /** Creates (or replaces, keeps, moves earlier: `mode`) a deadline inside the caller's transaction. */
    schedule(trx: Executor, tenantId: string, input: DeadlineInput, mode: ScheduleMode = 'replace'): Promise<void> {
      return deadlines.schedule(trx, tenantId, input, mode, clock.now().toISOString());
    },

    /** Several deadlines at once, keeping rows already there (one statement). */
    scheduleIfAbsent(trx: Executor, tenantId: string, inputs: DeadlineInput[]): Promise<void> {
      return deadlines.scheduleMany(trx, tenantId, inputs, clock.now().toISOString());
    },

    cancel(trx: Executor, tenantId: string, key: string): Promise<void> {
      return deadlines.cancel(trx, tenantId, key);
    },

    tick,

    /** Scheduler lag for /metrics (docs/production.md "Monitoring"). */
    stats(): { lagMs: number; lastScanAt: Date | null } {
      return { lagMs, lastScanAt };
    },

    /** Scans every `everyMs` (a deadline fires at most this late) until stop(). */
    start(everyMs = 1_000): void {
      pollMs = everyMs;
      if (!stopped) return;
      stopped = false;
      schedulePoll();
    },

    /** Stops scanning and waits for a scan in progress. */
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running?.catch(() => 0);
    },

    deadlines,
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;
