import type { Transaction } from '../../db/knex';
import { contingencyWindow, format, isOpenAt, messages as texts, nextOpening, type ContingencyRecord, type Room } from '@atendimento/schemas';
import type { Clock } from '../../clock';
import type { Logger } from '../../logger';
import type { RoomRepository } from '../../db/repositories/room-repository';
import type { RoutingRepository } from '../../db/repositories/routing-repository';
import type { Scheduler } from '../scheduler/scheduler';
import { agentRoutingOf, type AgentRouting, type AssignmentTimers } from './router';
import { roomQueueOf, type DepartmentRouting, type RoutingConfig, type TenantRouting } from './routing-config';
import { draftOf, type RoutingMessages } from './routing-messages';

const MINUTE = 60_000;

/** Deadline kinds and keys (one row per room and rule, per department opening, per contingency). */
export const DEADLINES = {
  waiting: { kind: 'waiting', key: (roomId: string) => `waiting:${roomId}` },
  rule: { kind: 'rule', key: (roomId: string, index: number) => `rule:${roomId}:${index}` },
  inactivity: { kind: 'inactivity', key: (roomId: string) => `inactive:${roomId}` },
  opening: { kind: 'opening', key: (departmentId: string) => `opening:${departmentId}` },
  contingencyEnd: { kind: 'contingencyEnd', key: (contingencyId: string) => `contingency:${contingencyId}` },
} as const;

/** The last message of the customer or of an agent (automatic messages are not activity). */
export function lastActivity(room: Room): string {
  const times = [room.lifeControl.createdAt, room.lastMessages.contactMessage?.createdAt, room.lastMessages.agentMessage?.createdAt].filter((t): t is string => Boolean(t));
  return times.sort().at(-1)!;
}

/** Where a chat's inactivity counts from: its last activity, or an agent taking it later (`since`). */
function inactiveSince(room: Room, since?: string): string {
  const last = lastActivity(room);
  return since && since > last ? since : last;
}

const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
const plus = (iso: string, minutes: number) => new Date(Date.parse(iso) + minutes * MINUTE);
const addOnce = <T extends { id: string }>(list: T[], items: T[]) => [...list, ...items.filter((i) => !list.some((l) => l.id === i.id))];

export interface TimersDeps {
  scheduler: Scheduler;
  config: RoutingConfig;
  repo: RoutingRepository;
  rooms: RoomRepository;
  msgs: RoutingMessages;
  clock: Clock;
  logger: Logger;
  kick(tenantId: string, departmentId: string | null | undefined): Promise<void>;
  dispatch(tenantId: string, messageId: string): Promise<void>;
}

/**
 * The contact-center clock (docs/routing.md): where each time-based rule starts counting
 * (schedule helpers, called inside the write that starts it) and what it does when due (the
 * scheduler's handlers). A handler re-reads the room under its lock and checks the rule still
 * holds (the customer wrote meanwhile, an agent answered, the rule was edited): a deadline is
 * a promise to look, not a decision taken in advance.
 */
export function createTimers(deps: TimersDeps) {
  const { scheduler, config, repo, rooms, msgs, clock, logger } = deps;
  const lockRoom = async (trx: Transaction, tenantId: string, roomId: string) => {
    await rooms.findById(tenantId, roomId, trx, true);
  };

  async function agentOfRoom(trx: Transaction, tenantId: string, room: Room): Promise<AgentRouting | null> {
    const first = room.agents[0];
    if (!first) return null;
    const [row] = await repo.agents(trx, tenantId, [first.id]);
    return row ? agentRoutingOf(row) : null;
  }

  function transhipmentOf(tenant: TenantRouting, room: Room, dept: DepartmentRouting | null, agent: AgentRouting | null): string | null {
    if (dept?.noTranshipment || agent?.noTranshipment) return null;
    const queue = room.queues[0] ? tenant.queues.get(room.queues[0].id) : undefined;
    return agent?.transhipment ?? (queue && !queue.isDept ? queue.transhipment : null) ?? dept?.transhipment ?? null;
  }

  function afterCommitDispatch(tenantId: string, ids: string[]): () => void {
    return () => {
      for (const id of ids) void deps.dispatch(tenantId, id).catch((err) => logger.error({ err, tenantId }, 'routing.dispatch_failed'));
    };
  }

  const timers = {
    /** The room entered the department's queue at `queuedAt`: its waiting time starts. */
    async onQueued(trx: Transaction, tenantId: string, room: Room, queuedAt: string, dept: DepartmentRouting | null, tenant: TenantRouting): Promise<void> {
      if (!dept?.waitingMinutes || !transhipmentOf(tenant, room, dept, null)) return;
      // Outside business hours the waiting starts at the opening.
      const opening = dept.daysWork ? nextOpening(dept.daysWork, Date.parse(queuedAt), tenant.timeZone) : null;
      const start = opening && opening.toISOString() > queuedAt ? opening.toISOString() : queuedAt;
      await scheduler.schedule(trx, tenantId, {
        key: DEADLINES.waiting.key(room.id), kind: DEADLINES.waiting.kind, subjectId: room.id,
        dueAt: plus(start, dept.waitingMinutes).toISOString(), payload: { queuedAt, since: queuedAt, source: 'department' },
      });
    },

    /** A customer message: the department's automatic rules count from it; inactivity restarts. */
    async onCustomerMessage(trx: Transaction, tenantId: string, room: Room, dept: DepartmentRouting | null): Promise<void> {
      if (!dept) return;
      const basis = room.lastMessages.contactMessage?.createdAt ?? room.lifeControl.createdAt;
      const inputs = dept.rules.map((rule, index) => ({
        key: DEADLINES.rule.key(room.id, index), kind: DEADLINES.rule.kind, subjectId: room.id,
        dueAt: plus(basis, rule.minutes).toISOString(), payload: { index, signature: rule.signature, basis, n: 1 },
      }));
      await scheduler.scheduleIfAbsent(trx, tenantId, inputs);
      if (dept.inactiveMinutes) await timers.scheduleInactivity(trx, tenantId, room, dept.inactiveMinutes);
    },

    /**
     * `since`: an agent took the chat now (afterAssign). Taking a chat is activity: a chat idle for
     * hours that a supervisor joins is given the whole period from the join, not closed with a
     * goodbye to the customer half a second later (the deadline keeps `since` for when it fires).
     */
    async scheduleInactivity(trx: Transaction, tenantId: string, room: Room, minutes: number, since?: string): Promise<void> {
      await scheduler.schedule(trx, tenantId, {
        key: DEADLINES.inactivity.key(room.id), kind: DEADLINES.inactivity.kind, subjectId: room.id, dueAt: plus(inactiveSince(room, since), minutes).toISOString(),
        ...(since && { payload: { since } }),
      }, 'earliest');
    },

    async scheduleOpening(trx: Transaction, tenantId: string, departmentId: string, at: Date): Promise<void> {
      await scheduler.schedule(trx, tenantId, { key: DEADLINES.opening.key(departmentId), kind: DEADLINES.opening.kind, subjectId: departmentId, dueAt: at.toISOString() }, 'earliest');
    },

    async scheduleContingencyEnd(trx: Transaction, tenantId: string, contingency: ContingencyRecord): Promise<void> {
      const window = contingencyWindow(contingency);
      const key = DEADLINES.contingencyEnd.key(contingency.id);
      if (!window || contingency.finished || contingency.active === false) {
        await scheduler.cancel(trx, tenantId, key);
        return;
      }
      await scheduler.schedule(trx, tenantId, { key, kind: DEADLINES.contingencyEnd.kind, subjectId: contingency.id, dueAt: window.end });
    },
  };

  const assignment: AssignmentTimers = {
    async afterAssign(trx, tenantId, room, agent, dept, tenant) {
      const now = clock.now().toISOString();
      if (agent.waitingMinutes && transhipmentOf(tenant, room, dept, agent)) {
        const routing = await repo.roomRouting(trx, tenantId, room.id);
        await scheduler.schedule(trx, tenantId, {
          key: DEADLINES.waiting.key(room.id), kind: DEADLINES.waiting.kind, subjectId: room.id,
          dueAt: plus(now, agent.waitingMinutes).toISOString(), payload: { queuedAt: routing?.queuedAt ?? room.lifeControl.createdAt, since: now, source: 'agent', agentId: agent.id },
        });
      }
      const minutes = agent.inactiveMinutes ?? dept?.inactiveMinutes ?? null;
      if (minutes) await timers.scheduleInactivity(trx, tenantId, room, minutes, now);
    },
    async afterReturn(trx, tenantId, room, queuedAt, dept) {
      if (!dept?.waitingMinutes) return;
      const tenant = await config.tenant(tenantId, trx);
      if (!transhipmentOf(tenant, room, dept, null)) return;
      const due = plus(queuedAt, dept.waitingMinutes);
      const now = clock.now();
      await scheduler.schedule(trx, tenantId, {
        key: DEADLINES.waiting.key(room.id), kind: DEADLINES.waiting.kind, subjectId: room.id,
        dueAt: (due > now ? due : now).toISOString(), payload: { queuedAt, since: queuedAt, source: 'department' },
      });
    },
  };

  // Waiting → transhipment (seed 000 §3: waitingTime, transhipment, noTranshipment).
  scheduler.handle(DEADLINES.waiting.kind, {
    lock: (trx, tenantId, roomId) => lockRoom(trx, tenantId, roomId),
    async fire({ trx, record, tenantId, deadline, now, afterCommit }) {
      const room = await rooms.findById(tenantId, deadline.subjectId!, trx);
      if (!room?.active) return;
      const routing = await repo.roomRouting(trx, tenantId, room.id);
      const p = deadline.payload as { queuedAt?: string; since?: string; source?: string; agentId?: string };
      if (!routing || routing.queuedAt !== p.queuedAt) return;
      const since = p.since ?? routing.queuedAt;
      if (room.lastMessages.agentMessage && room.lastMessages.agentMessage.createdAt >= since) return;
      if (p.source === 'agent' && routing.assignedTo !== p.agentId) return;
      const tenant = await config.tenant(tenantId, trx);
      const dept = room.departmentId ? tenant.departments.get(room.departmentId) ?? null : null;
      if (p.source !== 'agent' && dept?.daysWork && !isOpenAt(dept.daysWork, now, tenant.timeZone) && dept.waitingMinutes) {
        const opening = nextOpening(dept.daysWork, now, tenant.timeZone);
        return opening ? { moveTo: plus(opening.toISOString(), dept.waitingMinutes) } : undefined;
      }
      const agent = p.source === 'agent' ? await agentOfRoom(trx, tenantId, room) : null;
      const targetId = transhipmentOf(tenant, room, dept, agent);
      const queue = targetId ? tenant.queues.get(targetId) : undefined;
      // A chat is transhipped into a queue once: never back into one it already passed through.
      if (!queue || !queue.active || room.queuesHistory.some((q) => q.id === queue.id) || room.queues.some((q) => q.id === queue.id)) return;
      const minutes = p.source === 'agent' ? agent?.waitingMinutes ?? 0 : dept?.waitingMinutes ?? 0;
      const sourceName = p.source === 'agent' && agent ? format(texts.routing.agentSource, { agent: agent.displayName }) : format(texts.routing.departmentSource, { department: dept?.displayName ?? '' });
      const next = queue.departmentId ? tenant.departments.get(queue.departmentId) ?? null : dept;
      const draft = draftOf(room);
      const roomQueue = roomQueueOf(queue);
      draft.room = {
        ...room, queues: [roomQueue], queuesHistory: addOnce(room.queuesHistory, [...room.queues, roomQueue]),
        agents: [], inAttend: false, destination: 'vueJs', departmentId: queue.departmentId ?? room.departmentId,
      };
      await msgs.note(trx, record, tenantId, draft, format(texts.routing.transhipped, { queue: queue.name, minutes, source: sourceName }));
      if (next && next !== dept && next.automaticAnswer && (await msgs.toCustomer(trx, record, tenantId, draft, next.automaticAnswer))) {
        await msgs.note(trx, record, tenantId, draft, format(texts.routing.automaticAnswer, { source: format(texts.routing.departmentSource, { department: next.displayName }) }));
      }
      const saved = await msgs.save(trx, record, tenantId, draft);
      const queuedAt = now.toISOString();
      await repo.saveRoomRouting(trx, tenantId, { roomId: room.id, departmentId: saved.departmentId, queueId: queue.id, queuedAt, assignedTo: null, assignedBy: null, assignedAt: null, assignSeq: null, notices: routing.notices });
      afterCommit(afterCommitDispatch(tenantId, draft.outbox));
      afterCommit(() => void deps.kick(tenantId, saved.departmentId));
      if (next?.waitingMinutes && transhipmentOf(tenant, saved, next, null)) {
        return { moveTo: plus(queuedAt, next.waitingMinutes), payload: { queuedAt, since: queuedAt, source: 'department' } };
      }
    },
  });

  // Automatic department message rules (seed 001 §3 queueMessages), relative to the customer's last message.
  scheduler.handle(DEADLINES.rule.kind, {
    lock: (trx, tenantId, roomId) => lockRoom(trx, tenantId, roomId),
    async fire({ trx, record, tenantId, deadline, now, afterCommit }) {
      const room = await rooms.findById(tenantId, deadline.subjectId!, trx);
      // Messages to a customer waiting in the queue: once an agent attends the chat, the agent
      // talks ('Seu atendimento continua na fila…' under an agent's answer read wrong). The next
      // customer message schedules the rule again; inactiveTime closes attended chats left silent.
      if (!room?.active || room.agents.length > 0) return;
      const p = deadline.payload as { index: number; signature: string; basis: string; n: number };
      const tenant = await config.tenant(tenantId, trx);
      const dept = room.departmentId ? tenant.departments.get(room.departmentId) : undefined;
      const rule = dept?.rules[p.index];
      if (!dept || !rule || rule.signature !== p.signature) return;
      const basis = room.lastMessages.contactMessage?.createdAt ?? room.lifeControl.createdAt;
      if (basis !== p.basis) return { moveTo: plus(basis, rule.minutes), payload: { ...p, basis, n: 1 } };
      const due = plus(basis, rule.minutes * p.n);
      if (due > now) return { moveTo: due };
      const draft = draftOf(room);
      const minutes = rule.minutes * p.n;
      if (rule.command === 'sendMessage') {
        if (await msgs.toCustomer(trx, record, tenantId, draft, rule.arg, 'cron')) await msgs.note(trx, record, tenantId, draft, format(texts.routing.ruleSent, { department: dept.displayName, minutes }));
      } else {
        const note = format(texts.routing.ruleClosed, { department: dept.displayName, minutes });
        await msgs.close(trx, record, tenantId, draft, texts.routing.closeRule, note);
        await msgs.note(trx, record, tenantId, draft, note);
      }
      const saved = await msgs.save(trx, record, tenantId, draft);
      afterCommit(afterCommitDispatch(tenantId, draft.outbox));
      if (!saved.active) afterCommit(() => void deps.kick(tenantId, saved.departmentId));
      if (rule.repeat && rule.command === 'sendMessage') return { moveTo: plus(basis, rule.minutes * (p.n + 1)), payload: { ...p, n: p.n + 1 } };
    },
  });

  // Inactivity (seed 000 §3: department and agent inactiveTime HH:MM) closes the chat.
  scheduler.handle(DEADLINES.inactivity.kind, {
    lock: (trx, tenantId, roomId) => lockRoom(trx, tenantId, roomId),
    async fire({ trx, record, tenantId, deadline, now, afterCommit }) {
      const room = await rooms.findById(tenantId, deadline.subjectId!, trx);
      if (!room?.active || room.internal) return;
      const tenant = await config.tenant(tenantId, trx);
      const dept = room.departmentId ? tenant.departments.get(room.departmentId) ?? null : null;
      const agent = await agentOfRoom(trx, tenantId, room);
      const minutes = agent?.inactiveMinutes ?? dept?.inactiveMinutes ?? null;
      if (!minutes) return;
      const due = plus(inactiveSince(room, typeof deadline.payload?.since === 'string' ? deadline.payload.since : undefined), minutes);
      if (due > now) return { moveTo: due };
      const source = agent?.inactiveMinutes ? format(texts.routing.agentSource, { agent: agent.displayName }) : format(texts.routing.departmentSource, { department: dept?.displayName ?? '' });
      const note = format(texts.routing.inactiveClosed, { time: hhmm(minutes), source });
      const draft = draftOf(room);
      await msgs.close(trx, record, tenantId, draft, texts.routing.closeInactive, note);
      await msgs.note(trx, record, tenantId, draft, note);
      const saved = await msgs.save(trx, record, tenantId, draft);
      afterCommit(afterCommitDispatch(tenantId, draft.outbox));
      afterCommit(() => void deps.kick(tenantId, saved.departmentId));
    },
  });

  // Business hours opening: the department's queue is routed at once.
  scheduler.handle(DEADLINES.opening.kind, {
    async fire({ tenantId, deadline, afterCommit }) {
      afterCommit(() => void deps.kick(tenantId, deadline.subjectId));
    },
  });

  // A contingency's window ended: it is marked finished (seed 000 §4), live for the register screen.
  scheduler.handle(DEADLINES.contingencyEnd.kind, {
    lock: async (trx, tenantId, id) => {
      await repo.lockContingency(trx, tenantId, id);
    },
    async fire({ trx, record, tenantId, deadline, now, afterCommit }) {
      const row = await repo.lockContingency(trx, tenantId, deadline.subjectId!);
      if (!row) return;
      const contingency = { ...(row.data as Partial<ContingencyRecord>), id: row.id } as ContingencyRecord;
      const window = contingencyWindow(contingency);
      if (!window || contingency.finished) return;
      if (Date.parse(window.end) > now.getTime()) return { moveTo: new Date(window.end) };
      await repo.markContingencyFinished(trx, tenantId, row.id, row.data, now.toISOString());
      record({ collection: 'contingecies', id: row.id, op: 'upsert' });
      afterCommit(() => config.invalidate(tenantId));
    },
  });

  return { ...timers, assignment };
}

export type Timers = ReturnType<typeof createTimers>;
