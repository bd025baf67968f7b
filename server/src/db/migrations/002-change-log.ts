import type { Knex } from 'knex';

/**
 * The change log: one row per record changed by a committed write, numbered per tenant
 * without gaps (seq). The realtime hub delivers changes from it and clients resume from a
 * seq after a reconnect (docs/realtime.md).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('change_log', (t) => {
    t.string('tenant_id', 64).notNullable().references('id').inTable('tenants');
    t.bigInteger('seq').notNullable();
    t.string('collection', 120).notNullable();
    t.string('record_id', 200).notNullable();
    t.string('op', 10).notNullable();
    t.string('created_at', 32).notNullable();
    t.primary(['tenant_id', 'seq']);
    t.index(['tenant_id', 'created_at']);
  });
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only; restore a backup to go back.');
}
