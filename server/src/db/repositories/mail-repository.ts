import type { Knex } from 'knex';
import type { Db, Executor } from '../knex';

/**
 * The e-mail channel's own tables (docs/email.md, migration 013): the Message-ID index of each
 * mailbox (dedupe and threading) and the IMAP resume point of each folder.
 */
export function createMailRepository(db: Db) {
  return {
    /**
     * Claims a Message-ID for a stored message; false when the mailbox already has it (a mail
     * IMAP delivered again, or our own reply coming back). Inside the message's transaction.
     */
    async claimMessageKey(trx: Knex.Transaction, tenantId: string, channelId: string, key: string, roomId: string, messageId: string, at: string): Promise<boolean> {
      const rows = await trx('mail_threads')
        .insert({ tenant_id: tenantId, channel_id: channelId, message_key: key, room_id: roomId, message_id: messageId, created_at: at })
        .onConflict(['tenant_id', 'channel_id', 'message_key'])
        .ignore()
        .returning('message_key');
      return rows.length > 0;
    },

    /** True when the mailbox stored or sent this Message-ID. */
    async hasMessageKey(tenantId: string, channelId: string, key: string, q: Executor = db): Promise<boolean> {
      const row = await q('mail_threads').where({ tenant_id: tenantId, channel_id: channelId, message_key: key }).first('room_id');
      return Boolean(row);
    },

    /** Rooms of these Message-IDs, in the order of `keys` (the first found is the closest ancestor). */
    async roomsOfKeys(q: Executor, tenantId: string, channelId: string, keys: string[]): Promise<string[]> {
      if (keys.length === 0) return [];
      const rows = await q('mail_threads').where({ tenant_id: tenantId, channel_id: channelId }).whereIn('message_key', keys.slice(0, 200)).select('message_key', 'room_id');
      const byKey = new Map(rows.map((r) => [String(r.message_key), String(r.room_id)]));
      return keys.map((k) => byKey.get(k)).filter((r): r is string => Boolean(r));
    },

    /** Where the last sync of a folder stopped. */
    async mailboxState(tenantId: string, channelId: string, folder: string): Promise<{ uidValidity: string; lastUid: number } | null> {
      const row = await db('mail_mailboxes').where({ tenant_id: tenantId, channel_id: channelId, folder }).first();
      return row ? { uidValidity: String(row.uid_validity), lastUid: Number(row.last_uid) } : null;
    },

    async saveMailboxState(tenantId: string, channelId: string, folder: string, state: { uidValidity: string; lastUid: number }, at: string): Promise<void> {
      await db('mail_mailboxes')
        .insert({ tenant_id: tenantId, channel_id: channelId, folder, uid_validity: state.uidValidity, last_uid: state.lastUid, updated_at: at })
        .onConflict(['tenant_id', 'channel_id', 'folder'])
        .merge({ uid_validity: state.uidValidity, last_uid: state.lastUid, updated_at: at });
    },

    /**
     * Active channels whose type is served by the mail adapter, across tenants: the mailbox
     * watchers are a background job of the whole server, started per (tenant, channel).
     */
    async activeMailChannels(types: string[]): Promise<{ tenantId: string; channelId: string }[]> {
      if (types.length === 0) return [];
      const rows = await db('channels').whereNull('deleted_at').andWhere('active', true).whereIn('type', types).select('tenant_id', 'id');
      return rows.map((r) => ({ tenantId: String(r.tenant_id), channelId: String(r.id) }));
    },

    /** Agent messages of a mail channel that never got a send result (a restart cut their send). */
    async unsentReplies(tenantId: string, channelId: string): Promise<string[]> {
      const rows = await db('messages')
        .where({ tenant_id: tenantId, channel_id: channelId, author_type: 'agent', annotation: false })
        .whereNull('status')
        .orderBy('created_at', 'asc')
        .limit(500)
        .select('id');
      return rows.map((r) => String(r.id));
    },
  };
}

export type MailRepository = ReturnType<typeof createMailRepository>;
