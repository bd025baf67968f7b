import type { Knex } from 'knex';

/**
 * The dashboard's daily reports (docs/reports.md):
 * - report_daily: additive counters per tenant, local day, kind, department, key and sub-key
 *   (`n` occurrences, `total` a sum such as milliseconds or survey values). Averages are
 *   total / n at read time, so every kind can be kept incrementally and summed over any range.
 * - report_room_facts: what each room currently contributes to report_daily, so a change to
 *   the room retracts its old contribution and adds the new one in the same transaction.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('report_daily', (t) => {
    t.string('tenant_id', 64).notNullable();
    t.string('day', 10).notNullable();
    t.string('kind', 32).notNullable();
    t.string('dept', 64).notNullable();
    t.string('key', 200).notNullable();
    t.string('sub', 200).notNullable();
    t.bigInteger('n').notNullable();
    t.bigInteger('total').notNullable();
    t.primary(['tenant_id', 'day', 'kind', 'dept', 'key', 'sub']);
  });
  await knex.schema.createTable('report_room_facts', (t) => {
    t.string('tenant_id', 64).notNullable();
    t.string('room_id', 64).notNullable();
    t.string('day', 10).notNullable();
    t.text('contributions').notNullable();
    t.primary(['tenant_id', 'room_id']);
    t.index(['tenant_id', 'day'], 'report_room_facts_day_index');
  });
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only; restore a backup to go back.');
}
