import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { parseJson, toJson, type Db, type Executor } from '../knex';

/**
 * LGPD data rights and retention (docs/lgpd.md): everything a tenant holds about a contact,
 * its anonymisation, and the audit list. Anonymising keeps the rows and their statistics
 * columns (dates, department, agents, NPS/CSAT values, counts) so the dashboard's aggregates
 * survive; it removes what identifies the person: names, phones, e-mails, photos, texts,
 * files, locations.
 */

export const ANONYMOUS_NAME = 'Contato anônimo';
export const REMOVED_TEXT = '[conteúdo removido (LGPD)]';

const MEDIA_KEYS = [['image', 'imageUrl'], ['audio', 'audioUrl'], ['video', 'videoUrl'], ['document', 'documentUrl']] as const;

export interface AuditEntry {
  id: string;
  action: 'export' | 'erase' | 'retention';
  contactId: string | null;
  userId: string | null;
  details: Record<string, unknown>;
  createdAt: string;
}

/** URLs of the files a message holds (image, audio, video, document). */
export function mediaUrlsOf(data: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [key, field] of MEDIA_KEYS) {
    const media = data[key] as Record<string, unknown> | undefined;
    if (media && typeof media[field] === 'string') out.push(media[field] as string);
  }
  return out;
}

function withoutMedia(data: Record<string, unknown>): Record<string, unknown> {
  const out = { ...data };
  for (const [key] of MEDIA_KEYS) delete out[key];
  return out;
}

/**
 * What an anonymised message keeps: ids, kind, channel, flags, delivery status and dates (what
 * the statistics read). Everything else — text, caption, edits, quotes, files, location,
 * shared contacts, the provider's raw payload, the contact's name — is dropped (a whitelist,
 * so a field added later is not kept by accident).
 */
const KEPT_MESSAGE_FIELDS = ['id', 'roomId', 'messageExtId', 'messageId', 'replyTo', 'from', 'to', 'channel', 'channelId', 'type', 'annotation', 'hide', 'internal', 'editMessageId', 'status', 'lifeControl'];

function anonymisedMessage(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of KEPT_MESSAGE_FIELDS) if (key in data) out[key] = data[key];
  const author = (data.author ?? {}) as Record<string, unknown>;
  const hadContent = (typeof data.text === 'string' && data.text !== '') || mediaUrlsOf(data).length > 0 || data.type !== 'text';
  const score = (value: unknown) => (value && typeof value === 'object' ? { value: (value as { value?: unknown }).value ?? null, reason: null } : null);
  Object.assign(out, {
    text: hadContent ? REMOVED_TEXT : null,
    caption: null,
    versions: [],
    replied: null,
    referral: null,
    reaction: null,
    reactions: [],
    author: author.type === 'client' ? { id: author.id ?? null, type: 'client', displayName: ANONYMOUS_NAME, phone: null, email: null, photoUrl: null } : author,
    nps: score(data.nps),
    csat: score(data.csat),
    anonymised: true,
  });
  return out;
}

function anonymisedRoom(id: string, data: Record<string, unknown>): Record<string, unknown> {
  const author = (data.author ?? {}) as Record<string, unknown>;
  const chatId = `anonimo-${id}`;
  const last = data.lastMessage as Record<string, unknown> | null | undefined;
  return {
    ...data,
    chatId,
    author: { ...author, displayName: ANONYMOUS_NAME, photoUrl: null, email: null, phone: null, chatId },
    clientsName: [],
    groupData: null,
    lastMessage: last ? { ...last, text: REMOVED_TEXT, author: { ...(last.author as object), displayName: (last.author as { type?: string } | undefined)?.type === 'client' ? ANONYMOUS_NAME : (last.author as { displayName?: string } | undefined)?.displayName } } : null,
    anonymised: true,
  };
}

export function createLgpdRepository(db: Db) {
  const rooms = (q: Executor, tenantId: string) => q('rooms').where('tenant_id', tenantId);

  return {
    /** Active tenants whose configuration sets a retention (the clock's sweep reads them). */
    async tenantsWithRetention(): Promise<{ tenantId: string; retention: { closedChatsDays?: number | null; mediaDays?: number | null } }[]> {
      const rows = await db('tenants').where('active', true).select('id', 'app_config');
      return rows
        .map((r) => ({ tenantId: String(r.id), retention: parseJson<{ retention?: { closedChatsDays?: number | null; mediaDays?: number | null } | null }>(r.app_config, {}).retention ?? null }))
        .filter((t): t is { tenantId: string; retention: { closedChatsDays?: number | null; mediaDays?: number | null } } => Boolean(t.retention && (t.retention.closedChatsDays || t.retention.mediaDays)));
    },

    /** The contact's register record (live or not) and its channel identities. */
    async contact(tenantId: string, contactId: string): Promise<{ record: Record<string, unknown>; identities: Record<string, unknown>[] } | null> {
      if (contactId.length > 64) return null;
      const row = await db('contacts').where({ tenant_id: tenantId, id: contactId }).whereNull('deleted_at').first('id', 'data', 'created_at', 'updated_at');
      if (!row) return null;
      const identities = await db('contact_identities').where({ tenant_id: tenantId, contact_id: contactId }).select('channel_id', 'identity', 'created_at');
      return {
        record: { ...parseJson<Record<string, unknown>>(row.data, {}), id: String(row.id), createdAt: String(row.created_at), updatedAt: String(row.updated_at) },
        identities: identities.map((r) => ({ channelId: String(r.channel_id), identity: String(r.identity), createdAt: String(r.created_at) })),
      };
    },

    /** The contact's chats (API records) and every message of them, oldest first. */
    async chatsOf(tenantId: string, contactId: string): Promise<{ rooms: Record<string, unknown>[]; messages: Record<string, unknown>[] }> {
      const roomRows = await rooms(db, tenantId).andWhere('contact_id', contactId).orderBy('created_at').select('id', 'data', 'created_at', 'nps_value', 'csat_value', 'closed_at');
      const ids = roomRows.map((r) => String(r.id));
      const messageRows = ids.length
        ? await db('messages').where('tenant_id', tenantId).whereIn('room_id', ids).orderBy([{ column: 'created_at' }, { column: 'id' }]).select('id', 'room_id', 'data', 'created_at')
        : [];
      return {
        rooms: roomRows.map((r) => ({ ...parseJson<Record<string, unknown>>(r.data, {}), id: String(r.id), createdAt: String(r.created_at), npsValue: r.nps_value ?? null, csatValue: r.csat_value ?? null, closedAt: r.closed_at ?? null })),
        messages: messageRows.map((r) => ({ ...parseJson<Record<string, unknown>>(r.data, {}), id: String(r.id), roomId: String(r.room_id), createdAt: String(r.created_at) })),
      };
    },

    async roomIdsOfContact(q: Executor, tenantId: string, contactId: string): Promise<string[]> {
      return (await rooms(q, tenantId).andWhere('contact_id', contactId).select('id')).map((r) => String(r.id));
    },

    /**
     * Anonymises chats and their messages in the caller's transaction; answers the message ids
     * changed and the file URLs they held (the caller deletes the files after commit).
     */
    async anonymiseRooms(trx: Knex.Transaction, tenantId: string, roomIds: string[], at: string): Promise<{ messageIds: string[]; files: string[] }> {
      const messageIds: string[] = [];
      const files: string[] = [];
      for (let i = 0; i < roomIds.length; i += 200) {
        const chunk = roomIds.slice(i, i + 200);
        const roomRows = await rooms(trx, tenantId).whereIn('id', chunk).select('id', 'data');
        for (const row of roomRows) {
          const data = parseJson<Record<string, unknown>>(row.data, {});
          const photo = (data.author as { photoUrl?: unknown } | undefined)?.photoUrl;
          if (typeof photo === 'string') files.push(photo);
          // contact_id stays: an opaque id (the room's author.id keeps it too) that the
          // dashboard's distinct-contacts counters are keyed on; nulling it changed them.
          await rooms(trx, tenantId).andWhere('id', row.id).update({
            data: toJson(anonymisedRoom(String(row.id), data)), chat_id: `anonimo-${row.id}`, author_name: ANONYMOUS_NAME,
            open_key: null, anonymised_at: at, media_deleted_at: at, updated_at: at,
          });
        }
        const messageRows = await trx('messages').where('tenant_id', tenantId).whereIn('room_id', chunk).select('id', 'data');
        for (const row of messageRows) {
          const data = parseJson<Record<string, unknown>>(row.data, {});
          files.push(...mediaUrlsOf(data));
          await trx('messages').where({ tenant_id: tenantId, id: row.id }).update({ data: toJson(anonymisedMessage(data)), deleted_data: null, updated_at: at });
          messageIds.push(String(row.id));
        }
      }
      return { messageIds, files };
    },

    /** Retention's first step: only the files of these chats go (messages say the file was removed). */
    async removeMedia(trx: Knex.Transaction, tenantId: string, roomIds: string[], at: string): Promise<{ messageIds: string[]; files: string[] }> {
      const messageIds: string[] = [];
      const files: string[] = [];
      for (let i = 0; i < roomIds.length; i += 200) {
        const chunk = roomIds.slice(i, i + 200);
        const messageRows = await trx('messages').where('tenant_id', tenantId).whereIn('room_id', chunk).select('id', 'data');
        for (const row of messageRows) {
          const data = parseJson<Record<string, unknown>>(row.data, {});
          const urls = mediaUrlsOf(data);
          if (!urls.length) continue;
          files.push(...urls);
          // The provider's raw payload names the file too (ids, captions): it goes with it.
          const kept = withoutMedia(data);
          delete kept.raw;
          await trx('messages').where({ tenant_id: tenantId, id: row.id }).update({ data: toJson({ ...kept, text: data.text ?? REMOVED_TEXT, mediaRemoved: true }), updated_at: at });
          messageIds.push(String(row.id));
        }
        await rooms(trx, tenantId).whereIn('id', chunk).update({ media_deleted_at: at });
      }
      return { messageIds, files };
    },

    /** Removes the contact's register record and identities (the chats were anonymised first). */
    async eraseContact(trx: Knex.Transaction, tenantId: string, contactId: string, at: string): Promise<void> {
      await trx('contact_identities').where({ tenant_id: tenantId, contact_id: contactId }).delete();
      await trx('contacts').where({ tenant_id: tenantId, id: contactId }).update({
        data: toJson({ id: contactId, displayName: ANONYMOUS_NAME, erased: true }), display_name: ANONYMOUS_NAME, phone: null, email: null, deleted_at: at, updated_at: at,
      });
    },

    /** Closed chats whose closing is older than `before`, not yet anonymised (or, with media, whose files are still there). */
    async closedBefore(tenantId: string, before: string, limit: number, what: 'anonymise' | 'media'): Promise<string[]> {
      const q = rooms(db, tenantId).andWhere('active', false).andWhere('closed_at', '<', before).whereNull(what === 'media' ? 'media_deleted_at' : 'anonymised_at');
      return (await q.orderBy('closed_at').limit(limit).select('id')).map((r) => String(r.id));
    },

    async audit(q: Executor, tenantId: string, entry: Omit<AuditEntry, 'id'>): Promise<AuditEntry> {
      const id = randomUUID();
      await q('lgpd_audit').insert({ id, tenant_id: tenantId, action: entry.action, contact_id: entry.contactId, user_id: entry.userId, details: toJson(entry.details), created_at: entry.createdAt });
      return { id, ...entry };
    },

    async auditList(tenantId: string, limit = 200): Promise<AuditEntry[]> {
      const rows = await db('lgpd_audit').where('tenant_id', tenantId).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(limit).select('*');
      return rows.map((r) => ({
        id: String(r.id), action: r.action as AuditEntry['action'], contactId: (r.contact_id as string | null) ?? null, userId: (r.user_id as string | null) ?? null,
        details: parseJson<Record<string, unknown>>(r.details, {}), createdAt: String(r.created_at),
      }));
    },
  };
}

export type LgpdRepository = ReturnType<typeof createLgpdRepository>;
