import type { Knex } from 'knex';

/**
 * The dashboard export (docs/reports.md) reads a tenant's rooms by creation date in keyset pages
 * (`created_at, id`). Without an index each page sorted every room of the tenant: a 100k-room
 * export took 130 s and its sorts grew the process by 140–250 MB (bench B13d). With it a page is
 * a range read of the index.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('rooms', (t) => {
    t.index(['tenant_id', 'created_at', 'id'], 'rooms_tenant_created_index');
  });
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only; restore a backup to go back.');
}
