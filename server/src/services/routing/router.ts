import {
  AGENT_SELECTION_RULES, BOT_DESTINATIONS, channelTypes, format, isOpenAt, messages as texts, minutesOf,
  type Room, type RoomAgent,
} from '@atendimento/schemas';
import type { Clock } from '../../clock';
import type { Logger } from '../../logger';
import type { Db, Transaction, Executor } from '../../db/knex';
import type { RoomRepository } from '../../db/repositories/room-repository';
import type { RoutingAgentRow, RoutingRepository } from '../../db/repositories/routing-repository';
import type { StatusRecord, StatusRepository } from '../../db/repositories/status-repository';
import type { ChangeFeed, RecordChange } from '../changes/change-feed';
import { conflict } from '../../errors';
import { queuesOf, supervises, type UserViewer } from '../chat/room-scope';
import { AppError } from '../../errors';
import type { DepartmentRouting, RoutingConfig, TenantRouting } from './routing-config';
import { draftOf, type RoomDraft, type RoutingMessages } from './routing-messages';

/** Rooms read (and locked) per routing pass. */
const BATCH = 50;
/** Status records older than this mean offline (seed 002 §4: 90000 ms). */
export const ONLINE_WINDOW_MS = 90_000;

/** An agent's own routing fields (seed 000 §3 "Agent"). */
export interface AgentRouting {
  id: string;
  displayName: string;
  automaticAnswer: string | null;
  waitingMinutes: number | null;
  inactiveMinutes: number | null;
  transhipment: string | null;
  noTranshipment: boolean;
  /** The status the agent chose (status bar); null when never chosen. */
  status: string | null;
}

export function agentRoutingOf(row: RoutingAgentRow): AgentRouting {
  const d = row.data;
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
  const waiting = Number(d.waitingTime);
  const inactive = minutesOf(d.inactiveTime);
  return {
    id: row.id,
    displayName: row.displayName,
    automaticAnswer: text(d.automaticAnswer),
    waitingMinutes: d.waitingTime !== null && d.waitingTime !== '' && Number.isFinite(waiting) && waiting > 0 ? waiting : null,
    inactiveMinutes: inactive && inactive > 0 ? inactive : null,
    transhipment: text(d.transhipment),
    noTranshipment: (d.claims as Record<string, unknown> | undefined)?.noTranshipment === true,
    status: text(d.status),
  };
}

/**
 * Receives automatic assignments: online (a status record in the window that is not
 * offline/logoff) and not on a chosen status other than online ('ausente', a custom pause).
 */
export function isAvailable(agent: AgentRouting, latest: StatusRecord | undefined, now: Date, windowMs = ONLINE_WINDOW_MS): boolean {
  if (!latest || latest.createdAt <= new Date(now.getTime() - windowMs).toISOString()) return false;
  if (['offline', 'logoff'].includes(latest.status.toLowerCase())) return false;
  return agent.status === null || agent.status.toLowerCase() === 'online';
}

/** What the router does once a room has its agent: the clock's rules (waiting, inactivity). */
export interface AssignmentTimers {
  afterAssign(trx: Transaction, tenantId: string, room: Room, agent: AgentRouting, department: DepartmentRouting | null, tenant: TenantRouting): Promise<void>;
  afterReturn(trx: Transaction, tenantId: string, room: Room, queuedAt: string, department: DepartmentRouting | null): Promise<void>;
}

export interface RouterDeps {
  db: Db;
  feed: ChangeFeed;
  clock: Clock;
  logger: Logger;
  repo: RoutingRepository;
  rooms: RoomRepository;
  statuses: StatusRepository;
  config: RoutingConfig;
  msgs: RoutingMessages;
  timers: () => AssignmentTimers;
  /** Sends a stored message through its channel (after commit). */
  dispatch(tenantId: string, messageId: string): Promise<void>;
  windowMs?: number;
}

const agentOf = (a: AgentRouting): RoomAgent => ({ id: a.id, displayName: a.displayName });
const addOnce = <T extends { id: string }>(list: T[], items: T[]) => [...list, ...items.filter((i) => !list.some((l) => l.id === i.id))];

/**
 * The assignment engine (docs/routing.md "Assignment"). A routing pass takes one department's
 * claim lock, reads its queued rooms oldest first (PostgreSQL: SKIP LOCKED), the online
 * agents of the department, locks their claim rows in id order, counts their open chats and
 * gives each room to the agent its rule picks, under the cap. Passes run when something can
 * change the answer (a chat queued, an agent online, a chat closed, a department edited,
 * business hours opening) and every `sweepMs` as a safety net; in one process a department
 * has at most one pass running and one waiting.
 */
export function createRouter(deps: RouterDeps) {
  const { feed, clock, logger, repo, rooms, statuses, config, msgs } = deps;
  const windowMs = deps.windowMs ?? ONLINE_WINDOW_MS;
  const inflight = new Map<string, { again: boolean; promise: Promise<void> }>();

  async function agentsOf(q: Executor, tenantId: string, ids: string[], now: Date): Promise<{ all: Map<string, AgentRouting>; available: Map<string, AgentRouting> }> {
    const rows = (await repo.agents(q, tenantId, ids)).filter((r) => r.active);
    const latest = rows.length ? await statuses.latestSince(q, tenantId, new Date(now.getTime() - windowMs).toISOString(), rows.map((r) => r.id)) : new Map<string, StatusRecord>();
    const all = new Map(rows.map((r) => [r.id, agentRoutingOf(r)]));
    const available = new Map([...all].filter(([id, a]) => isAvailable(a, latest.get(id), now, windowMs)));
    return { all, available };
  }

  function poolOf(tenant: TenantRouting, dept: DepartmentRouting, room: Room): string[] {
    const queue = room.queues[0] ? tenant.queues.get(room.queues[0].id) : undefined;
    return queue && !queue.isDept && queue.agents.length ? queue.agents : dept.agents;
  }

  /**
   * Whether any agent who could receive a chat of the department is online and under the cap,
   * read without locks before a pass locks and reads the queue. A pass runs after every commit
   * that queues a chat: with nobody available (the night shift, everyone at the cap) reading
   * and sorting the queue each time cost O(queue) per message (B14: 5,000 chats ingested in
   * 550 s instead of ~60). A stale answer is harmless: whatever makes an agent available
   * (presence, a close, a department edit) kicks the department again. A department that
   * prefers the contact's own agents from other departments cannot know them before reading
   * its rooms, so it always reads.
   */
  async function anyoneCanTake(tenantId: string, tenant: TenantRouting, dept: DepartmentRouting, now: Date): Promise<boolean> {
    if (dept.agentPriority && !dept.keepOnDepartment) return true;
    const candidates = new Set(dept.agents);
    // A room's own queue may name its agents (poolOf): every queue that can hold the department's rooms.
    for (const queue of tenant.queues.values()) if (queue.departmentId === dept.id || queue.departmentId === null) for (const id of queue.agents) candidates.add(id);
    if (candidates.size === 0) return false;
    const { available } = await agentsOf(deps.db, tenantId, [...candidates], now);
    if (available.size === 0) return false;
    if (dept.cap === null) return true;
    const loads = await repo.activeLoads(deps.db, tenantId, [...available.keys()]);
    return [...available.keys()].some((id) => (loads.get(id) ?? 0) < dept.cap!);
  }

  /** One pass: assigns what it can of up to BATCH queued rooms; answers what it saw and placed. */
  async function pass(tenantId: string, departmentId: string, skip: string[]): Promise<{ seen: number; assigned: number; unplaced: string[] }> {
    const none = { seen: 0, assigned: 0, unplaced: [] as string[] };
    const tenant = await config.tenant(tenantId);
    const dept = tenant.departments.get(departmentId);
    if (!dept || !dept.active || dept.rule === 'wait') return none;
    const now = clock.now();
    if (dept.daysWork && !isOpenAt(dept.daysWork, now, tenant.timeZone)) return none;
    if (!(await anyoneCanTake(tenantId, tenant, dept, now))) return none;
    const outbox: string[] = [];
    const result = await feed.transaction(tenantId, async (trx, record) => {
      outbox.length = 0;
      const seq0 = await repo.lockDepartment(trx, tenantId, departmentId);
      const destinations = dept.priorityOverBot ? ['vueJs', ...BOT_DESTINATIONS] : ['vueJs'];
      const queued = await repo.queuedRooms(trx, tenantId, departmentId, { destinations, channels: channelTypes((c) => c.autoAssign !== false), limit: BATCH, afterIds: skip });
      if (queued.length === 0) return none;
      // Rooms waiting in one agent's own queue wait for that agent.
      const routable = queued.filter((q) => !q.room.queues.some((queue) => queue.id.startsWith('agent')));
      const contactAgents = dept.agentPriority ? await repo.contactAgents(trx, tenantId, routable.map((q) => q.room.author.id)) : new Map<string, string[]>();
      const ownOf = (room: Room) => (contactAgents.get(room.author.id) ?? []).filter((id) => !dept.keepOnDepartment || dept.agents.includes(id));
      const ids = new Set<string>();
      for (const { room } of routable) {
        for (const id of poolOf(tenant, dept, room)) ids.add(id);
        for (const id of ownOf(room)) ids.add(id);
      }
      const { available } = await agentsOf(trx, tenantId, [...ids], now);
      if (available.size === 0) return { seen: queued.length, assigned: 0, unplaced: queued.map((q) => q.room.id) };
      const lastAssigned = await repo.lockAgents(trx, tenantId, [...available.keys()]);
      const loads = await repo.activeLoads(trx, tenantId, [...available.keys()]);
      const order = [...dept.orderedAgents, ...dept.agents.filter((id) => !dept.orderedAgents.includes(id))];
      const rank = (id: string) => {
        const i = order.indexOf(id);
        return i < 0 ? order.length : i;
      };
      const under = (id: string) => available.has(id) && (dept.cap === null || (loads.get(id) ?? 0) < dept.cap);
      const byLoad = (a: string, b: string) =>
        (loads.get(a) ?? 0) - (loads.get(b) ?? 0) || (lastAssigned.get(a) ?? '').localeCompare(lastAssigned.get(b) ?? '') || rank(a) - rank(b) || a.localeCompare(b);

      const choose = (room: Room): AgentRouting | null => {
        const own = ownOf(room).filter(under).sort(byLoad);
        if (own.length) return available.get(own[0]!)!;
        const pool = poolOf(tenant, dept, room).filter(under);
        if (pool.length === 0) return null;
        if (dept.rule === 'predefinedOrder') return available.get([...pool].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))[0]!)!;
        return available.get([...pool].sort(byLoad)[0]!)!;
      };

      let seq = seq0;
      const touched = new Map<string, string>();
      const drafts: RoomDraft[] = [];
      const assigned: Parameters<RoutingRepository['assign']>[2][] = [];
      const timers: (() => Promise<void>)[] = [];
      const unplaced: string[] = queued.filter((q) => !routable.includes(q)).map((q) => q.room.id);
      const iso = now.toISOString();
      for (const { room, queuedAt } of routable) {
        const agent = choose(room);
        if (!agent) {
          unplaced.push(room.id);
          continue;
        }
        seq += 1;
        const placed = await assign(trx, record, tenantId, dept, room, agent, outbox);
        drafts.push(placed.draft);
        assigned.push({ roomId: room.id, departmentId: dept.id, queueId: room.queues[0]?.id ?? null, queuedAt, assignedTo: agent.id, assignedBy: 'router', assignedAt: iso, assignSeq: seq });
        timers.push(() => deps.timers().afterAssign(trx, tenantId, placed.saved, agent, dept, tenant));
        loads.set(agent.id, (loads.get(agent.id) ?? 0) + 1);
        lastAssigned.set(agent.id, iso);
        touched.set(agent.id, iso);
      }
      if (touched.size) {
        await msgs.flushNotes(trx, tenantId, drafts);
        await repo.assign(trx, tenantId, ...assigned);
        for (const run of timers) await run();
        await repo.touchAgents(trx, tenantId, touched);
        await repo.setAssignSeq(trx, tenantId, departmentId, seq);
      }
      return { seen: queued.length, assigned: seq - seq0, unplaced };
    });
    for (const id of outbox) void deps.dispatch(tenantId, id).catch((err) => logger.error({ err, tenantId }, 'routing.dispatch_failed'));
    return result;
  }

  /** Gives the room to the agent (room, notes, automatic answer); the pass writes the rest in bulk. */
  async function assign(
    trx: Transaction, record: RecordChange, tenantId: string, dept: DepartmentRouting,
    room: Room, agent: AgentRouting, outbox: string[],
  ): Promise<{ draft: RoomDraft; saved: Room }> {
    const draft = draftOf(room, { deferNotes: true });
    const who = agentOf(agent);
    draft.room = {
      ...room,
      agents: [who],
      agentsHistory: addOnce(room.agentsHistory, [who]),
      queuesHistory: addOnce(room.queuesHistory, room.queues),
      inAttend: true,
      destination: 'vueJs',
    };
    await msgs.note(trx, record, tenantId, draft, format(texts.routing.assigned, { agent: agent.displayName, rule: AGENT_SELECTION_RULES[dept.rule], department: dept.displayName }));
    if (agent.automaticAnswer && (await msgs.toCustomer(trx, record, tenantId, draft, agent.automaticAnswer))) {
      await msgs.note(trx, record, tenantId, draft, format(texts.routing.automaticAnswer, { source: format(texts.routing.agentSource, { agent: agent.displayName }) }));
    }
    const saved = await msgs.save(trx, record, tenantId, draft);
    outbox.push(...draft.outbox);
    return { draft, saved };
  }

  /** Routes the department until nothing more can be placed. */
  async function drain(tenantId: string, departmentId: string): Promise<number> {
    const skip: string[] = [];
    let total = 0;
    for (let round = 0; round < 200; round++) {
      const { seen, assigned, unplaced } = await pass(tenantId, departmentId, skip);
      total += assigned;
      if (assigned === 0 || seen < BATCH) break;
      if (skip.length < 2000) skip.push(...unplaced);
    }
    return total;
  }

  function kick(tenantId: string, departmentId: string | null | undefined): Promise<void> {
    if (!departmentId) return Promise.resolve();
    const key = `${tenantId}\u0000${departmentId}`;
    const running = inflight.get(key);
    if (running) {
      running.again = true;
      return running.promise;
    }
    const entry = { again: false, promise: Promise.resolve() };
    entry.promise = (async () => {
      do {
        entry.again = false;
        try {
          await drain(tenantId, departmentId);
        } catch (err) {
          logger.error({ err, tenantId, departmentId }, 'routing.pass_failed');
        }
      } while (entry.again);
    })().finally(() => inflight.delete(key));
    inflight.set(key, entry);
    return entry.promise;
  }

  return {
    kick,
    drain,
    agentsOf,

    /** Resolves when every pass started so far has finished (tests, shutdown). */
    async idle(): Promise<void> {
      while (inflight.size) await Promise.all([...inflight.values()].map((e) => e.promise));
    },

    /**
     * Inside push (the agent's "Atender"): a claim. Someone else already attends → 409 (the
     * router or another agent won the same chat); at the department's cap → 409. Admins and
     * supervisors joining or pushing other agents are not claims and are not capped.
     */
    async beforeTake(trx: Transaction, tenantId: string, viewer: UserViewer, room: Room, targets: { id: string }[]): Promise<void> {
      if (targets.length !== 1 || targets[0]!.id !== viewer.id) return;
      if (room.agents.some((a) => a.id === viewer.id)) return;
      if (room.agents.length > 0) {
        if (supervises(viewer, room)) return;
        throw conflict('room_taken', texts.routing.takenByOther);
      }
      const tenant = await config.tenant(tenantId, trx);
      const cap = room.departmentId ? tenant.departments.get(room.departmentId)?.cap ?? null : null;
      if (cap === null) return;
      await repo.lockAgents(trx, tenantId, [viewer.id]);
      const load = (await repo.activeLoads(trx, tenantId, [viewer.id])).get(viewer.id) ?? 0;
      if (load >= cap) throw conflict('cap_reached', format(texts.routing.capReached, { n: cap }));
    },

    /**
     * A take of a room the agent can no longer see: if it was a chat of their queue that someone
     * just took (the router or another agent won the race), the answer is that 409, not a 404.
     */
    async pushRefused(trx: Transaction, tenantId: string, viewer: UserViewer, roomId: string, error: unknown): Promise<never> {
      if (error instanceof AppError && error.status === 404) {
        const room = await rooms.findById(tenantId, roomId, trx);
        const mine = new Set(queuesOf(viewer));
        if (room?.active && !room.internal && room.agents.length > 0 && room.queues.some((q) => mine.has(q.id))) throw conflict('room_taken', texts.routing.takenByOther);
      }
      throw error;
    },

    /**
     * After push saved the room: a take is recorded (the agent's idle time restarts, the clock's
     * rules of the agent start) and the agent's automatic answer goes to the customer.
     */
    async afterTake(trx: Transaction, record: RecordChange, tenantId: string, viewer: UserViewer, saved: Room, previous: Room, after: (ids: string[]) => void): Promise<Room> {
      if (previous.agents.some((a) => a.id === viewer.id) || !saved.agents.some((a) => a.id === viewer.id)) return saved;
      const now = clock.now();
      const tenant = await config.tenant(tenantId, trx);
      const dept = saved.departmentId ? tenant.departments.get(saved.departmentId) ?? null : null;
      const [row] = await repo.agents(trx, tenantId, [viewer.id]);
      const agent = row ? agentRoutingOf(row) : null;
      const agentActs = Boolean(agent && (agent.automaticAnswer || agent.waitingMinutes || agent.inactiveMinutes));
      if (!agentActs && (!dept || (dept.rule === 'wait' && !dept.cap && !dept.inactiveMinutes && !dept.waitingMinutes))) return saved;
      const self = previous.agents.length === 0;
      const current = await repo.roomRouting(trx, tenantId, saved.id);
      await repo.assign(trx, tenantId, {
        roomId: saved.id, departmentId: saved.departmentId, queueId: saved.queues[0]?.id ?? null, queuedAt: current?.queuedAt ?? saved.lifeControl.createdAt,
        assignedTo: viewer.id, assignedBy: self ? 'take' : 'push', assignedAt: now.toISOString(), assignSeq: null,
      });
      await repo.lockAgents(trx, tenantId, [viewer.id]);
      await repo.touchAgents(trx, tenantId, new Map([[viewer.id, now.toISOString()]]));
      if (!agent) return saved;
      const draft = draftOf(saved);
      if (agent.automaticAnswer && (await msgs.toCustomer(trx, record, tenantId, draft, agent.automaticAnswer))) {
        await msgs.note(trx, record, tenantId, draft, format(texts.routing.automaticAnswer, { source: format(texts.routing.agentSource, { agent: agent.displayName }) }));
      }
      const next = await msgs.save(trx, record, tenantId, draft);
      after(draft.outbox);
      await deps.timers().afterAssign(trx, tenantId, next, agent, dept, tenant);
      return next;
    },

    /**
     * The agent went offline or away: chats the router gave them that they have not answered
     * go back to their queue, keeping their place (the time they first entered it), and the
     * department's rule routes them again.
     */
    async returnAssignments(tenantId: string, userId: string): Promise<number> {
      const ids = await repo.roomsAssignedTo(deps.db, tenantId, userId, 'router');
      let returned = 0;
      for (const roomId of ids) {
        const departmentId = await feed.transaction(tenantId, async (trx, record) => {
          const room = await rooms.findById(tenantId, roomId, trx, true);
          const routing = await repo.roomRouting(trx, tenantId, roomId);
          if (!room?.active || !routing || routing.assignedTo !== userId || room.agents.length !== 1 || room.agents[0]!.id !== userId) return null;
          const answered = room.lastMessages.agentMessage && routing.assignedAt && room.lastMessages.agentMessage.createdAt >= routing.assignedAt;
          if (answered) return null;
          const now = clock.now();
          const { all, available } = await agentsOf(trx, tenantId, [userId], now);
          if (available.has(userId)) return null;
          const tenant = await config.tenant(tenantId, trx);
          const dept = room.departmentId ? tenant.departments.get(room.departmentId) ?? null : null;
          const draft = draftOf(room);
          draft.room = { ...room, agents: [], inAttend: false };
          const status = all.get(userId)?.status && all.get(userId)!.status!.toLowerCase() !== 'online' ? all.get(userId)!.status! : texts.routing.statusOffline;
          await msgs.note(trx, record, tenantId, draft, format(texts.routing.returned, { queue: room.queues[0]?.name ?? dept?.displayName ?? '', agent: room.agents[0]!.displayName, status }));
          const saved = await msgs.save(trx, record, tenantId, draft);
          await repo.assign(trx, tenantId, { roomId, departmentId: room.departmentId, queueId: room.queues[0]?.id ?? null, queuedAt: routing.queuedAt, assignedTo: null, assignedBy: null, assignedAt: null, assignSeq: null });
          await deps.timers().afterReturn(trx, tenantId, saved, routing.queuedAt, dept);
          return room.departmentId ?? '';
        });
        if (departmentId !== null) {
          returned++;
          void kick(tenantId, departmentId);
        }
      }
      return returned;
    },
  };
}

export type Router = ReturnType<typeof createRouter>;
