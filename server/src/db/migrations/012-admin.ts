import type { Knex } from 'knex';

/**
 * Administration (docs/tenancy.md "Settings"): `tenant_settings_audit` keeps every change of a
 * tenant's settings made from the settings screen — who, when, and the settings document
 * before and after — for the admins' audit list.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('tenant_settings_audit', (t) => {
    t.string('id', 64).primary();
    t.string('tenant_id', 64).notNullable().references('id').inTable('tenants');
    t.string('user_id', 64).notNullable();
    t.string('user_name', 200).notNullable();
    t.string('at', 32).notNullable();
    t.text('before').notNullable();
    t.text('after').notNullable();
    t.index(['tenant_id', 'at'], 'tenant_settings_audit_at_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('tenant_settings_audit');
}
