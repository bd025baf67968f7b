import type { Knex } from 'knex';

/**
 * LGPD (docs/lgpd.md): the audit list of data-rights actions — who exported or erased which
 * contact, and what the retention clock anonymised, when. Never updated or deleted by the app.
 * rooms.anonymised_at marks chats already anonymised (by an erase or by retention), so the
 * retention sweep skips them and the dashboard can still count them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('lgpd_audit', (t) => {
    t.string('id', 64).primary();
    t.string('tenant_id', 64).notNullable().references('id').inTable('tenants');
    // export | erase | retention
    t.string('action', 20).notNullable();
    t.string('contact_id', 64).nullable();
    t.string('user_id', 64).nullable();
    t.jsonb('details').notNullable();
    t.string('created_at', 32).notNullable();
    t.index(['tenant_id', 'created_at'], 'lgpd_audit_tenant_index');
  });
  await knex.schema.alterTable('rooms', (t) => {
    t.string('anonymised_at', 32).nullable();
    t.string('media_deleted_at', 32).nullable();
  });
}

export async function down(): Promise<void> {
  throw new Error('014-lgpd: forward-only; restore a backup to go back.');
}
