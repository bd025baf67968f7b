import type { Knex } from 'knex';
import type { Db } from '../knex';
import { parseJson, toJson } from '../knex';
import { createRoomRepository } from './room-repository';

/**
 * The few reads and writes register rules need beyond a register's own table: active rooms
 * of contacts (phone lock), department membership rows (auth computes supervisorOf/agentOf
 * from them), e-mail uniqueness of users, channels. Tenant first, every query scoped by it.
 */
export function createRegisterLookups(db: Db) {
  const rooms = createRoomRepository(db);
  return {
    /** Contact ids among `contactIds` that have an active room (one statement). */
    async contactsWithActiveRoom(tenantId: string, contactIds: string[], trx?: Knex.Transaction): Promise<Set<string>> {
      if (contactIds.length === 0) return new Set();
      const rows = await (trx ?? db)('rooms')
        .where({ tenant_id: tenantId, active: true })
        .whereNull('deleted_at')
        .whereIn('contact_id', contactIds.slice(0, 1000))
        .distinct('contact_id');
      return new Set(rows.map((r: { contact_id: string }) => String(r.contact_id)));
    },

    /** The room repository's author refresh (room-repository.ts `refreshAuthor`), for the contacts hooks. */
    refreshRoomAuthors: rooms.refreshAuthor,

    /** Makes department_members mirror a department's agents and supervisors arrays. */
    async replaceDepartmentMembers(tenantId: string, departmentId: string, agents: string[], supervisors: string[], trx: Knex.Transaction): Promise<void> {
      await trx('department_members').where({ tenant_id: tenantId, department_id: departmentId }).del();
      const rows = [
        ...[...new Set(agents)].map((user_id) => ({ tenant_id: tenantId, department_id: departmentId, user_id, role: 'agent' })),
        ...[...new Set(supervisors)].map((user_id) => ({ tenant_id: tenantId, department_id: departmentId, user_id, role: 'supervisor' })),
      ];
      for (let i = 0; i < rows.length; i += 200) await trx('department_members').insert(rows.slice(i, i + 200));
    },

    async removeDepartmentMembers(tenantId: string, departmentIds: string[], trx: Knex.Transaction): Promise<void> {
      if (departmentIds.length) await trx('department_members').where({ tenant_id: tenantId }).whereIn('department_id', departmentIds).del();
    },

    /**
     * Removes deleted users from department_members and from the departments' agents,
     * supervisors and orderedAgents arrays; returns the departments it changed.
     */
    async removeUsersFromDepartments(tenantId: string, userIds: string[], now: Date, trx: Knex.Transaction): Promise<string[]> {
      if (userIds.length === 0) return [];
      const affected = await trx('department_members').where({ tenant_id: tenantId }).whereIn('user_id', userIds).distinct('department_id');
      const ids = affected.map((r: { department_id: string }) => String(r.department_id));
      await trx('department_members').where({ tenant_id: tenantId }).whereIn('user_id', userIds).del();
      if (ids.length === 0) return [];
      const rows = await trx('departments').where({ tenant_id: tenantId }).whereIn('id', ids).select('id', 'data');
      const gone = new Set(userIds);
      for (const row of rows) {
        const data = parseJson<Record<string, unknown>>(row.data, {});
        for (const key of ['agents', 'supervisors', 'orderedAgents']) {
          if (Array.isArray(data[key])) data[key] = (data[key] as unknown[]).filter((id) => !gone.has(String(id)));
        }
        await trx('departments').where({ tenant_id: tenantId, id: row.id }).update({ data: toJson(data), updated_at: now.toISOString() });
      }
      return ids;
    },

    /** Agent ids among `ids` that exist (live users of type agent). */
    async existingAgents(tenantId: string, ids: string[], trx?: Knex.Transaction): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await (trx ?? db)('users').where({ tenant_id: tenantId, type: 'agent' }).whereNull('deleted_at').whereIn('id', ids.slice(0, 1000)).select('id');
      return new Set(rows.map((r: { id: string }) => String(r.id)));
    },

    /** The tenant's tags (not deleted) by id and name: a tenant has tens of them, read whole. */
    async tagNames(tenantId: string, trx?: Knex.Transaction): Promise<{ id: string; name: string }[]> {
      const rows = await (trx ?? db)('tags').where({ tenant_id: tenantId }).whereNull('deleted_at').select('id', 'name');
      return rows.map((r: { id: string; name: string }) => ({ id: String(r.id), name: String(r.name ?? '') }));
    },

    /** Ids of the tenant's active, not deleted users holding the admin claim (the last-admin rule). */
    async activeAdminIds(tenantId: string, trx?: Knex.Transaction): Promise<string[]> {
      const rows = await (trx ?? db)('users').where({ tenant_id: tenantId, active: true }).whereNull('deleted_at').select('id', 'data');
      return rows.filter((r: { data: unknown }) => Boolean(parseJson<{ claims?: { admin?: unknown } }>(r.data, {}).claims?.admin)).map((r: { id: string }) => String(r.id));
    },

    /** The user id holding an e-mail in the tenant (deleted accounts included: the index is unique). */
    async userIdByEmail(tenantId: string, email: string, trx?: Knex.Transaction): Promise<string | null> {
      const row = await (trx ?? db)('users').where({ tenant_id: tenantId, email }).first('id');
      return row ? String(row.id) : null;
    },

    /** A channel's type and phone number (QR codes accept only meta channels). */
    async channel(tenantId: string, id: string, trx?: Knex.Transaction): Promise<{ id: string; type: string; phoneNumber: string | null; displayName: string } | null> {
      const row = await (trx ?? db)('channels').where({ tenant_id: tenantId, id }).whereNull('deleted_at').first();
      if (!row) return null;
      const data = parseJson<Record<string, unknown>>(row.data, {});
      return { id: String(row.id), type: String(row.type), displayName: String(row.display_name), phoneNumber: typeof data.phoneNumber === 'string' ? data.phoneNumber : null };
    },

    /** Agent status history (sub-collection export): user ids, period [from, to] ISO. */
    async statuses(tenantId: string, userIds: string[], from: string, to: string): Promise<{ userId: string; status: string; createdAt: string }[]> {
      if (userIds.length === 0) return [];
      const out: { userId: string; status: string; createdAt: string }[] = [];
      for (let i = 0; i < userIds.length; i += 500) {
        const rows = await db('statuses')
          .where({ tenant_id: tenantId })
          .whereIn('user_id', userIds.slice(i, i + 500))
          .andWhere('created_at', '>=', from)
          .andWhere('created_at', '<=', to)
          .orderBy('created_at', 'asc')
          .limit(100_000)
          .select('user_id', 'status', 'created_at');
        out.push(...rows.map((r: { user_id: string; status: string; created_at: string }) => ({ userId: String(r.user_id), status: String(r.status), createdAt: String(r.created_at) })));
      }
      return out;
    },
  };
}

export type RegisterLookups = ReturnType<typeof createRegisterLookups>;
