import type { Knex } from 'knex';

/**
 * Flow runs (docs/flows.md): the bot that ran a flow in a chat reports the run — started,
 * completed, the results it collected — and the dashboard's flow reports count them. The
 * bot's own run id is the key, so a retried or repeated report updates one row.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('flow_runs', (t) => {
    t.string('tenant_id', 64).notNullable();
    t.string('id', 100).notNullable();
    t.string('room_id', 64).notNullable();
    t.string('flow_id', 64).notNullable();
    t.boolean('completed').notNullable().defaultTo(false);
    /** { resultName: value } as the bot collected them (strings). */
    t.text('results').notNullable();
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
    t.primary(['tenant_id', 'id']);
    t.index(['tenant_id', 'room_id'], 'flow_runs_room_index');
  });
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only; restore a backup to go back.');
}
