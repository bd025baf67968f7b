import type { Knex } from 'knex';

/**
 * `messages_idempotency_unique` (tenant_id, idempotency_key) held an entry for every message,
 * although only agent sends carry a key (inbound, system and campaign messages store null):
 * every inbound message wrote a B-tree entry no lookup reads. It becomes a partial unique index
 * over the keyed rows only, on both databases (SQLite and PostgreSQL both use it for
 * `idempotency_key = ?`, which implies `is not null`). Uniqueness of a key is unchanged.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('messages', (t) => {
    t.dropUnique(['tenant_id', 'idempotency_key'], 'messages_idempotency_unique');
  });
  await knex.raw('create unique index messages_idempotency_unique on messages (tenant_id, idempotency_key) where idempotency_key is not null');
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only; restore a backup to go back.');
}
