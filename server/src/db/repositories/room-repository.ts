import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { emptyRoomState, foldText, type Filter, type Room } from '@atendimento/schemas';
import { dialectOf, parseRecord, toJson, type Db } from '../knex';
import { isTransaction, listArg, prepared, preparedFirst, preparedSql, whereOneOf } from '../prepared';
import { writeBehind, type FlushWrites } from '../write-behind';
import { applyFilter, type FieldMap } from './chat-filter-sql';
import { MESSAGE_CONFLICT_COLUMNS, type newMessageInsert } from './message-repository';

/**
 * Rooms of one tenant (docs/chat.md "Storage"): the API record lives in `data`; the columns
 * the lists filter and sort on, and one room_members row per agent, queue, history entry and
 * tag, are derived from that same record on every write, so they never drift. Every call
 * takes tenantId first; writes take the caller's transaction.
 */

/** Fields of the Filter AST that compile to SQL for rooms (see ROOM_FILTER_FIELDS). */
export const ROOM_FIELDS: FieldMap = {
  id: { column: 'id', type: 'string' },
  active: { column: 'active', type: 'bool' },
  inAttend: { column: 'in_attend', type: 'bool' },
  internal: { column: 'internal', type: 'bool' },
  hide: { column: 'hide', type: 'bool' },
  channel: { column: 'channel', type: 'string' },
  channelId: { column: 'channel_id', type: 'string' },
  origin: { column: 'origin', type: 'string' },
  destination: { column: 'destination', type: 'string' },
  departmentId: { column: 'department_id', type: 'string' },
  chatId: { column: 'chat_id', type: 'string' },
  roomInc: { column: 'room_inc', type: 'number' },
  'author.id': { column: 'contact_id', type: 'string' },
  'author.displayName': { column: 'author_name', type: 'string', folded: true },
  'lastMessage.unread': { column: 'unread', type: 'bool' },
  lastMessageAt: { column: 'last_message_at', type: 'string' },
  'lastMessage.lifeControl.createdAt': { column: 'last_message_at', type: 'string' },
  'lifeControl.createdAt': { column: 'created_at', type: 'string' },
  'closedBy.closedAt': { column: 'closed_at', type: 'string' },
  'onHold.active': { column: 'on_hold', type: 'bool' },
  'nps.value': { column: 'nps_value', type: 'number' },
  'csat.value': { column: 'csat_value', type: 'number' },
  agents: { member: 'agent' },
  agentsHistory: { member: 'agentHistory' },
  queues: { member: 'queue' },
  queuesHistory: { member: 'queueHistory' },
  tags: { member: 'tag' },
};

const MEMBER_FIELDS = { agents: 'agent', agentsHistory: 'agentHistory', queues: 'queue', queuesHistory: 'queueHistory', tags: 'tag' } as const;

/** Keyset position in a list ordered by last message date then id. */
export interface RoomCursor {
  at: string;
  id: string;
}

function threadKey(channelId: string, threadId: string): string {
  return `${channelId}\u0001thread\u0001${createHash('sha256').update(threadId).digest('hex')}`;
}

function openKey(room: Room): string | null {
  if (!room.active || room.internal) return null;
  const channelId = Array.isArray(room.channelId) ? room.channelId[0] ?? '' : room.channelId ?? '';
  // A mail thread is its own conversation: the same customer may have several open at once.
  if (room.mailThreadId) return threadKey(channelId, room.mailThreadId);
  return `${channelId}\u0001${room.chatId}`;
}

/** The indexed columns, derived from the record; `data` too unless only compared (a save's previous record). */
function columnsOf(room: Room, withData = true): Record<string, unknown> {
  const digits = room.chatId.replace(/\D/g, '');
  return {
    room_inc: room.roomInc,
    chat_id: room.chatId.slice(0, 320),
    channel: room.channel,
    channel_id: (Array.isArray(room.channelId) ? room.channelId[0] : room.channelId) ?? null,
    contact_id: room.author?.id ?? null,
    department_id: room.departmentId,
    destination: room.destination,
    active: room.active,
    in_attend: room.inAttend,
    unread: Boolean(room.lastMessage?.unread),
    unread_count: room.unreadCount,
    internal: room.internal,
    hide: room.hide,
    on_hold: Boolean(room.onHold?.active),
    nps_value: room.nps?.value ?? null,
    csat_value: room.csat?.value ?? null,
    origin: room.origin,
    chat_id_tail: digits.length >= 8 ? digits.slice(-8) : null,
    author_name: room.author?.displayName ? foldText(room.author.displayName).slice(0, 200) : null,
    public_token: room.publicToken,
    last_message_at: room.lastMessageAt,
    closed_at: room.closedBy?.closedAt ?? null,
    open_key: openKey(room),
    data: withData ? toJson(room) : undefined,
    updated_at: room.lifeControl.updatedAt ?? room.lifeControl.createdAt,
    deleted_at: room.lifeControl.deletedAt,
  };
}

/**
 * The columns an update of `room` writes: all of them, or with `previous` only those that
 * changed (the record itself always). Knex leaves undefined values out, so do we.
 */
function columnsToWrite(room: Room, previous: Room | null): { columns: Record<string, unknown>; names: string[] } {
  const columns = columnsOf(room);
  if (previous) {
    const before = columnsOf(previous, false);
    for (const key of Object.keys(columns)) if (columns[key] === before[key] && key !== 'data') delete columns[key];
  }
  return { columns, names: Object.keys(columns).filter((key) => columns[key] !== undefined) };
}

/** Each column's SQL type (PostgreSQL), for the typed arrays of `unnest`; the same in every schema. */
const columnTypes = new Map<string, Promise<Map<string, string>>>();
function typesOf(trx: Knex.Transaction, table: string): Promise<Map<string, string>> {
  let types = columnTypes.get(table);
  if (!types) {
    types = trx
      .select('attname', trx.raw('format_type(atttypid, atttypmod) as type'))
      .from('pg_attribute')
      .where('attrelid', trx.raw('?::regclass', [table]))
      .andWhere('attnum', '>', 0)
      .andWhere('attisdropped', false)
      .then((rows: Array<{ attname: string; type: string }>) => new Map(rows.map((r) => [r.attname, r.type])));
    columnTypes.set(table, types);
    types.catch(() => columnTypes.delete(table));
  }
  return types;
}

/** A customer's message into its open room, held back by write-behind (PostgreSQL). */
interface QueuedMessage {
  tenantId: string;
  room: Room;
  previous: Room;
  message: ReturnType<typeof newMessageInsert>;
}

/** A queued message turned out to be stored already (a duplicate delivery in the group): the group runs again. */
class QueuedWriteConflict extends Error {}

/**
 * The queued messages of a group and their rooms (docs/ingest.md "Write-behind"), in one
 * statement: the messages in one multi-row insert, the rooms in one multi-row update per set of
 * changed columns (most groups: one), as its parts. A room written twice keeps its first
 * `previous` and its last state. Every message must be new and every room found, or the whole
 * group runs again with savepoints, where each message takes its own statement and a duplicate
 * fails alone.
 */
const writeQueuedMessages: FlushWrites<QueuedMessage> = async (trx, entries) => {
  const insert = entries[0]!.message;
  const rooms = new Map<string, { tenantId: string; room: Room; previous: Room }>();
  for (const { tenantId, room, previous } of entries) rooms.set(room.id, { tenantId, room, previous: rooms.get(room.id)?.previous ?? previous });
  const byShape = new Map<string, Array<{ tenantId: string; id: string; columns: Record<string, unknown> }>>();
  for (const { tenantId, room, previous } of rooms.values()) {
    const { columns, names } = columnsToWrite(room, previous);
    const key = names.join(',');
    const list = byShape.get(key);
    if (list) list.push({ tenantId, id: room.id, columns });
    else byShape.set(key, [{ tenantId, id: room.id, columns }]);
  }
  // One order of the shapes, so a set of shapes is one statement text whatever the entries' order.
  const shapes = [...byShape.keys()].sort();
  const messageTypes = await typesOf(trx, 'messages');
  const roomTypes = await typesOf(trx, 'rooms');
  const values: unknown[] = insert.names.map((_, i) => entries.map((e) => e.message.values[i]));
  for (const key of shapes) {
    const list = byShape.get(key)!;
    values.push(list.map((r) => r.tenantId), list.map((r) => r.id), ...key.split(',').map((name) => list.map((r) => r.columns[name])));
  }
  // The insert and every room update in one statement (one round trip on the tenant's serial
  // lane); each part counts its rows so a duplicate or a missing room fails the group.
  const { rows: [counts] } = await preparedSql<Record<string, number>>(trx, `messages.flushQueued:${insert.names.join(',')}|${shapes.join('|')}`, () => {
    let n = 0;
    const param = (type: string) => `$${++n}::${type}`;
    const parts = [
      `m as (insert into messages (${insert.names.map(quote).join(', ')}) select * from unnest(${insert.names.map((name) => param(arrayOf(messageTypes, 'messages', name))).join(', ')}) ` +
        `on conflict (${MESSAGE_CONFLICT_COLUMNS.map(quote).join(', ')}) do nothing returning 1)`,
    ];
    shapes.forEach((key, i) => {
      const names = key.split(',');
      parts.push(
        `u${i} as (update rooms as r set ${names.map((name) => `${quote(name)} = v.${quote(name)}`).join(', ')} ` +
          // The keys as their columns' own types: a text array against varchar columns would not use the primary key.
          `from unnest(${param(arrayOf(roomTypes, 'rooms', 'tenant_id'))}, ${param(arrayOf(roomTypes, 'rooms', 'id'))}${names.map((name) => `, ${param(arrayOf(roomTypes, 'rooms', name))}`).join('')}) as v(tenant_id, id${names.map((name) => `, ${quote(name)}`).join('')}) ` +
          'where r.tenant_id = v.tenant_id and r.id = v.id returning 1)',
      );
    });
    return `with ${parts.join(', ')} select (select count(*)::int from m) as m${shapes.map((_, i) => `, (select count(*)::int from u${i}) as u${i}`).join('')}`;
  }, values);
  if (counts!.m !== entries.length) throw new QueuedWriteConflict(`write-behind: ${entries.length - counts!.m!} of ${entries.length} queued messages were already stored; the group runs again with savepoints.`);
  shapes.forEach((key, i) => {
    const expected = byShape.get(key)!.length;
    if (counts![`u${i}`] !== expected) throw new QueuedWriteConflict(`write-behind: ${expected - counts![`u${i}`]!} of ${expected} queued rooms were not found; the group runs again with savepoints.`);
  });
};

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

function arrayOf(types: Map<string, string>, table: string, column: string): string {
  const type = types.get(column);
  if (!type) throw new Error(`write-behind: ${table}.${column} has no type in pg_attribute; run the migrations.`);
  return `${type}[]`;
}

/** The room_members rows a write of `room` over `previous` deletes and inserts. */
function membersChanged(room: Room, previous: Room): { removed: string[]; added: string[] } {
  const before = membersOf(previous);
  const after = membersOf(room);
  return { removed: [...before].filter((m) => !after.has(m)), added: [...after].filter((m) => !before.has(m)) };
}

function membersOf(room: Room): Set<string> {
  const set = new Set<string>();
  for (const [field, kind] of Object.entries(MEMBER_FIELDS)) {
    for (const item of (room[field as keyof typeof MEMBER_FIELDS] ?? []) as unknown[]) {
      const id = typeof item === 'string' ? item : (item as { id?: string } | null)?.id;
      if (id) set.add(`${kind}\u0001${id}`);
    }
  }
  return set;
}

/** Fills fields a record written by an older version may lack, then trusts the columns. */
export function roomFromRow(row: Record<string, unknown>): Room {
  const defaults = emptyRoomState() as Partial<Room>;
  defaults.channelIdTextit = null;
  defaults.origin = String(row.origin ?? row.channel);
  defaults.departmentId = null;
  const room = parseRecord<Room>(row.data, defaults);
  const createdAt = String(row.created_at);
  room.id = String(row.id);
  room.roomInc = Number(row.room_inc);
  room.chatId = String(row.chat_id);
  room.channel = String(row.channel) as Room['channel'];
  room.channelId ??= (row.channel_id as string | null) ?? null;
  room.destination = String(row.destination) as Room['destination'];
  room.active = Boolean(row.active);
  room.inAttend = Boolean(row.in_attend);
  room.internal = Boolean(row.internal);
  room.unreadCount = Number(row.unread_count ?? 0);
  room.publicToken = String(row.public_token);
  room.lastMessageAt = String(row.last_message_at ?? createdAt);
  room.author ??= { id: String(row.contact_id ?? ''), displayName: '', photoUrl: null, email: null, chatId: String(row.chat_id), phone: null, type: 'client' };
  room.lifeControl = { ...(room.lifeControl ?? {}), createdAt, updatedAt: String(row.updated_at), deletedAt: (row.deleted_at as string | null) ?? null };
  return room;
}

export function createRoomRepository(db: Db) {
  const pg = dialectOf(db) === 'pg';

  function live(q: Knex | Knex.Transaction, tenantId: string) {
    return q('rooms').where('rooms.tenant_id', tenantId).whereNull('rooms.deleted_at');
  }

  /** A tab/scope query: filter, order by last message date (ties by id ascending, as compareBy does). */
  function scoped(q: Knex | Knex.Transaction, tenantId: string, filter: Filter | null, order: 'asc' | 'desc', after?: RoomCursor | null) {
    const qb = live(q, tenantId);
    applyFilter(qb, filter, ROOM_FIELDS, 'rooms', tenantId);
    if (after) {
      const cmp = order === 'desc' ? '<' : '>';
      qb.where((w) => w.where('rooms.last_message_at', cmp, after.at).orWhere((e) => e.where('rooms.last_message_at', after.at).andWhere('rooms.id', '>', after.id)));
    }
    return qb;
  }

  return {
    /** Next chat number of the tenant (counters row 'roomInc'), inside the caller's transaction. */
    async nextRoomInc(trx: Knex.Transaction, tenantId: string): Promise<number> {
      // One upsert: the row lock it takes (PostgreSQL) orders concurrent rooms.
      const { rows: [row] } = await prepared<{ value: number | string }>(trx, 'rooms.nextRoomInc', [tenantId], (k, [t]) => k('counters')
        .insert({ tenant_id: t, name: 'roomInc', value: 1 })
        .onConflict(['tenant_id', 'name'])
        .merge({ value: k.raw('?? + 1', ['counters.value']) })
        .returning('value'));
      return Number(row!.value);
    },

    async insert(trx: Knex.Transaction, tenantId: string, room: Room): Promise<void> {
      // Compiled once per column set and member count (prepared.ts): every new chat runs both.
      // Keys set on columnsOf's fresh object: a spread after other keys copies property by property.
      const row = columnsOf(room);
      row.id = room.id;
      row.tenant_id = tenantId;
      row.created_at = room.lifeControl.createdAt;
      // Knex leaves undefined out (the column's default applies), so do we.
      const names = Object.keys(row).filter((key) => row[key] !== undefined);
      await prepared(trx, `rooms.insert:${names.join(',')}`, names.map((key) => row[key]), (k, values) =>
        k('rooms').insert(Object.fromEntries(names.map((key, i) => [key, values[i]]))));
      const members = [...membersOf(room)].map((m) => m.split('\u0001') as [string, string]);
      if (members.length) {
        await prepared(trx, `rooms.insertMembers:${members.length}`, [tenantId, room.id, ...members.flat()], (k, [t, id, ...pairs]) =>
          k('room_members').insert(members.map((_, i) => ({ tenant_id: t, room_id: id, kind: pairs[2 * i], member_id: pairs[2 * i + 1] }))));
      }
    },

    /**
     * Writes the record and syncs only the membership rows that changed since `previous`.
     * `changedOnly` (inbound path): `previous` is the row as read in this same transaction,
     * locked (findOpen: FOR UPDATE on PostgreSQL; SQLite has one writer), so only the columns
     * that differ from it are set and SQLite leaves the indexes of the others alone (a new
     * message changes 3–5 of the 26 columns, at most 2 of the 9 secondary indexes).
     */
    async save(trx: Knex.Transaction, tenantId: string, room: Room, previous: Room, options: { changedOnly?: boolean } = {}): Promise<void> {
      // Compiled once per set of columns (prepared.ts).
      const { columns, names } = columnsToWrite(room, options.changedOnly ? previous : null);
      await prepared(trx, `rooms.save:${names.join(',')}`, [tenantId, room.id, ...names.map((key) => columns[key])], (k, [t, id, ...values]) =>
        k('rooms').where({ tenant_id: t!, id: id! }).update(Object.fromEntries(names.map((key, i) => [key, values[i]]))));
      const { removed, added } = membersChanged(room, previous);
      for (const m of removed) {
        const [kind, memberId] = m.split('\u0001') as [string, string];
        await trx('room_members').where({ room_id: room.id, kind, member_id: memberId }).del();
      }
      if (added.length) {
        await trx('room_members').insert(
          added.map((m) => {
            const [kind, memberId] = m.split('\u0001') as [string, string];
            return { tenant_id: tenantId, room_id: room.id, kind, member_id: memberId };
          }),
        );
      }
    },

    /**
     * A new message into this existing room and the room's changed columns, on PostgreSQL in
     * ONE statement (the inbound path, docs/ingest.md "One statement a message"): the message
     * insert as a CTE, the room updated only if the message was new. True: both written;
     * false: a duplicate, nothing written. Null when it takes two statements instead (SQLite,
     * where a statement costs microseconds, or a room whose members change): the caller runs
     * `insertIfNew` and `save`.
     */
    async saveWithNewMessage(trx: Knex.Transaction, tenantId: string, room: Room, previous: Room, message: ReturnType<typeof newMessageInsert>): Promise<boolean | null> {
      if (!pg) return null;
      const { removed, added } = membersChanged(room, previous);
      if (removed.length || added.length) return null;
      // In a group commit's optimistic run: written with the group's other messages (write-behind.ts).
      if (writeBehind(trx, writeQueuedMessages, { tenantId, room, previous, message })) return true;
      const { columns, names } = columnsToWrite(room, previous);
      const count = message.values.length;
      const { rows } = await prepared(trx, `rooms.saveWithNewMessage:${names.join(',')}`, [tenantId, room.id, ...message.values, ...names.map((key) => columns[key])], (k, [t, id, ...rest]) =>
        k('rooms')
          .with('m', message.build(k, rest.slice(0, count)))
          .where({ tenant_id: t!, id: id! })
          .whereExists(k.select(k.raw('1')).from('m'))
          .update(Object.fromEntries(names.map((key, i) => [key, rest[count + i]])), ['id']));
      return rows.length > 0;
    },

    /** One room; `forUpdate` locks the row on PostgreSQL (SQLite has one writer anyway). */
    async findById(tenantId: string, id: string, q: Knex | Knex.Transaction = db, forUpdate = false): Promise<Room | null> {
      const qb = live(q, tenantId).andWhere('rooms.id', id);
      if (forUpdate && pg) qb.forUpdate();
      const row = await qb.first();
      return row ? roomFromRow(row) : null;
    },

    async findByIds(tenantId: string, ids: string[], q: Knex | Knex.Transaction = db): Promise<Room[]> {
      if (ids.length === 0) return [];
      const rows = await live(q, tenantId).whereIn('rooms.id', ids);
      return rows.map(roomFromRow);
    },

    /** The room a public chat link (`/chat/:publicToken`) opens, by its token. */
    async idByPublicToken(tenantId: string, publicToken: string): Promise<string | null> {
      // Internal chats are never public: their token opens nothing.
      const row = await live(db, tenantId).andWhere('rooms.public_token', publicToken).andWhere('rooms.internal', false).first('rooms.id');
      return row ? String(row.id) : null;
    },

    /** Rooms including soft-deleted ones (the hub needs deletions to remove them). */
    async loadForLive(tenantId: string, ids: string[]): Promise<Room[]> {
      if (ids.length === 0) return [];
      const rows = await db('rooms').where('tenant_id', tenantId).whereIn('id', ids);
      return rows.map(roomFromRow);
    },

    /** The open room of a chat on a channel, if any. */
    async findOpen(trx: Knex | Knex.Transaction, tenantId: string, channelId: string, chatId: string): Promise<Room | null> {
      // Every inbound message asks this inside its transaction (locked on PostgreSQL): compiled once (prepared.ts).
      const row = await preparedFirst(trx, 'rooms.findOpen', [tenantId, `${channelId}\u0001${chatId}`], (k, [t, open]) => {
        const qb = live(k, t as string).andWhere('rooms.open_key', open as string);
        if (pg && isTransaction(k)) qb.forUpdate();
        return qb.first();
      });
      return row ? roomFromRow(row) : null;
    },

    /**
     * `findOpen` for many chats of one channel in one statement (a group commit's read-ahead,
     * docs/ingest.md), locked on PostgreSQL in id order: two groups never lock each other's
     * rooms in opposite orders. Keyed by chat id; chats without an open room are absent.
     */
    async findOpenMany(trx: Knex.Transaction, tenantId: string, channelId: string, chatIds: string[]): Promise<Map<string, Room>> {
      const found = new Map<string, Room>();
      if (chatIds.length === 0) return found;
      const keys = chatIds.map((chatId) => `${channelId}\u0001${chatId}`);
      // One prepared statement whatever the count (docs/ingest.md "Read-ahead"); locked in id order on PostgreSQL.
      const { rows } = await prepared(trx, 'rooms.findOpenMany', [tenantId, listArg(trx, keys)], (k, [t, open]) => {
        const qb = whereOneOf(live(k, t!), k, 'rooms.open_key', open!).orderBy('rooms.id').select('rooms.*');
        return pg ? qb.forUpdate() : qb;
      });
      for (const row of rows) {
        const room = roomFromRow(row);
        if (room.chatId) found.set(room.chatId, room);
      }
      return found;
    },

    /**
     * Copies a contact's shown fields onto the `author` of its open rooms (the console's cards,
     * chat header and drawer read them there), through the same column mapping as every room
     * write; answers the rooms changed. Closed rooms keep the contact as it was when they closed.
     */
    async refreshAuthor(trx: Knex.Transaction, tenantId: string, contactId: string, fields: Pick<Room['author'], 'displayName' | 'email' | 'photoUrl' | 'phone' | 'blockedSending'>): Promise<string[]> {
      const rows: Record<string, unknown>[] = await live(trx, tenantId).andWhere({ 'rooms.contact_id': contactId, 'rooms.active': true }).select('rooms.*');
      const changed: string[] = [];
      for (const row of rows) {
        const previous = roomFromRow(row);
        const author = previous.author;
        if (author.displayName === fields.displayName && (author.email ?? null) === fields.email && (author.photoUrl ?? null) === fields.photoUrl && (author.phone ?? null) === fields.phone && Boolean(author.blockedSending) === Boolean(fields.blockedSending)) continue;
        const { columns } = columnsToWrite({ ...previous, author: { ...author, ...fields } }, previous);
        await trx('rooms').where({ tenant_id: tenantId, id: previous.id }).update(columns);
        changed.push(previous.id);
      }
      return changed;
    },

    /** The chat's most recently closed room on a channel (a survey may wait there); locked on PostgreSQL inside a transaction. */
    async lastClosed(q: Knex | Knex.Transaction, tenantId: string, channelId: string, chatId: string): Promise<Room | null> {
      // A customer's message with no open room asks this (a survey may wait): compiled once (prepared.ts).
      const row = await preparedFirst(q, 'rooms.lastClosed', [tenantId, channelId, chatId.slice(0, 320)], (k, [t, c, chat]) => {
        const qb = live(k, t as string).andWhere({ 'rooms.channel_id': c as string, 'rooms.chat_id': chat as string, 'rooms.active': false, 'rooms.internal': false })
          .orderBy([{ column: 'rooms.closed_at', order: 'desc' }, { column: 'rooms.id', order: 'desc' }]);
        if (pg && isTransaction(k)) qb.forUpdate();
        return qb.first();
      });
      return row ? roomFromRow(row) : null;
    },

    /** The open room of a mail thread on a channel, if any (locked on PostgreSQL). */
    async findOpenThread(trx: Knex.Transaction, tenantId: string, channelId: string, threadId: string): Promise<Room | null> {
      const qb = live(trx, tenantId).andWhere('rooms.open_key', threadKey(channelId, threadId));
      if (pg) qb.forUpdate();
      const row = await qb.first();
      return row ? roomFromRow(row) : null;
    },

    /** A page of rooms matching the filter (one statement). */
    async list(tenantId: string, filter: Filter | null, options: { order: 'asc' | 'desc'; limit: number; after?: RoomCursor | null }, q: Knex | Knex.Transaction = db): Promise<Room[]> {
      const rows = await scoped(q, tenantId, filter, options.order, options.after)
        .orderBy([{ column: 'rooms.last_message_at', order: options.order }, { column: 'rooms.id', order: 'asc' }])
        .limit(options.limit)
        .select('rooms.*');
      return rows.map(roomFromRow);
    },

    /** Rooms matching and how many of them are unread (one statement). */
    async count(tenantId: string, filter: Filter | null): Promise<{ total: number; unread: number }> {
      const row = await scoped(db, tenantId, filter, 'desc')
        .select(db.raw('count(*) as total'), db.raw('coalesce(sum(case when rooms.unread = ? then 1 else 0 end), 0) as unread', [true]))
        .first();
      return { total: Number(row?.total ?? 0), unread: Number(row?.unread ?? 0) };
    },

    /** Rooms matching, per queue id (queue chips on 'Todas Filas'); one statement. */
    async countByQueue(tenantId: string, filter: Filter | null): Promise<Record<string, number>> {
      const qb = scoped(db, tenantId, filter, 'desc')
        .join('room_members', function joinMembers() {
          this.on('room_members.room_id', '=', 'rooms.id').andOn('room_members.kind', '=', db.raw('?', ['queue']));
        })
        .groupBy('room_members.member_id')
        .select('room_members.member_id as queueId', db.raw('count(*) as n'));
      const rows = (await qb) as { queueId: string; n: number | string }[];
      return Object.fromEntries(rows.map((r) => [r.queueId, Number(r.n)]));
    },

    /** Sum of unread contact messages over the rooms matching (own chats for the title). */
    async unreadMessages(tenantId: string, filter: Filter | null): Promise<number> {
      const row = await scoped(db, tenantId, filter, 'desc').sum({ n: 'rooms.unread_count' }).first();
      return Number(row?.n ?? 0);
    },

    /** Rooms of a contact chat id, newest first (contact drawer history). */
    async byChatId(tenantId: string, chatId: string, channelId: string | null, filter: Filter | null, limit: number): Promise<Room[]> {
      const qb = scoped(db, tenantId, filter, 'desc').andWhere('rooms.chat_id', chatId);
      if (channelId) qb.andWhere('rooms.channel_id', channelId);
      const rows = await qb.orderBy([{ column: 'rooms.last_message_at', order: 'desc' }, { column: 'rooms.id', order: 'asc' }]).limit(limit).select('rooms.*');
      return rows.map(roomFromRow);
    },

    /**
     * Search (seed 001 §5): a numeric term matches the room number or the last 8 digits of
     * chatId; any other term the id, the chatId or (our addition) the contact's name.
     */
    async search(tenantId: string, filter: Filter | null, term: { numeric: string | null; text: string | null }, limit: number): Promise<Room[]> {
      const qb = scoped(db, tenantId, filter, 'desc');
      if (term.numeric) {
        const n = Number(term.numeric);
        const tail = term.numeric.slice(-8);
        qb.where((w) => {
          if (Number.isSafeInteger(n) && term.numeric!.length <= 9) w.orWhere('rooms.room_inc', n);
          if (tail.length === 8) w.orWhere('rooms.chat_id_tail', tail);
          w.orWhere('rooms.chat_id', term.numeric!);
        });
      } else if (term.text) {
        const text = term.text;
        qb.where((w) =>
          w
            .orWhere('rooms.id', text)
            .orWhere('rooms.chat_id', text)
            .orWhere('rooms.chat_id', text.toLowerCase())
            .orWhereRaw('rooms.author_name like ? escape ?', [`%${foldText(text).replace(/[\\%_]/g, (c) => `\\${c}`)}%`, '\\']),
        );
      }
      const rows = await qb.orderBy([{ column: 'rooms.last_message_at', order: 'desc' }, { column: 'rooms.id', order: 'asc' }]).limit(limit).select('rooms.*');
      return rows.map(roomFromRow);
    },
  };
}

export type RoomRepository = ReturnType<typeof createRoomRepository>;
