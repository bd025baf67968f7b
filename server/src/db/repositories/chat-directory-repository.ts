import type { Knex } from 'knex';
import type { Channel } from '@atendimento/schemas';
import { parseJson, type Db } from '../knex';
import { preparedFirst } from '../prepared';
import { createRegisterSql, type FieldSpecs } from './register-sql';

/**
 * What the chat domain reads from registers it does not own: channels, departments and their
 * members, agents' names and fixed messages. Read-only; every call scoped by tenant.
 */
interface FixedMessageRow {
  id: string;
  message: string | null;
  fileUrl: string | null;
  fileName: string | null;
  mimeType: string | null;
  uid: string | null;
  active: boolean;
}

export function channelFromRow(row: Record<string, unknown>): Channel {
  // `provider` holds the channel's credentials (docs/whatsapp.md): never part of a Channel.
  // `templates` is the synced template list (GET /api/templates), too big to travel with channels.
  const { provider: _credentials, templates: _templates, templatesSyncedAt: _synced, ...data } = parseJson<Partial<Channel> & { provider?: unknown; templates?: unknown; templatesSyncedAt?: unknown }>(row.data, {});
  return {
    phoneNumber: null,
    hide: false,
    color: null,
    menuOrder: 0,
    migrated: true,
    claims: {},
    departmentId: null,
    ...data,
    id: String(row.id),
    type: String(row.type) as Channel['type'],
    displayName: String(row.display_name),
    active: Boolean(row.active),
  } as Channel;
}

/** Contact fields naming its ERP salesman: 'Vendedor (ERP)' and the 'Representante' list. */
const SALESMAN_FIELDS: FieldSpecs = { vendId: { json: ['vendId'], type: 'string' }, salesmen: { json: ['salesmen'], type: 'array' } };

/** At most this many client contacts scope 'Hitorico dos meus clientes' (the filter's list limit). */
export const CLIENT_CONTACTS_MAX = 500;

export function createChatDirectoryRepository(db: Db) {
  const contactsSql = createRegisterSql(db, 'contacts');
  return {
    /**
     * The contacts whose salesman is the ERP user `code` (vendId, or one of salesmen): the
     * "clients" of a user with claim vendHistory. The most recently updated first, at most
     * CLIENT_CONTACTS_MAX.
     */
    async clientContactsOf(tenantId: string, code: string): Promise<string[]> {
      const qb = db('contacts').where('contacts.tenant_id', tenantId).whereNull('contacts.deleted_at');
      contactsSql.apply(qb, { or: [{ field: 'vendId', op: '==', value: code }, { field: 'salesmen', op: 'array-contains', value: code }] }, SALESMAN_FIELDS);
      const rows = await qb.orderBy('contacts.updated_at', 'desc').limit(CLIENT_CONTACTS_MAX).select('contacts.id');
      return rows.map((r: { id: string }) => String(r.id));
    },
    async channel(tenantId: string, id: string, q: Knex | Knex.Transaction = db): Promise<Channel | null> {
      const row = await q('channels').where({ tenant_id: tenantId, id }).whereNull('deleted_at').first();
      return row ? channelFromRow(row) : null;
    },
    async channels(tenantId: string): Promise<Channel[]> {
      const rows = await db('channels').where({ tenant_id: tenantId }).whereNull('deleted_at').orderBy('display_name');
      return rows.map(channelFromRow).sort((a, b) => a.menuOrder - b.menuOrder);
    },
    async departmentName(tenantId: string, id: string, q: Knex | Knex.Transaction = db): Promise<string | null> {
      const build = (k: Knex | Knex.Transaction, [t, d]: readonly unknown[]) => k('departments').where({ tenant_id: t as string, id: d as string }).whereNull('deleted_at').first('display_name');
      // Every new chat asks this inside its transaction: compiled once (prepared.ts).
      const row = await preparedFirst<{ display_name: string }>(q, 'departments.name', [tenantId, id], build);
      return row ? String(row.display_name) : null;
    },
    /** Agent ids of the given departments (supervisors' "team"). */
    async agentsOfDepartments(tenantId: string, departmentIds: string[]): Promise<string[]> {
      if (departmentIds.length === 0) return [];
      const rows = await db('department_members').where('tenant_id', tenantId).whereIn('department_id', departmentIds).andWhere('role', 'agent').distinct('user_id');
      return rows.map((r) => String(r.user_id));
    },
    /** Active agents by id, with their names (push/pull of other agents). */
    async agents(tenantId: string, ids: string[], q: Knex | Knex.Transaction = db): Promise<{ id: string; displayName: string }[]> {
      if (ids.length === 0) return [];
      const rows = await q('users').where({ tenant_id: tenantId, type: 'agent', active: true }).whereNull('deleted_at').whereIn('id', ids).select('id', 'display_name');
      return rows.map((r) => ({ id: String(r.id), displayName: String(r.display_name) }));
    },
    /**
     * Active users with follow-me on and a WhatsApp number (docs/console-operations.md
     * "Follow-me"): among `ids`, or all of the tenant's when `ids` is null (a reply from a phone).
     * The switch and the number live in the user's JSON data; a tenant's users are few.
     */
    async followers(tenantId: string, ids: string[] | null, q: Knex | Knex.Transaction = db): Promise<{ id: string; displayName: string; whatsapp: string; allowed: boolean }[]> {
      if (ids && ids.length === 0) return [];
      const query = q('users').where({ tenant_id: tenantId, active: true }).whereNull('deleted_at');
      if (ids) query.whereIn('id', ids);
      const rows = await query.select('id', 'display_name', 'data');
      return rows
        .map((r) => ({ r, data: parseJson<{ whatsapp?: string | null; claims?: Record<string, unknown> }>(r.data, {}) }))
        .filter(({ data }) => data.claims?.followMe === true && typeof data.whatsapp === 'string' && data.whatsapp.length >= 8)
        .map(({ r, data }) => ({ id: String(r.id), displayName: String(r.display_name), whatsapp: data.whatsapp!, allowed: data.claims?.allowFollowMe === true }));
    },
    /** Active tags by id with their names and department (tagsPerDepto), in the order asked. */
    async tags(tenantId: string, ids: string[], q: Knex | Knex.Transaction = db): Promise<{ id: string; name: string; department: string | null }[]> {
      if (ids.length === 0) return [];
      const rows = await q('tags').where({ tenant_id: tenantId, active: true }).whereNull('deleted_at').whereIn('id', ids).select('id', 'name', 'data');
      const byId = new Map(rows.map((r) => {
        const department = parseJson<{ department?: unknown }>(r.data, {}).department;
        return [String(r.id), { name: String(r.name), department: typeof department === 'string' && department ? department : null }];
      }));
      return ids.filter((id) => byId.has(id) && byId.get(id)!.name.trim()).map((id) => ({ id, ...byId.get(id)! }));
    },
    /** The tenant's configuration claims (a survey answer's scale depends on npsFive). */
    async tenantClaims(tenantId: string, q: Knex | Knex.Transaction = db): Promise<Record<string, boolean | undefined>> {
      const row = await q('tenants').where({ id: tenantId }).first('app_config');
      return parseJson<{ claims?: Record<string, boolean | undefined> }>(row?.app_config, {}).claims ?? {};
    },
    /** A department's claims (seed 000 §3 Department.claims; tagWhenClose per department). */
    async departmentClaims(tenantId: string, id: string, q: Knex | Knex.Transaction = db): Promise<Record<string, unknown>> {
      const row = await q('departments').where({ tenant_id: tenantId, id }).whereNull('deleted_at').first('data');
      const claims = parseJson<{ claims?: unknown }>(row?.data, {}).claims;
      return claims && typeof claims === 'object' ? (claims as Record<string, unknown>) : {};
    },
    async fixedMessage(tenantId: string, id: string): Promise<FixedMessageRow | null> {
      const row = await db('fixed_messages').where({ tenant_id: tenantId, id }).whereNull('deleted_at').first();
      if (!row) return null;
      const data = parseJson<Record<string, unknown>>(row.data, {});
      return {
        id: String(row.id),
        message: typeof data.message === 'string' ? data.message : null,
        fileUrl: typeof data.fileUrl === 'string' ? data.fileUrl : typeof data.file === 'string' ? data.file : null,
        fileName: typeof data.fileName === 'string' ? data.fileName : null,
        mimeType: typeof data.mimeType === 'string' ? data.mimeType : null,
        uid: (row.owner_id as string | null) ?? (typeof data.uid === 'string' ? data.uid : null),
        active: Boolean(row.active),
      };
    },
  };
}

export type ChatDirectoryRepository = ReturnType<typeof createChatDirectoryRepository>;
