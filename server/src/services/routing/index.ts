import { channelTypes, type ContingencyRecord } from '@atendimento/schemas';
import type { Clock } from '../../clock';
import type { Logger } from '../../logger';
import { afterCommit, type Db, type Transaction } from '../../db/knex';
import type { ChatDirectoryRepository } from '../../db/repositories/chat-directory-repository';
import type { MessageRepository } from '../../db/repositories/message-repository';
import type { RoomRepository } from '../../db/repositories/room-repository';
import { createRoutingRepository } from '../../db/repositories/routing-repository';
import type { StatusRepository } from '../../db/repositories/status-repository';
import type { ChangeFeed } from '../changes/change-feed';
import type { ChatHooks } from '../chat/chat-hooks';
import type { SenderFor } from '../chat/channel-senders';
import type { Scheduler } from '../scheduler/scheduler';
import { createInbound } from './inbound';
import { createRouter } from './router';
import { createRoutingConfig } from './routing-config';
import { createRoutingMessages } from './routing-messages';
import { createTimers, type Timers } from './timers';

export interface RoutingDeps {
  db: Db;
  feed: ChangeFeed;
  clock: Clock;
  logger: Logger;
  scheduler: Scheduler;
  rooms: RoomRepository;
  messages: MessageRepository;
  directory: ChatDirectoryRepository;
  statuses: StatusRepository;
  senderFor: SenderFor;
  /** Delivers a stored message through its channel (the chat's message service). */
  dispatch(tenantId: string, messageId: string): Promise<void>;
  /** Config cache lifetime (register change events invalidate it before that). */
  configTtlMs?: number;
  windowMs?: number;
}

/**
 * Routing and the contact-center clock (docs/routing.md), wired once: the assignment engine,
 * the clock's rules on the durable scheduler, and the chat hooks (`chatHooks`) the chat
 * domain calls from ingest and push. `start` follows register and presence changes on the
 * change feed (in every process, over the bus), sweeps queues every `sweepMs` and runs the
 * scheduler; `stop` ends all three.
 */
export function createRouting(deps: RoutingDeps) {
  const { db, feed, clock, logger, scheduler } = deps;
  const repo = createRoutingRepository(db);
  const config = createRoutingConfig({ db, repo, ttlMs: deps.configTtlMs });
  const msgs = createRoutingMessages({ rooms: deps.rooms, messages: deps.messages, senderFor: deps.senderFor, clock });
  let timers: Timers | null = null;
  const router = createRouter({
    db, feed, clock, logger, repo, rooms: deps.rooms, statuses: deps.statuses, config, msgs, dispatch: deps.dispatch, windowMs: deps.windowMs,
    timers: () => timers!.assignment,
  });
  timers = createTimers({ scheduler, config, repo, rooms: deps.rooms, msgs, clock, logger, kick: router.kick, dispatch: deps.dispatch });
  const onInbound = createInbound({ config, repo, msgs, timers, directory: deps.directory, clock, logger, kick: router.kick, dispatch: deps.dispatch });
  const presenceChain = new Map<string, Promise<void>>();
  let unsubscribe: (() => void) | null = null;
  let sweepTimer: ReturnType<typeof setInterval> | null = null;

  /** An agent's presence changed: drain their departments toward them, or return their unanswered chats. */
  async function presenceChanged(tenantId: string, userId: string): Promise<void> {
    const { all, available } = await router.agentsOf(db, tenantId, [userId], clock.now());
    if (!all.has(userId)) return;
    if (available.has(userId)) {
      for (const departmentId of await repo.departmentsOfAgent(db, tenantId, userId)) void router.kick(tenantId, departmentId);
    } else {
      await router.returnAssignments(tenantId, userId);
    }
  }

  function onPresence(tenantId: string, userId: string): void {
    const key = `${tenantId}\u0000${userId}`;
    const next = (presenceChain.get(key) ?? Promise.resolve())
      .then(() => presenceChanged(tenantId, userId))
      .catch((err) => logger.error({ err, tenantId, userId }, 'routing.presence_failed'))
      .finally(() => {
        if (presenceChain.get(key) === next) presenceChain.delete(key);
      });
    presenceChain.set(key, next);
  }

  /** Departments with queued chats and a rule that assigns: routed (after a restart, a lost kick). */
  async function sweep(): Promise<void> {
    const channels = channelTypes((c) => c.autoAssign !== false);
    for (const tenantId of await repo.tenantIds()) {
      const tenant = await config.tenant(tenantId);
      if (![...tenant.departments.values()].some((d) => d.rule !== 'wait')) continue;
      for (const departmentId of await repo.departmentsWithQueue(tenantId, channels)) {
        if ((tenant.departments.get(departmentId)?.rule ?? 'wait') !== 'wait') void router.kick(tenantId, departmentId);
      }
    }
  }

  const chatHooks: ChatHooks = {
    onInbound,
    pushRefused: (trx, tenantId, viewer, roomId, error) => router.pushRefused(trx, tenantId, viewer, roomId, error),
    beforePush: (trx, tenantId, viewer, room, targets) => router.beforeTake(trx, tenantId, viewer, room, targets),
    async afterPush(trx, record, tenantId, viewer, saved, previous) {
      return router.afterTake(trx, record, tenantId, viewer, saved, previous, (ids) =>
        afterCommit(trx, () => {
          for (const id of ids) void deps.dispatch(tenantId, id).catch((err) => logger.error({ err, tenantId }, 'routing.dispatch_failed'));
        }),
      );
    },
    afterRelease(tenantId, departmentIds) {
      for (const id of new Set(departmentIds)) if (id) void router.kick(tenantId, id);
    },
  };

  return {
    chatHooks,
    config,
    router,
    timers,
    scheduler,
    repo,

    /** Contingency saved (register hook, same transaction): its end is on the clock. */
    scheduleContingencyEnd(trx: Transaction, tenantId: string, contingency: ContingencyRecord): Promise<void> {
      return timers!.scheduleContingencyEnd(trx, tenantId, contingency);
    },

    sweep,

    /** Routes every department with a queue now and waits for it (tests, after direct writes). */
    async routeAll(): Promise<void> {
      await sweep();
      await router.idle();
    },

    start(options: { schedulerPollMs?: number; sweepMs?: number } = {}): void {
      unsubscribe ??= feed.onChanges((tenantId, events) => {
        for (const e of events) {
          if (e.collection === 'departaments') {
            config.invalidate(tenantId);
            void router.kick(tenantId, e.id);
          } else if (e.collection === 'queues' || e.collection === 'contingecies' || e.collection === 'appConfig') {
            // appConfig: the settings screen changed the tenant's time zone (business hours).
            config.invalidate(tenantId);
          } else if (e.collection === 'presence') {
            onPresence(tenantId, e.id);
          }
        }
      });
      scheduler.start(options.schedulerPollMs ?? 1_000);
      if (!sweepTimer && (options.sweepMs ?? 30_000) > 0) {
        sweepTimer = setInterval(() => void sweep().catch((err) => logger.error({ err }, 'routing.sweep_failed')), options.sweepMs ?? 30_000);
        sweepTimer.unref?.();
        void sweep().catch((err) => logger.error({ err }, 'routing.sweep_failed'));
      }
    },

    /** Resolves when routing passes, presence reactions and a scheduler scan in progress are done. */
    async idle(): Promise<void> {
      for (let i = 0; i < 5; i++) {
        await Promise.all([...presenceChain.values()]);
        await router.idle();
        if (presenceChain.size === 0) break;
      }
    },

    async stop(): Promise<void> {
      unsubscribe?.();
      unsubscribe = null;
      if (sweepTimer) clearInterval(sweepTimer);
      sweepTimer = null;
      await scheduler.stop();
      await this.idle();
    },
  };
}

export type Routing = ReturnType<typeof createRouting>;
