import {
  DEFAULT_TIME_ZONE, departmentQueueId, hasBusinessHours, minutesOf, selectionRuleOf, validateAutomaticRules,
  type AgentSelectionRule, type AutomaticRule, type ContingencyRecord, type DaysWork, type RoomQueue,
} from '@atendimento/schemas';
import type { Db, Executor } from '../../db/knex';
import type { RoutingRecord, RoutingRepository } from '../../db/repositories/routing-repository';

type Conn = Executor;

/** A department's routing fields (seed 000 §3 "Department"), read once per cache period. */
export interface DepartmentRouting {
  id: string;
  displayName: string;
  active: boolean;
  rule: AgentSelectionRule;
  /** roomsPerAgent; null = no cap. */
  cap: number | null;
  agents: string[];
  orderedAgents: string[];
  waitingMinutes: number | null;
  transhipment: string | null;
  noTranshipment: boolean;
  agentPriority: boolean;
  keepOnDepartment: boolean;
  priorityOverBot: boolean;
  inactiveMinutes: number | null;
  automaticAnswer: string | null;
  /** queueMessages that pass the rules dialog's checks (a broken one is skipped, not fatal). */
  rules: { command: 'sendMessage' | 'closeChat'; arg: string; minutes: number; repeat: boolean; signature: string }[];
  daysWork: DaysWork | null;
  outOfHoursMessage: string | null;
  outOfHoursAction: 'wait' | 'close';
}

/** A queue (seed 000 §3 "Queue"); department queues exist even where no queue row was written. */
export interface QueueRouting {
  id: string;
  name: string;
  active: boolean;
  isDept: boolean;
  default: boolean;
  departmentId: string | null;
  agents: string[];
  contexts: string[];
  transhipment: string | null;
}

export interface TenantRouting {
  timeZone: string;
  departments: Map<string, DepartmentRouting>;
  queues: Map<string, QueueRouting>;
  contingencies: ContingencyRecord[];
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.length > 0) : []);
const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value.trim() : null);
const positive = (value: unknown): number | null => {
  const n = Number(value);
  return value !== null && value !== '' && Number.isFinite(n) && n > 0 ? n : null;
};

export function departmentOf(record: RoutingRecord): DepartmentRouting {
  const d = record.data;
  const claims = (d.claims ?? {}) as Record<string, unknown>;
  const rules = Array.isArray(d.queueMessages) ? (d.queueMessages as AutomaticRule[]) : [];
  return {
    id: record.id,
    displayName: String(d.displayName ?? record.id),
    active: record.active && d.active !== false,
    rule: selectionRuleOf(d.agentSelectionRule),
    cap: positive(d.roomsPerAgent),
    agents: strings(d.agents),
    orderedAgents: strings(d.orderedAgents),
    waitingMinutes: positive(d.waitingTime),
    transhipment: text(d.transhipment),
    noTranshipment: claims.noTranshipment === true,
    agentPriority: claims.agentPriority === true,
    keepOnDepartment: claims.keepOnDepartment === true,
    priorityOverBot: d.priorityOverBot === true,
    inactiveMinutes: positive(minutesOf(d.inactiveTime)),
    automaticAnswer: text(d.automaticAnswer),
    rules: rules
      .filter((rule, index) => validateAutomaticRules([rule]).length === 0 && index < 50)
      .map((rule) => {
        const minutes = Number(rule.timeInMinutes);
        const arg = (rule.arg ?? '').trim();
        return { command: rule.command as 'sendMessage' | 'closeChat', arg, minutes, repeat: Boolean(rule.repeat), signature: `${rule.command}|${minutes}|${rule.repeat ? 1 : 0}|${arg}` };
      }),
    daysWork: hasBusinessHours(d.daysWork as DaysWork) ? (d.daysWork as DaysWork) : null,
    outOfHoursMessage: text(d.outOfHoursMessage),
    outOfHoursAction: d.outOfHoursAction === 'close' ? 'close' : 'wait',
  };
}

function queueOf(record: RoutingRecord): QueueRouting {
  const q = record.data;
  return {
    id: record.id,
    name: String(q.displayName ?? q.name ?? record.id),
    active: record.active && q.active !== false,
    isDept: q.isDept === true,
    default: q.default === true,
    departmentId: text(q.departament),
    agents: strings(q.agents),
    contexts: strings(q.contexts),
    transhipment: text(q.transhipment),
  };
}

/** Nothing in this department runs by itself: chats just wait in its queue, as before routing. */
export function isInert(d: DepartmentRouting | null | undefined): boolean {
  return !d || (d.rule === 'wait' && !d.waitingMinutes && !d.inactiveMinutes && d.rules.length === 0 && !d.daysWork && !d.automaticAnswer);
}

/** The RoomQueue a room carries for a queue id. */
export function roomQueueOf(queue: QueueRouting): RoomQueue {
  return { id: queue.id, name: queue.name, displayName: queue.name, parent: null };
}

/**
 * Per-tenant cache of what routing reads on every chat (departments, queues, contingencies,
 * the time zone). Register writes invalidate it through their change events (every process
 * receives them over the bus); a TTL bounds what a missed note could leave stale.
 * Reads take the caller's connection: inside a transaction on SQLite's single connection, a
 * read on the pool would wait for itself.
 */
export function createRoutingConfig(deps: { db: Db; repo: RoutingRepository; ttlMs?: number }) {
  const { repo } = deps;
  const ttlMs = deps.ttlMs ?? 60_000;
  const cache = new Map<string, { value: TenantRouting; at: number }>();

  async function load(q: Conn, tenantId: string): Promise<TenantRouting> {
    const departments = await repo.departments(q, tenantId);
    const queues = await repo.queues(q, tenantId);
    const contingencies = await repo.contingencies(q, tenantId);
    const value: TenantRouting = {
      timeZone: (await repo.timeZone(q, tenantId)) || DEFAULT_TIME_ZONE,
      departments: new Map(departments.map((r) => [r.id, departmentOf(r)])),
      queues: new Map(queues.map((r) => [r.id, queueOf(r)])),
      contingencies: contingencies.filter((c) => c.active).map((c) => ({ ...(c.data as Partial<ContingencyRecord>), id: c.id })),
    };
    // Department queues exist even where only the department row was written (fixtures, imports).
    for (const d of value.departments.values()) {
      const id = departmentQueueId(d.id);
      if (!value.queues.has(id)) value.queues.set(id, { id, name: d.displayName, active: d.active, isDept: true, default: false, departmentId: d.id, agents: d.agents, contexts: [], transhipment: null });
    }
    return value;
  }

  return {
    async tenant(tenantId: string, q: Conn = deps.db): Promise<TenantRouting> {
      const hit = cache.get(tenantId);
      if (hit && Date.now() - hit.at < ttlMs) return hit.value;
      const value = await load(q, tenantId);
      cache.set(tenantId, { value, at: Date.now() });
      return value;
    },
    invalidate(tenantId?: string): void {
      if (tenantId) cache.delete(tenantId);
      else cache.clear();
    },
  };
}

export type RoutingConfig = ReturnType<typeof createRoutingConfig>;
