import type { Knex } from 'knex';
import type { DeliveryState, Filter, Message } from '@atendimento/schemas';
import { parseJson, toJson, type Db } from '../knex';
import { prepared } from '../prepared';
import { applyFilter, type FieldMap } from './chat-filter-sql';

/**
 * Messages of one tenant: the seed's record in `data`, plus the columns pages, idempotency and
 * visibility need (room, channel + external id, idempotency key, author, type, status, note
 * flag). Deleted content is kept aside in `deleted_data`, out of the API record.
 */

const MESSAGE_FIELDS: FieldMap = {
  id: { column: 'id', type: 'string' },
  roomId: { column: 'room_id', type: 'string' },
  annotation: { column: 'annotation', type: 'bool' },
  type: { column: 'type', type: 'string' },
  'author.type': { column: 'author_type', type: 'string' },
  'author.id': { column: 'author_id', type: 'string' },
  'lifeControl.createdAt': { column: 'created_at', type: 'string' },
};

/** Keyset position in a room's messages (newest first, ties by id ascending). */
interface MessageCursor {
  at: string;
  id: string;
}

/** Highest state for the indexed status column. */
export function deliveryState(message: Pick<Message, 'status'>): DeliveryState | null {
  const s = message.status;
  if (!s) return null;
  if (s.deleted) return 'deleted';
  if (s.read) return 'read';
  if (s.delivered) return 'delivered';
  if (s.failed) return 'failed';
  if (s.sent) return 'sent';
  return null;
}

function messageFromRow(row: Record<string, unknown>): Message {
  const data = parseJson<Message>(row.data, {} as Message);
  return {
    ...data,
    id: String(row.id),
    roomId: String(row.room_id),
    annotation: Boolean(row.annotation),
    lifeControl: { ...(data.lifeControl ?? {}), createdAt: String(row.created_at), updatedAt: String(row.updated_at) },
  };
}

function columnsOf(message: Message): Record<string, unknown> {
  return {
    room_id: message.roomId,
    channel_id: message.channelId,
    external_id: message.messageExtId,
    author_type: message.author.type,
    author_id: message.author.id ?? null,
    type: message.type,
    status: deliveryState(message),
    annotation: message.annotation,
    data: toJson(message),
    updated_at: message.lifeControl.updatedAt ?? message.lifeControl.createdAt,
  };
}

/** What makes a provider's message a duplicate: its external id on its channel (a unique index, migration 001). */
export const MESSAGE_CONFLICT_COLUMNS = ['tenant_id', 'channel_id', 'external_id'] as const;

/**
 * `insertIfNew`'s statement: the row's values and the builder of the insert
 * (deduped on tenant, channel and external id, answering the new row's id) over those values.
 * The room repository carries it in the room's update on PostgreSQL (`saveWithNewMessage`).
 */
export function newMessageInsert(tenantId: string, message: Message): { names: string[]; values: unknown[]; build: (k: Knex | Knex.Transaction, values: readonly unknown[]) => Knex.QueryBuilder } {
  const row: Record<string, unknown> = { id: message.id, tenant_id: tenantId, created_at: message.lifeControl.createdAt, idempotency_key: null, ...columnsOf(message) };
  const names = Object.keys(row);
  return {
    names,
    values: names.map((key) => row[key]),
    build: (k, values) => k('messages').insert(Object.fromEntries(names.map((key, i) => [key, values[i]]))).onConflict([...MESSAGE_CONFLICT_COLUMNS]).ignore().returning('id'),
  };
}

export function createMessageRepository(db: Db) {
  const scoped = (q: Knex | Knex.Transaction, tenantId: string) => q('messages').where('messages.tenant_id', tenantId);

  return {
    async insert(trx: Knex.Transaction, tenantId: string, message: Message, idempotencyKey: string | null = null): Promise<void> {
      await trx('messages').insert({
        id: message.id,
        tenant_id: tenantId,
        created_at: message.lifeControl.createdAt,
        idempotency_key: idempotencyKey,
        ...columnsOf(message),
      });
    },

    /** Several messages in one statement (routing's system notes of a whole pass). */
    async insertMany(trx: Knex.Transaction, tenantId: string, list: Message[]): Promise<void> {
      for (let i = 0; i < list.length; i += 100) {
        await trx('messages').insert(list.slice(i, i + 100).map((message) => ({ id: message.id, tenant_id: tenantId, created_at: message.lifeControl.createdAt, idempotency_key: null, ...columnsOf(message) })));
      }
    },

    /**
     * Inserts a message with an external id unless (tenant, channel, external id) is already
     * stored: one statement instead of select-then-insert. False when it was a duplicate.
     */
    async insertIfNew(trx: Knex.Transaction, tenantId: string, message: Message): Promise<boolean> {
      const { values, build } = newMessageInsert(tenantId, message);
      // Every inbound message: compiled once (prepared.ts); the columns are always the same.
      const { rows } = await prepared(trx, 'messages.insertIfNew', values, build);
      return rows.length > 0;
    },

    async save(trx: Knex.Transaction, tenantId: string, message: Message, extra: { deletedData?: unknown } = {}): Promise<void> {
      await scoped(trx, tenantId)
        .andWhere('id', message.id)
        .update({ ...columnsOf(message), ...(extra.deletedData !== undefined && { deleted_data: toJson(extra.deletedData) }) });
    },

    async findById(tenantId: string, id: string, q: Knex | Knex.Transaction = db): Promise<Message | null> {
      const row = await scoped(q, tenantId).andWhere('id', id).first();
      return row ? messageFromRow(row) : null;
    },

    /** The kept content of a deleted message (for seeDeletedMessages). */
    async deletedContent(tenantId: string, id: string): Promise<unknown> {
      const row = await scoped(db, tenantId).andWhere('id', id).first('deleted_data');
      return row ? parseJson(row.deleted_data, null) : null;
    },

    async findByIds(tenantId: string, ids: string[], q: Knex | Knex.Transaction = db): Promise<Message[]> {
      if (ids.length === 0) return [];
      const rows = await scoped(q, tenantId).whereIn('id', ids);
      return rows.map(messageFromRow);
    },

    async findByExternalId(q: Knex | Knex.Transaction, tenantId: string, channelId: string | null, externalId: string): Promise<Message | null> {
      const qb = scoped(q, tenantId).andWhere('external_id', externalId);
      if (channelId === null) qb.whereNull('channel_id');
      else qb.andWhere('channel_id', channelId);
      const row = await qb.first();
      return row ? messageFromRow(row) : null;
    },

    async findByIdempotencyKey(q: Knex | Knex.Transaction, tenantId: string, key: string): Promise<Message | null> {
      const row = await scoped(q, tenantId).andWhere('idempotency_key', key).first();
      return row ? messageFromRow(row) : null;
    },

    /** A message of a room by its id or its external id (reply targets, reactions). */
    async findInRoom(q: Knex | Knex.Transaction, tenantId: string, roomId: string, ref: string): Promise<Message | null> {
      const row = await scoped(q, tenantId)
        .andWhere('room_id', roomId)
        .andWhere((w) => w.where('id', ref).orWhere('external_id', ref))
        .first();
      return row ? messageFromRow(row) : null;
    },

    /**
     * Newest first, older than `before`; the filter scopes room and visibility (one statement).
     * Messages of the same instant (WhatsApp stamps whole seconds: a burst of forwarded photos)
     * are newest first too, by id (time-ordered): the first page holds the latest of them, and
     * the reading order (oldest first, id breaks ties) is this one reversed.
     */
    async page(tenantId: string, filter: Filter, limit: number, before: MessageCursor | null, q: Knex | Knex.Transaction = db): Promise<Message[]> {
      const qb = scoped(q, tenantId);
      applyFilter(qb, filter, MESSAGE_FIELDS, 'messages', tenantId);
      if (before) qb.where((w) => w.where('messages.created_at', '<', before.at).orWhere((e) => e.where('messages.created_at', before.at).andWhere('messages.id', '<', before.id)));
      const rows = await qb.orderBy([{ column: 'messages.created_at', order: 'desc' }, { column: 'messages.id', order: 'desc' }]).limit(limit).select('messages.*');
      return rows.map(messageFromRow);
    },

    /** Messages of a room by an author type whose status is below `state` (to mark them read). */
    async notYet(trx: Knex.Transaction, tenantId: string, roomId: string, authorTypes: string[], states: (DeliveryState | null)[], limit = 500): Promise<Message[]> {
      const named = states.filter((s): s is DeliveryState => s !== null);
      const rows = await scoped(trx, tenantId)
        .andWhere('room_id', roomId)
        .whereIn('author_type', authorTypes)
        .andWhere('annotation', false)
        .andWhere((w) => {
          if (named.length) w.whereIn('status', named);
          if (states.includes(null)) w.orWhereNull('status');
        })
        .orderBy('created_at', 'desc')
        .limit(limit);
      return rows.map(messageFromRow);
    },

    /** Has the room any message from an agent (forceAgentMessage)? */
    async hasAgentMessage(q: Knex | Knex.Transaction, tenantId: string, roomId: string): Promise<boolean> {
      const row = await scoped(q, tenantId).andWhere({ room_id: roomId, author_type: 'agent', annotation: false }).first('id');
      return Boolean(row);
    },

    /**
     * True while one of our sends on the channel may still be waiting for the provider's answer:
     * an agent message with no external id and no status yet, created since `since`.
     */
    async sendInFlight(q: Knex | Knex.Transaction, tenantId: string, channelId: string, since: string): Promise<boolean> {
      const row = await q('messages')
        .where({ tenant_id: tenantId, channel_id: channelId })
        .whereNull('external_id').whereNull('status')
        .andWhere('author_type', 'agent').andWhere('annotation', false).andWhere('created_at', '>=', since)
        .first('id');
      return Boolean(row);
    },
  };
}

export type MessageRepository = ReturnType<typeof createMessageRepository>;
