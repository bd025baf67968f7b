import type { Knex } from 'knex';

/**
 * Records of the integrations admins define live (docs/integrations.md): one generic
 * document table for every integration, keyed by (tenant, collection, id). Ids may come
 * from the integration's idField (an ERP code such as A1_COD), so they are unique only within
 * a tenant's collection — unlike `documents`, whose id is global. title / active / owner are
 * indexed columns as in `documents` (migration 004); the rest is the JSON `data`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('integration_records', (t) => {
    t.string('tenant_id', 64).notNullable().references('id').inTable('tenants');
    t.string('collection', 64).notNullable();
    t.string('id', 200).notNullable();
    t.jsonb('data').notNullable();
    t.string('title', 400).nullable();
    t.boolean('active').nullable();
    t.string('owner_id', 64).nullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.string('deleted_at', 32).nullable();
    t.primary(['tenant_id', 'collection', 'id']);
    t.index(['tenant_id', 'collection', 'deleted_at', 'created_at'], 'integration_records_created_idx');
    t.index(['tenant_id', 'collection', 'deleted_at', 'title'], 'integration_records_title_idx');
  });
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only; restore a backup to go back.');
}
