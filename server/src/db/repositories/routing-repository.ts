import type { Knex } from 'knex';
import type { Room } from '@atendimento/schemas';
import { dialectOf, parseJson, toJson, type Db } from '../knex';
import { roomFromRow } from './room-repository';

type Conn = Knex | Knex.Transaction;

/** A register record as routing reads it: the JSON record plus the columns it trusts. */
export interface RoutingRecord {
  id: string;
  active: boolean;
  data: Record<string, unknown>;
}

/** An agent as the router needs it: the users row plus the routing fields of its record. */
export interface RoutingAgentRow {
  id: string;
  displayName: string;
  active: boolean;
  data: Record<string, unknown>;
}

/** What routing keeps per room (table room_routing). */
export interface RoomRouting {
  roomId: string;
  departmentId: string | null;
  queueId: string | null;
  queuedAt: string;
  assignedTo: string | null;
  assignedBy: 'router' | 'take' | 'push' | null;
  assignedAt: string | null;
  assignSeq: number | null;
  notices: { contingencies?: string[]; outOfHours?: string | null };
}

/** A queued room with the moment it entered its queue (FIFO order of the router). */
export interface QueuedRoom {
  room: Room;
  queuedAt: string;
}

function roomRoutingFromRow(row: Record<string, unknown>): RoomRouting {
  return {
    roomId: String(row.room_id),
    departmentId: (row.department_id as string | null) ?? null,
    queueId: (row.queue_id as string | null) ?? null,
    queuedAt: String(row.queued_at),
    assignedTo: (row.assigned_to as string | null) ?? null,
    assignedBy: (row.assigned_by as RoomRouting['assignedBy']) ?? null,
    assignedAt: (row.assigned_at as string | null) ?? null,
    assignSeq: row.assign_seq === null || row.assign_seq === undefined ? null : Number(row.assign_seq),
    notices: parseJson<RoomRouting['notices']>(row.notices, {}),
  };
}

const chunks = <T>(list: T[], size: number): T[][] => Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, i * size + size));

/**
 * The routing engine's reads and writes (docs/routing.md): the registers it follows
 * (departments, queues, contingencies), the claim locks, agents' loads and the per-room
 * routing row. Tenant first in every call but the sweep's scan; writes take the caller's
 * transaction.
 */
export function createRoutingRepository(db: Db) {
  const pg = dialectOf(db) === 'pg';

  const record = (row: Record<string, unknown>): RoutingRecord => ({ id: String(row.id), active: Boolean(row.active), data: parseJson<Record<string, unknown>>(row.data, {}) });

  return {
    async departments(q: Conn, tenantId: string): Promise<RoutingRecord[]> {
      return (await q('departments').where({ tenant_id: tenantId }).whereNull('deleted_at').select('id', 'active', 'data')).map(record);
    },

    async queues(q: Conn, tenantId: string): Promise<RoutingRecord[]> {
      return (await q('queues').where({ tenant_id: tenantId }).whereNull('deleted_at').select('id', 'active', 'data')).map(record);
    },

    /** The tenant's time zone (AppConfig.timeZone), if set. */
    async timeZone(q: Conn, tenantId: string): Promise<string | null> {
      const row = await q('tenants').where({ id: tenantId }).first('app_config');
      const zone = parseJson<{ timeZone?: unknown }>(row?.app_config, {}).timeZone;
      return typeof zone === 'string' && zone ? zone : null;
    },

    /** Contingencies (register 'contingecies', stored in documents). */
    async contingencies(q: Conn, tenantId: string): Promise<RoutingRecord[]> {
      const rows = await q('documents').where({ tenant_id: tenantId, collection: 'contingecies' }).whereNull('deleted_at').select('id', 'active', 'data');
      return rows.map((row) => ({ ...record(row), active: row.active === null || row.active === undefined ? true : Boolean(row.active) }));
    },

    /** Locks a contingency's row (the end-of-window action locks it before its deadline). */
    async lockContingency(trx: Knex.Transaction, tenantId: string, id: string): Promise<RoutingRecord | null> {
      const qb = trx('documents').where({ tenant_id: tenantId, collection: 'contingecies', id }).whereNull('deleted_at');
      if (pg) qb.forUpdate();
      const row = await qb.first('id', 'active', 'data');
      return row ? record(row) : null;
    },

    async markContingencyFinished(trx: Knex.Transaction, tenantId: string, id: string, data: Record<string, unknown>, now: string): Promise<void> {
      await trx('documents').where({ tenant_id: tenantId, collection: 'contingecies', id }).update({ data: toJson({ ...data, finished: true }), updated_at: now });
    },

    /**
     * Takes the department's claim lock (PostgreSQL: the row stays locked until commit, so two
     * processes route one department one after the other) and answers its assignment counter.
     */
    async lockDepartment(trx: Knex.Transaction, tenantId: string, departmentId: string): Promise<number> {
      const [row] = await trx('routing_departments')
        .insert({ tenant_id: tenantId, department_id: departmentId, assign_seq: 0 })
        .onConflict(['tenant_id', 'department_id'])
        .merge({ assign_seq: trx.raw('??', ['routing_departments.assign_seq']) })
        .returning('assign_seq');
      return Number((row as { assign_seq: number | string }).assign_seq);
    },

    async setAssignSeq(trx: Knex.Transaction, tenantId: string, departmentId: string, seq: number): Promise<void> {
      await trx('routing_departments').where({ tenant_id: tenantId, department_id: departmentId }).update({ assign_seq: seq });
    },

    /**
     * Locks the agents' claim rows in id order (two routers locking overlapping sets never wait
     * on each other in a cycle) and answers when each last received a chat.
     */
    async lockAgents(trx: Knex.Transaction, tenantId: string, userIds: string[]): Promise<Map<string, string | null>> {
      const ids = [...new Set(userIds)].sort();
      const out = new Map<string, string | null>();
      for (const chunk of chunks(ids, 200)) {
        const rows = await trx('routing_agents')
          .insert(chunk.map((user_id) => ({ tenant_id: tenantId, user_id, last_assigned_at: null })))
          .onConflict(['tenant_id', 'user_id'])
          .merge({ last_assigned_at: trx.raw('??', ['routing_agents.last_assigned_at']) })
          .returning(['user_id', 'last_assigned_at']);
        for (const r of rows as { user_id: string; last_assigned_at: string | null }[]) out.set(String(r.user_id), r.last_assigned_at ?? null);
      }
      return out;
    },

    /** When each agent last received a chat (one statement). */
    async touchAgents(trx: Knex.Transaction, tenantId: string, at: Map<string, string>): Promise<void> {
      if (at.size === 0) return;
      await trx('routing_agents')
        .insert([...at].map(([user_id, when]) => ({ tenant_id: tenantId, user_id, last_assigned_at: when })))
        .onConflict(['tenant_id', 'user_id'])
        .merge(['last_assigned_at']);
    },

    /** Active (open, not internal) chats each agent attends, one statement. */
    async activeLoads(q: Conn, tenantId: string, userIds: string[]): Promise<Map<string, number>> {
      const out = new Map<string, number>(userIds.map((id) => [id, 0]));
      for (const chunk of chunks([...new Set(userIds)], 500)) {
        if (chunk.length === 0) continue;
        const rows = await q('room_members')
          .join('rooms', 'rooms.id', 'room_members.room_id')
          .where('room_members.tenant_id', tenantId)
          .andWhere('room_members.kind', 'agent')
          .whereIn('room_members.member_id', chunk)
          .andWhere('rooms.active', true)
          .andWhere('rooms.internal', false)
          .whereNull('rooms.deleted_at')
          .groupBy('room_members.member_id')
          .select('room_members.member_id as agent', q.raw('count(*) as n'));
        for (const r of rows as { agent: string; n: number | string }[]) out.set(String(r.agent), Number(r.n));
      }
      return out;
    },

    /**
     * Queued rooms of a department, oldest in the queue first: open, not internal, nobody
     * attending, on a channel the router serves, with a destination it may take. PostgreSQL
     * locks them SKIP LOCKED: a room an agent is taking (or a message is arriving into) right
     * now is left for the next pass instead of waited for.
     */
    async queuedRooms(trx: Knex.Transaction, tenantId: string, departmentId: string, options: { destinations: string[]; channels: string[]; limit: number; afterIds?: string[] }): Promise<QueuedRoom[]> {
      const qb = trx('rooms')
        .leftJoin('room_routing', function joinRouting() {
          this.on('room_routing.tenant_id', '=', 'rooms.tenant_id').andOn('room_routing.room_id', '=', 'rooms.id');
        })
        .where('rooms.tenant_id', tenantId)
        .andWhere('rooms.department_id', departmentId)
        .andWhere('rooms.active', true)
        .andWhere('rooms.in_attend', false)
        .andWhere('rooms.internal', false)
        .whereNull('rooms.deleted_at')
        .whereIn('rooms.destination', options.destinations)
        .whereIn('rooms.channel', options.channels)
        .orderBy([{ column: 'queued_order' }, { column: 'rooms.id' }])
        .limit(options.limit)
        .select('rooms.*', trx.raw('coalesce(??, ??) as queued_order', ['room_routing.queued_at', 'rooms.created_at']));
      if (options.afterIds?.length) qb.whereNotIn('rooms.id', options.afterIds);
      if (pg) qb.forUpdate('rooms').skipLocked();
      const rows = await qb;
      return rows.map((row: Record<string, unknown>) => ({ room: roomFromRow(row), queuedAt: String(row.queued_order) }));
    },

    /** Active tenants (the router's safety sweep walks them). */
    async tenantIds(): Promise<string[]> {
      return (await db('tenants').where({ active: true }).select('id')).map((r) => String(r.id));
    },

    /** Departments of the tenant with queued rooms (index on tenant, active, in_attend). */
    async departmentsWithQueue(tenantId: string, channels: string[]): Promise<string[]> {
      const rows = await db('rooms')
        .where({ tenant_id: tenantId, active: true, in_attend: false, internal: false })
        .whereNull('deleted_at')
        .whereNotNull('department_id')
        .whereIn('channel', channels)
        .distinct('department_id');
      return rows.map((r) => String(r.department_id));
    },

    async agents(q: Conn, tenantId: string, ids: string[]): Promise<RoutingAgentRow[]> {
      const out: RoutingAgentRow[] = [];
      for (const chunk of chunks([...new Set(ids)], 500)) {
        if (chunk.length === 0) continue;
        const rows = await q('users').where({ tenant_id: tenantId, type: 'agent' }).whereNull('deleted_at').whereIn('id', chunk).select('id', 'display_name', 'active', 'data');
        for (const row of rows) out.push({ id: String(row.id), displayName: String(row.display_name), active: Boolean(row.active), data: parseJson<Record<string, unknown>>(row.data, {}) });
      }
      return out;
    },

    /** Departments where the user is an agent. */
    async departmentsOfAgent(q: Conn, tenantId: string, userId: string): Promise<string[]> {
      const rows = await q('department_members').where({ tenant_id: tenantId, user_id: userId, role: 'agent' }).select('department_id');
      return rows.map((r) => String(r.department_id));
    },

    /** The contacts' own agents (contact.agents, the "wallet" agentPriority routes to). */
    async contactAgents(q: Conn, tenantId: string, contactIds: string[]): Promise<Map<string, string[]>> {
      const out = new Map<string, string[]>();
      for (const chunk of chunks([...new Set(contactIds)], 500)) {
        if (chunk.length === 0) continue;
        const rows = await q('contacts').where({ tenant_id: tenantId }).whereIn('id', chunk).select('id', 'data');
        for (const row of rows) {
          const agents = parseJson<{ agents?: unknown }>(row.data, {}).agents;
          out.set(String(row.id), Array.isArray(agents) ? agents.filter((a): a is string => typeof a === 'string') : []);
        }
      }
      return out;
    },

    async roomRouting(q: Conn, tenantId: string, roomId: string): Promise<RoomRouting | null> {
      const row = await q('room_routing').where({ tenant_id: tenantId, room_id: roomId }).first();
      return row ? roomRoutingFromRow(row) : null;
    },

    async saveRoomRouting(trx: Knex.Transaction, tenantId: string, value: RoomRouting): Promise<void> {
      await trx('room_routing')
        .insert({
          tenant_id: tenantId, room_id: value.roomId, department_id: value.departmentId, queue_id: value.queueId, queued_at: value.queuedAt,
          assigned_to: value.assignedTo, assigned_by: value.assignedBy, assigned_at: value.assignedAt, assign_seq: value.assignSeq, notices: toJson(value.notices),
        })
        .onConflict(['tenant_id', 'room_id'])
        .merge(['department_id', 'queue_id', 'queued_at', 'assigned_to', 'assigned_by', 'assigned_at', 'assign_seq', 'notices']);
    },

    /** Records who rooms went to (or that they are queued again), keeping the notices already sent; one statement. */
    async assign(trx: Knex.Transaction, tenantId: string, ...values: Omit<RoomRouting, 'notices'>[]): Promise<void> {
      if (values.length === 0) return;
      await trx('room_routing')
        .insert(values.map((value) => ({
          tenant_id: tenantId, room_id: value.roomId, department_id: value.departmentId, queue_id: value.queueId, queued_at: value.queuedAt,
          assigned_to: value.assignedTo, assigned_by: value.assignedBy, assigned_at: value.assignedAt, assign_seq: value.assignSeq, notices: toJson({}),
        })))
        .onConflict(['tenant_id', 'room_id'])
        .merge(['department_id', 'queue_id', 'queued_at', 'assigned_to', 'assigned_by', 'assigned_at', 'assign_seq']);
    },

    /** Open rooms the router gave this agent that the agent still attends. */
    async roomsAssignedTo(q: Conn, tenantId: string, userId: string, by: RoomRouting['assignedBy']): Promise<string[]> {
      const rows = await q('room_routing')
        .join('rooms', function joinRooms() {
          this.on('rooms.tenant_id', '=', 'room_routing.tenant_id').andOn('rooms.id', '=', 'room_routing.room_id');
        })
        .where({ 'room_routing.tenant_id': tenantId, 'room_routing.assigned_to': userId, 'room_routing.assigned_by': by, 'rooms.active': true })
        .whereNull('rooms.deleted_at')
        .select('room_routing.room_id');
      return rows.map((r) => String(r.room_id));
    },

    /** Every room_routing row of a tenant (tests and the race check read them). */
    async roomRoutings(q: Conn, tenantId: string): Promise<RoomRouting[]> {
      return (await q('room_routing').where({ tenant_id: tenantId })).map(roomRoutingFromRow);
    },
  };
}

export type RoutingRepository = ReturnType<typeof createRoutingRepository>;
