import type { Knex } from 'knex';

/**
 * Registers (docs/registers.md): registers without a table of their own live in `documents`
 * (one row per record, `collection` = register name). Lists sort and search on the record's
 * title and filter on active / owner, so those become indexed columns here; other fields are
 * read from the JSON column. Own tables get the indexes their lists sort on.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('documents', (t) => {
    t.string('title', 400).nullable();
    t.boolean('active').nullable();
    t.string('owner_id', 64).nullable();
    t.index(['tenant_id', 'collection', 'deleted_at', 'title'], 'documents_title_idx');
    t.index(['tenant_id', 'collection', 'owner_id'], 'documents_owner_idx');
  });
  await knex.schema.alterTable('users', (t) => {
    t.index(['tenant_id', 'deleted_at', 'display_name'], 'users_list_idx');
  });
  await knex.schema.alterTable('contacts', (t) => {
    t.index(['tenant_id', 'deleted_at', 'created_at'], 'contacts_created_idx');
  });
  await knex.schema.alterTable('fixed_messages', (t) => {
    t.index(['tenant_id', 'deleted_at', 'created_at'], 'fixed_messages_created_idx');
  });
  await knex.schema.alterTable('channels', (t) => {
    t.index(['tenant_id', 'deleted_at', 'type'], 'channels_type_idx');
  });
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only; restore a backup to go back.');
}
