import type { Knex } from 'knex';

/**
 * Realtime and presence: the change-log pruner deletes by age across tenants, and the presence
 * sweeper looks for status records that just left the online window across tenants; both need
 * an index led by created_at (the 001/002 indexes are led by tenant_id).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('change_log', (t) => {
    t.index(['created_at'], 'change_log_created_at_index');
  });
  await knex.schema.alterTable('statuses', (t) => {
    t.index(['created_at'], 'statuses_created_at_index');
  });
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only; restore a backup to go back.');
}
