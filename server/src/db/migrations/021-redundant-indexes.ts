import type { Knex } from 'knex';

/**
 * Indexes that another index already covers (the same leading columns), so every write paid
 * for a B-tree no query needed (docs/bench.md "Where a webhook's server time goes"):
 * - messages (tenant_id, room_id, created_at): `messages_room_page_index` is the same plus `id`;
 *   every inbound and outbound message wrote both.
 * - rooms_room_inc_index (tenant_id, room_inc): the unique index on the same columns serves
 *   every lookup by chat number; every new room wrote both.
 * - channels (tenant_id, deleted_at): `channels_type_idx` starts with the same columns.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('messages', (t) => {
    t.dropIndex(['tenant_id', 'room_id', 'created_at']);
  });
  await knex.schema.alterTable('rooms', (t) => {
    t.dropIndex(['tenant_id', 'room_inc'], 'rooms_room_inc_index');
  });
  await knex.schema.alterTable('channels', (t) => {
    t.dropIndex(['tenant_id', 'deleted_at']);
  });
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only; restore a backup to go back.');
}
