import type { Knex } from 'knex';

/**
 * The dashboard's export jobs (docs/exports.md): a job is a row, not an entry in one process's
 * memory, so its progress answers from any process and a job whose process died (kill -9, a
 * deploy) is taken over by another or by the restarted one when its lease runs out.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('export_jobs', (t) => {
    t.string('id', 64).primary();
    t.string('tenant_id', 64).notNullable();
    t.string('user_id', 64).notNullable();
    t.string('email', 320).notNullable();
    /** The validated request (period, file type, time zone, reference) and the resolved range. */
    t.jsonb('request').notNullable();
    /** The supervisor's departments; null: every department (an admin). */
    t.jsonb('departments').nullable();
    t.string('base_url', 500).notNullable();
    t.string('file_name', 200).notNullable();
    /** queued → running → sent | failed. */
    t.string('status', 16).notNullable();
    t.integer('rows').notNullable().defaultTo(0);
    t.bigInteger('bytes').notNullable().defaultTo(0);
    t.integer('attempts').notNullable().defaultTo(0);
    t.string('lease_owner', 64).nullable();
    t.string('lease_until', 30).nullable();
    /** A large export's link works until then; its file is removed after. */
    t.string('link_until', 30).nullable();
    t.string('created_at', 30).notNullable();
    t.string('finished_at', 30).nullable();
    t.index(['status', 'lease_until'], 'export_jobs_due_index');
    t.index(['tenant_id', 'user_id'], 'export_jobs_user_index');
  });
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only; restore a backup to go back.');
}
