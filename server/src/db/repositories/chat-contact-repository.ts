import type { Knex } from 'knex';
import { dialectOf, parseRecord, toJson } from '../knex';
import { listArg, prepared, preparedAll, preparedFirst, whereOneOf } from '../prepared';

/**
 * The chat side of contacts: find or create the contact of a new conversation (web-chat
 * visitor, later WhatsApp), in the same table and record shape the contacts register uses
 * (seed 001 §3 "Contact"). The register itself (CRUD, import, export) lives elsewhere.
 */
export interface ChatContact {
  id: string;
  displayName: string;
  name: string | null;
  phone: string | null;
  email: string | null;
  photoUrl: string | null;
  channels: string[];
  agents: string[];
  clients: string[];
  prospects: string[];
  salesmen: string[];
  vendId: string | null;
  group: boolean;
  chatId: string | null;
  active: boolean;
  blockedSending: boolean;
  blockedReceiving: boolean;
  autoBlocked: boolean;
  chatsHistory: string[];
  clientsName: string[];
  lifeControl: { createdAt: string; updatedAt?: string; deletedAt: string | null };
  /** Per channel: `${channelId}LastReply` holds the contact's last message date. */
  [key: string]: unknown;
}

/** The field of a contact's record that holds its last message on a channel (the 24-hour window). */
export const lastReplyField = (channelId: string): string => `${channelId}LastReply`;

/** That date in milliseconds; NaN when the contact has none (or an unreadable one). */
export function lastReplyAt(contact: Record<string, unknown> | null, channelId: string): number {
  const at = contact?.[lastReplyField(channelId)];
  return typeof at === 'string' ? Date.parse(at) : NaN;
}

/** What a contact record lacks when an older version wrote it (fresh arrays each call). */
function contactDefaults(): Partial<ChatContact> {
  return {
    name: null,
    photoUrl: null,
    channels: [],
    agents: [],
    clients: [],
    prospects: [],
    salesmen: [],
    vendId: null,
    group: false,
    chatId: null,
    blockedSending: false,
    blockedReceiving: false,
    autoBlocked: false,
    chatsHistory: [],
    clientsName: [],
  };
}

function fromRow(row: Record<string, unknown>): ChatContact {
  const contact = parseRecord<ChatContact>(row.data, contactDefaults());
  contact.id = String(row.id);
  contact.displayName = String(row.display_name);
  contact.phone = (row.phone as string | null) ?? null;
  contact.email = (row.email as string | null) ?? null;
  contact.active = Boolean(row.active);
  contact.lifeControl = { createdAt: String(row.created_at), updatedAt: String(row.updated_at), deletedAt: (row.deleted_at as string | null) ?? null };
  return contact;
}

/** Channel identities with the live contact each names (null columns when it is gone). */
function boundContacts(k: Knex | Knex.Transaction): Knex.QueryBuilder {
  return k('contact_identities').leftJoin('contacts', function joinContact() {
    this.on('contacts.id', '=', 'contact_identities.contact_id').andOn('contacts.tenant_id', '=', 'contact_identities.tenant_id').andOnNull('contacts.deleted_at');
  });
}

export function createChatContactRepository() {
  const live = (q: Knex | Knex.Transaction, tenantId: string) => q('contacts').where('contacts.tenant_id', tenantId).whereNull('contacts.deleted_at');
  return {
    async findById(q: Knex | Knex.Transaction, tenantId: string, id: string): Promise<ChatContact | null> {
      const row = await live(q, tenantId).andWhere('id', id).first();
      return row ? fromRow(row) : null;
    },
    async findByPhone(q: Knex | Knex.Transaction, tenantId: string, phone: string): Promise<ChatContact | null> {
      const build = (k: Knex | Knex.Transaction, [t, p]: readonly unknown[]) => live(k, t as string).andWhere('phone', p as string).orderBy('created_at', 'asc').first();
      // A new customer's first message asks this inside its transaction: compiled once (prepared.ts).
      const row = await preparedFirst(q, 'contacts.findByPhone', [tenantId, phone], build);
      return row ? fromRow(row) : null;
    },
    /** The oldest live contact with this e-mail (lower case), for mail senders. */
    async findByEmail(q: Knex | Knex.Transaction, tenantId: string, email: string): Promise<ChatContact | null> {
      const row = await live(q, tenantId).andWhere('email', email).orderBy('created_at', 'asc').first();
      return row ? fromRow(row) : null;
    },
    /** Contact id bound to a channel identity (visitor key hash, provider user id). */
    async findIdentity(q: Knex | Knex.Transaction, tenantId: string, channelId: string, identity: string): Promise<string | null> {
      const row = await q('contact_identities').where({ tenant_id: tenantId, channel_id: channelId, identity }).first('contact_id');
      return row ? String(row.contact_id) : null;
    },
    /**
     * The contact bound to a channel identity, in one statement (inbound path): `boundId` is
     * the binding (null: none), `contact` the live contact it names (null: none or deleted).
     */
    async findByIdentity(q: Knex | Knex.Transaction, tenantId: string, channelId: string, identity: string): Promise<{ boundId: string | null; contact: ChatContact | null }> {
      const build = (k: Knex | Knex.Transaction, [t, c, i]: readonly unknown[]) => boundContacts(k)
        .where({ 'contact_identities.tenant_id': t, 'contact_identities.channel_id': c, 'contact_identities.identity': i })
        .first('contact_identities.contact_id as bound_id', 'contacts.*');
      // Every inbound message asks this inside its transaction: compiled once (prepared.ts).
      const row = await preparedFirst(q, 'contacts.findByIdentity', [tenantId, channelId, identity], build);
      if (!row) return { boundId: null, contact: null };
      return { boundId: String(row.bound_id), contact: row.id == null ? null : fromRow(row) };
    },
    /**
     * `findByIdentity` for many identities of one channel in one statement (a group commit's
     * read-ahead, docs/ingest.md): only the bound ones are in the map.
     */
    async findByIdentities(q: Knex | Knex.Transaction, tenantId: string, channelId: string, identities: string[]): Promise<Map<string, { boundId: string; contact: ChatContact | null }>> {
      const found = new Map<string, { boundId: string; contact: ChatContact | null }>();
      if (identities.length === 0) return found;
      // A group commit's read-ahead: one prepared statement whatever the count (docs/ingest.md "Read-ahead").
      const rows = await preparedAll(q, 'contacts.findByIdentities', [tenantId, channelId, listArg(q, identities)], (k, [t, c, ids]) =>
        whereOneOf(boundContacts(k).where({ 'contact_identities.tenant_id': t, 'contact_identities.channel_id': c }), k, 'contact_identities.identity', ids as string)
          .select('contact_identities.identity as bound_identity', 'contact_identities.contact_id as bound_id', 'contacts.*'));
      for (const row of rows) found.set(String(row.bound_identity), { boundId: String(row.bound_id), contact: row.id == null ? null : fromRow(row) });
      return found;
    },
    async addIdentity(trx: Knex.Transaction, tenantId: string, channelId: string, identity: string, contactId: string, at: string): Promise<void> {
      await prepared(trx, 'contacts.addIdentity', [tenantId, channelId, identity, contactId, at], (k, [t, c, i, id, when]) =>
        k('contact_identities').insert({ tenant_id: t, channel_id: c, identity: i, contact_id: id, created_at: when }).onConflict(['tenant_id', 'channel_id', 'identity']).ignore());
    },
    /** Binds a channel identity to a contact, moving it from another contact if it had one (a number that changed hands). */
    async bindIdentity(trx: Knex.Transaction, tenantId: string, channelId: string, identity: string, contactId: string, at: string): Promise<void> {
      await trx('contact_identities').insert({ tenant_id: tenantId, channel_id: channelId, identity, contact_id: contactId, created_at: at }).onConflict(['tenant_id', 'channel_id', 'identity']).merge(['contact_id']);
    },
    /** A new phone for the contact (column and record) plus other record fields, in one statement. */
    async changePhone(trx: Knex.Transaction, tenantId: string, id: string, phone: string, fields: Record<string, unknown>, at: string): Promise<void> {
      const patch = toJson({ ...fields, phone });
      const data = dialectOf(trx) === 'pg' ? trx.raw('data || ?::jsonb', [patch]) : trx.raw('json_patch(data, ?)', [patch]);
      await live(trx, tenantId).andWhere('id', id).update({ data, phone, updated_at: at });
    },
    async insert(trx: Knex.Transaction, tenantId: string, contact: ChatContact): Promise<void> {
      const values = [contact.id, tenantId, toJson(contact), contact.displayName, contact.phone, contact.email, contact.active, contact.lifeControl.createdAt];
      await prepared(trx, 'contacts.insert', values, (k, [id, t, data, name, phone, email, active, at]) =>
        k('contacts').insert({ id, tenant_id: t, data, display_name: name, phone, email, active, created_at: at, updated_at: at, deleted_at: null }));
    },
    /**
     * Merges top-level fields into the contact's record (e.g. `${channelId}LastReply`) in one
     * statement, so a concurrent edit of other fields is never overwritten (JSON merge patch:
     * a null value removes its key).
     */
    async merge(trx: Knex.Transaction, tenantId: string, id: string, fields: Record<string, unknown>, at: string): Promise<void> {
      // Inbound messages stamp the channel's LastReply here (at most once a minute, ingest-service.ts): compiled once (prepared.ts).
      await prepared(trx, 'contacts.merge', [tenantId, id, toJson(fields), at], (k, [t, i, patch, when]) => {
        const data = dialectOf(k) === 'pg' ? k.raw('data || ?::jsonb', [patch!]) : k.raw('json_patch(data, ?)', [patch!]);
        return live(k, t!).andWhere('id', i!).update({ data, updated_at: when! });
      });
    },
  };
}

export type ChatContactRepository = ReturnType<typeof createChatContactRepository>;
