import type { Knex } from 'knex';
import { departmentQueueId } from '@atendimento/schemas';
import { parseJson, type Db } from '../knex';

type Conn = Db | Knex.Transaction;

/** One row of `room_transfers` (migration 015): one per target of a transfer. */
export interface RoomTransferRow {
  id: string;
  roomId: string;
  fromUserId: string | null;
  toUserId: string | null;
  fromDepartmentId: string | null;
  toDepartmentId: string | null;
  justification: string | null;
  observation: string | null;
  createdBy: string;
  createdAt: string;
}

/** An agent a chat may be transferred to, with the departments they serve. */
export interface TransferAgentRow {
  id: string;
  displayName: string;
  email: string;
  photoUrl: string | null;
  active: boolean;
  departments: string[];
}

/** A queue a chat may be moved to: every active department's queue and the registered queues. */
export interface TransferQueueRow {
  id: string;
  name: string;
  departmentId: string | null;
  /** Who serves it: the queue's own agents, else its department's agents. */
  agents: string[];
  active: boolean;
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/**
 * Transfers (docs/transfers.md): what the transfer dialog lists (agents, departments' and
 * registered queues) and the transfer records. Tenant first in every call.
 */
export function createTransferRepository(db: Db) {
  async function departmentAgents(q: Conn, tenantId: string): Promise<Map<string, string[]>> {
    const rows = await q('department_members').where({ tenant_id: tenantId, role: 'agent' }).select('department_id', 'user_id');
    const out = new Map<string, string[]>();
    for (const row of rows) {
      const list = out.get(String(row.department_id)) ?? [];
      list.push(String(row.user_id));
      out.set(String(row.department_id), list);
    }
    return out;
  }

  return {
    async insert(trx: Knex.Transaction, tenantId: string, rows: RoomTransferRow[]): Promise<void> {
      if (rows.length === 0) return;
      await trx('room_transfers').insert(rows.map((r) => ({
        tenant_id: tenantId, id: r.id, room_id: r.roomId, from_user_id: r.fromUserId, to_user_id: r.toUserId,
        from_department_id: r.fromDepartmentId, to_department_id: r.toDepartmentId, justification: r.justification,
        observation: r.observation, created_by: r.createdBy, created_at: r.createdAt,
      })));
    },

    /** A room's transfers, oldest first. */
    async ofRoom(q: Conn, tenantId: string, roomId: string): Promise<RoomTransferRow[]> {
      const rows = await q('room_transfers').where({ tenant_id: tenantId, room_id: roomId }).orderBy([{ column: 'created_at' }, { column: 'id' }]);
      return rows.map((r: Record<string, unknown>) => ({
        id: String(r.id), roomId: String(r.room_id), fromUserId: (r.from_user_id as string | null) ?? null, toUserId: (r.to_user_id as string | null) ?? null,
        fromDepartmentId: (r.from_department_id as string | null) ?? null, toDepartmentId: (r.to_department_id as string | null) ?? null,
        justification: (r.justification as string | null) ?? null, observation: (r.observation as string | null) ?? null,
        createdBy: String(r.created_by), createdAt: String(r.created_at),
      }));
    },

    /** The tenant's agents (active or not: the service decides), with their departments. */
    async agents(q: Conn, tenantId: string, ids?: string[]): Promise<TransferAgentRow[]> {
      const qb = q('users').where({ tenant_id: tenantId, type: 'agent' }).whereNull('deleted_at').orderBy('display_name').select('id', 'display_name', 'email', 'active', 'data');
      if (ids) qb.whereIn('id', ids.slice(0, 500));
      const rows = await qb;
      const members = await q('department_members').where({ tenant_id: tenantId, role: 'agent' }).select('department_id', 'user_id');
      return rows.map((r: Record<string, unknown>) => {
        const data = parseJson<{ photoUrl?: unknown }>(r.data, {});
        return {
          id: String(r.id), displayName: String(r.display_name), email: String(r.email), active: Boolean(r.active),
          photoUrl: typeof data.photoUrl === 'string' ? data.photoUrl : null,
          departments: members.filter((m: Record<string, unknown>) => String(m.user_id) === String(r.id)).map((m: Record<string, unknown>) => String(m.department_id)),
        };
      });
    },

    /** Department queues ("depto" + id) of every department, then the registered queues. */
    async queues(q: Conn, tenantId: string): Promise<TransferQueueRow[]> {
      const departments = await q('departments').where({ tenant_id: tenantId }).whereNull('deleted_at').orderBy('display_name').select('id', 'display_name', 'active');
      const byDepartment = await departmentAgents(q, tenantId);
      const out: TransferQueueRow[] = departments.map((d: Record<string, unknown>) => ({
        id: departmentQueueId(String(d.id)), name: String(d.display_name), departmentId: String(d.id), agents: byDepartment.get(String(d.id)) ?? [], active: Boolean(d.active),
      }));
      const queues = await q('queues').where({ tenant_id: tenantId }).whereNull('deleted_at').orderBy('name').select('id', 'name', 'department_id', 'active', 'data');
      for (const row of queues) {
        const data = parseJson<Record<string, unknown>>(row.data, {});
        // A queue row standing for a department queue is already listed above.
        if (out.some((o) => o.id === String(row.id))) continue;
        const departmentId = (row.department_id as string | null) ?? (typeof data.departament === 'string' ? data.departament : null);
        const own = strings(data.agents);
        out.push({
          id: String(row.id), name: String(data.displayName ?? row.name), departmentId, active: Boolean(row.active) && data.active !== false,
          agents: own.length ? own : departmentId ? byDepartment.get(departmentId) ?? [] : [],
        });
      }
      return out;
    },
  };
}

export type TransferRepository = ReturnType<typeof createTransferRepository>;
