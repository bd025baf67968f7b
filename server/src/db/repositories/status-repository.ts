import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Filter, OrderBy } from '@atendimento/schemas';
import type { Db } from '../knex';
import { dialectOf, parseJson, toJson } from '../knex';

/** One agent status record (seed 002 §3 "Agent status record"): every one is kept for reports. */
export interface StatusRecord {
  id: string;
  userId: string;
  status: string;
  createdAt: string;
}

/** An agent as presence lists need it (users table columns plus the chosen status in data). */
export interface AgentRow {
  id: string;
  type: string;
  displayName: string;
  email: string;
  photoUrl: string | null;
  active: boolean;
  status: string | null;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
}

type Conn = Db | Knex.Transaction;

/** Status record fields a subscription may filter and sort on, and their columns. */
export const STATUS_COLUMNS: Record<string, string> = {
  id: 'id',
  userId: 'user_id',
  status: 'status',
  'lifeControl.createdAt': 'created_at',
};

function statusFromRow(row: Record<string, unknown>): StatusRecord {
  return { id: String(row.id), userId: String(row.user_id), status: String(row.status), createdAt: String(row.created_at) };
}

function agentFromRow(row: Record<string, unknown>): AgentRow {
  const data = parseJson<{ photoUrl?: string | null; status?: string | null }>(row.data, {});
  return {
    id: String(row.id),
    type: String(row.type),
    displayName: String(row.display_name),
    email: String(row.email),
    photoUrl: data.photoUrl ?? null,
    active: Boolean(row.active),
    status: data.status ?? null,
    createdAt: String(row.created_at),
    updatedAt: String(row.updated_at),
    deletedAt: (row.deleted_at as string | null) ?? null,
  };
}

/**
 * Applies a filter on whitelisted status fields as bound parameters. The caller validated it
 * (`checkStatusFilter`), so unknown fields never reach here.
 */
function whereFilter(qb: Knex.QueryBuilder, filter: Filter): void {
  if ('and' in filter) {
    qb.where((b) => filter.and.forEach((f) => whereFilter(b, f)));
    return;
  }
  if ('or' in filter) {
    qb.where((b) => filter.or.forEach((f) => b.orWhere((bb) => whereFilter(bb, f))));
    return;
  }
  const column = STATUS_COLUMNS[filter.field]!;
  const value = filter.value as string | null;
  switch (filter.op) {
    case '==':
      if (value === null) qb.whereNull(column);
      else qb.where(column, value);
      return;
    case '!=':
      if (value === null) qb.whereNotNull(column);
      else qb.where((b) => b.whereNot(column, value).orWhereNull(column));
      return;
    case 'in':
      qb.whereIn(column, filter.value as string[]);
      return;
    case 'not-in':
      qb.whereNotIn(column, filter.value as string[]);
      return;
    case '<':
    case '<=':
    case '>':
    case '>=':
      qb.where(column, filter.op, value as string);
      return;
    default:
      throw new Error(`status-repository: operator ${filter.op} is not supported; checkStatusFilter must refuse it first.`);
  }
}

/** Status records and the agent rows presence reads; every call takes tenantId first. */
export function createStatusRepository(db: Db) {
  return {
    async insert(trx: Conn, tenantId: string, userId: string, status: string, now: Date): Promise<StatusRecord> {
      const record = { id: randomUUID(), userId, status, createdAt: now.toISOString() };
      await trx('statuses').insert({ id: record.id, tenant_id: tenantId, user_id: userId, status, created_at: record.createdAt });
      return record;
    },

    /** The latest record per user among records created after `since` (the online window). */
    async latestSince(trx: Conn, tenantId: string, since: string, userIds?: string[]): Promise<Map<string, StatusRecord>> {
      const latest = new Map<string, StatusRecord>();
      const chunks = userIds ? Array.from({ length: Math.ceil(userIds.length / 500) }, (_, i) => userIds.slice(i * 500, i * 500 + 500)) : [null];
      for (const chunk of chunks) {
        if (chunk && chunk.length === 0) continue;
        const q = trx('statuses').where('tenant_id', tenantId).andWhere('created_at', '>', since).orderBy([{ column: 'created_at' }, { column: 'id' }]);
        if (chunk) q.whereIn('user_id', chunk);
        for (const row of await q.select('id', 'user_id', 'status', 'created_at')) latest.set(String(row.user_id), statusFromRow(row));
      }
      return latest;
    },

    /** Users with a record created in (from, to], across tenants (presence sweeper). */
    async usersWithRecordsBetween(from: string, to: string): Promise<{ tenantId: string; userId: string }[]> {
      const rows = await db('statuses').where('created_at', '>', from).andWhere('created_at', '<=', to).distinct('tenant_id', 'user_id');
      return rows.map((r) => ({ tenantId: String(r.tenant_id), userId: String(r.user_id) }));
    },

    async list(trx: Conn, tenantId: string, query: { filter: Filter | null; orderBy: OrderBy[]; limit: number }): Promise<StatusRecord[]> {
      const q = trx('statuses').where('tenant_id', tenantId);
      if (query.filter) whereFilter(q, query.filter);
      for (const o of query.orderBy) q.orderBy(STATUS_COLUMNS[o.field]!, o.direction);
      // compareBy (schemas/query.ts) breaks ties by id ascending; the SQL order must agree.
      q.orderBy('id', 'asc').limit(query.limit);
      return (await q.select('id', 'user_id', 'status', 'created_at')).map(statusFromRow);
    },

    async byIds(tenantId: string, ids: string[]): Promise<StatusRecord[]> {
      if (ids.length === 0) return [];
      return (await db('statuses').where('tenant_id', tenantId).whereIn('id', ids).select('id', 'user_id', 'status', 'created_at')).map(statusFromRow);
    },

    /** Agents of the tenant (not deleted, active) or, with ids, those users whatever their state. */
    async agents(trx: Conn, tenantId: string, ids?: string[]): Promise<AgentRow[]> {
      const q = trx('users').where('tenant_id', tenantId);
      if (ids) q.whereIn('id', ids);
      else q.where({ type: 'agent', active: true }).whereNull('deleted_at');
      return (await q.select('id', 'type', 'display_name', 'email', 'active', 'data', 'created_at', 'updated_at', 'deleted_at')).map(agentFromRow);
    },

    async findAgent(trx: Conn, tenantId: string, userId: string): Promise<AgentRow | null> {
      const row = await trx('users').where({ tenant_id: tenantId, id: userId, type: 'agent' }).whereNull('deleted_at').first();
      return row ? agentFromRow(row) : null;
    },

    /** Keeps the agent's chosen status on the user record (the status bar shows it). */
    async setChosenStatus(trx: Conn, tenantId: string, userId: string, status: string, now: Date): Promise<void> {
      const read = trx('users').where({ tenant_id: tenantId, id: userId }).first('data');
      // PostgreSQL: lock the row so a concurrent profile update does not lose this write.
      const row = await (dialectOf(db) === 'pg' ? read.forUpdate() : read);
      if (!row) return;
      const data = { ...parseJson<Record<string, unknown>>(row.data, {}), status };
      await trx('users').where({ tenant_id: tenantId, id: userId }).update({ data: toJson(data), updated_at: now.toISOString() });
    },
  };
}

export type StatusRepository = ReturnType<typeof createStatusRepository>;
