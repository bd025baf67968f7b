import type { Knex } from 'knex';

/**
 * Chat data (docs/chat.md "Storage"):
 * - rooms gain the indexed columns the tabs, the search and the counters filter on;
 * - room_members replaces 001's room_agents/room_queues: one row per (room, kind, member) for
 *   agents, agentsHistory, queues, queuesHistory and tags, so "rooms of my queues" or "my
 *   history" is an index read whatever the room count;
 * - rooms.open_key is unique while a room is open: one open room per (channel, chat), even
 *   when two inbound messages race on PostgreSQL;
 * - messages gain the idempotency key of agent sends (unique per tenant), the internal-note
 *   flag (visitors never read notes) and the content of deleted messages kept aside;
 * - contact_identities maps a channel identity (web-chat visitor key hash, provider user id)
 *   to a contact.
 * Existing rooms (a demo seeded before this migration) are backfilled from their JSON.
 */

const MEMBER_KINDS: Record<string, string> = { agents: 'agent', agentsHistory: 'agentHistory', queues: 'queue', queuesHistory: 'queueHistory', tags: 'tag' };

function fold(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('rooms', (t) => {
    t.integer('unread_count').notNullable().defaultTo(0);
    t.boolean('on_hold').notNullable().defaultTo(false);
    t.boolean('hide').notNullable().defaultTo(false);
    t.integer('nps_value').nullable();
    t.integer('csat_value').nullable();
    t.string('origin', 40).nullable();
    t.string('chat_id_tail', 8).nullable();
    t.string('author_name', 200).nullable();
    t.string('open_key', 400).nullable();
  });
  await knex.schema.alterTable('rooms', (t) => {
    t.unique(['tenant_id', 'open_key'], { indexName: 'rooms_open_key_unique' });
    t.index(['tenant_id', 'active', 'last_message_at'], 'rooms_active_last_message_index');
    t.index(['tenant_id', 'chat_id_tail'], 'rooms_chat_id_tail_index');
    t.index(['tenant_id', 'room_inc'], 'rooms_room_inc_index');
  });

  await knex.schema.createTable('room_members', (t) => {
    t.string('tenant_id', 64).notNullable();
    t.string('room_id', 64).notNullable().references('id').inTable('rooms');
    // agent | agentHistory | queue | queueHistory | tag
    t.string('kind', 16).notNullable();
    t.string('member_id', 200).notNullable();
    t.primary(['room_id', 'kind', 'member_id']);
    t.index(['tenant_id', 'kind', 'member_id'], 'room_members_member_index');
  });

  await knex.schema.alterTable('messages', (t) => {
    t.string('idempotency_key', 200).nullable();
    t.boolean('annotation').notNullable().defaultTo(false);
    t.jsonb('deleted_data').nullable();
  });
  await knex.schema.alterTable('messages', (t) => {
    t.unique(['tenant_id', 'idempotency_key'], { indexName: 'messages_idempotency_unique' });
    t.index(['tenant_id', 'room_id', 'created_at', 'id'], 'messages_room_page_index');
  });

  await knex.schema.createTable('contact_identities', (t) => {
    t.string('tenant_id', 64).notNullable().references('id').inTable('tenants');
    t.string('channel_id', 64).notNullable();
    t.string('identity', 200).notNullable();
    t.string('contact_id', 64).notNullable();
    t.string('created_at', 32).notNullable();
    t.primary(['tenant_id', 'channel_id', 'identity']);
    t.index(['tenant_id', 'contact_id'], 'contact_identities_contact_index');
  });

  // Backfill rooms written before this migration (memberships and the new columns).
  const agentRows = await knex('room_agents').select('room_id', 'user_id');
  const queueRows = await knex('room_queues').select('room_id', 'queue_id');
  const rooms = await knex('rooms').select('id', 'tenant_id', 'data', 'chat_id', 'channel_id', 'active', 'internal');
  for (const row of rooms) {
    const data = (typeof row.data === 'string' ? JSON.parse(row.data) : row.data) as Record<string, unknown>;
    const members = new Map<string, { tenant_id: string; room_id: string; kind: string; member_id: string }>();
    for (const [field, kind] of Object.entries(MEMBER_KINDS)) {
      for (const item of (Array.isArray(data[field]) ? data[field] : []) as unknown[]) {
        const id = typeof item === 'string' ? item : (item as { id?: unknown } | null)?.id;
        if (typeof id === 'string' && id) members.set(`${kind}:${id}`, { tenant_id: row.tenant_id, room_id: row.id, kind, member_id: id });
      }
    }
    for (const a of agentRows.filter((r) => r.room_id === row.id)) members.set(`agent:${a.user_id}`, { tenant_id: row.tenant_id, room_id: row.id, kind: 'agent', member_id: a.user_id });
    for (const q of queueRows.filter((r) => r.room_id === row.id)) members.set(`queue:${q.queue_id}`, { tenant_id: row.tenant_id, room_id: row.id, kind: 'queue', member_id: q.queue_id });
    if (members.size) await knex('room_members').insert([...members.values()]);
    const author = (data.author ?? {}) as { displayName?: string };
    const digits = String(row.chat_id ?? '').replace(/\D/g, '');
    const active = Boolean(row.active);
    await knex('rooms').where({ id: row.id }).update({
      on_hold: Boolean((data.onHold as { active?: boolean } | null)?.active),
      nps_value: (data.nps as { value?: number } | null)?.value ?? null,
      csat_value: (data.csat as { value?: number } | null)?.value ?? null,
      origin: typeof data.origin === 'string' ? data.origin : null,
      chat_id_tail: digits.length >= 8 ? digits.slice(-8) : null,
      author_name: author.displayName ? fold(author.displayName).slice(0, 200) : null,
      open_key: active && !row.internal ? `${row.channel_id ?? ''}\u0001${row.chat_id}` : null,
    });
  }

  await knex.schema.dropTable('room_agents');
  await knex.schema.dropTable('room_queues');
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only; restore a backup to go back.');
}
