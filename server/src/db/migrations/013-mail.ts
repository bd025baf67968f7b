import type { Knex } from 'knex';

/**
 * The e-mail channel (docs/email.md):
 * - mail_threads: every Message-ID a mailbox stored or sent, with its room. Unique on
 *   (tenant, channel, Message-ID): a mail IMAP delivers again is recognised, and a reply's
 *   In-Reply-To / References find the conversation it belongs to.
 * - mail_mailboxes: per mailbox folder, the UIDVALIDITY and the last UID stored, so a restart
 *   or a reconnect resumes where it stopped.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('mail_threads', (t) => {
    t.string('tenant_id', 64).notNullable().references('id').inTable('tenants');
    t.string('channel_id', 64).notNullable();
    t.string('message_key', 900).notNullable();
    t.string('room_id', 64).notNullable();
    t.string('message_id', 64).notNullable();
    t.string('created_at', 32).notNullable();
    t.primary(['tenant_id', 'channel_id', 'message_key']);
    t.index(['tenant_id', 'room_id'], 'mail_threads_room_index');
  });
  await knex.schema.createTable('mail_mailboxes', (t) => {
    t.string('tenant_id', 64).notNullable().references('id').inTable('tenants');
    t.string('channel_id', 64).notNullable();
    t.string('folder', 200).notNullable();
    t.string('uid_validity', 40).notNullable();
    t.bigInteger('last_uid').notNullable();
    t.string('updated_at', 32).notNullable();
    t.primary(['tenant_id', 'channel_id', 'folder']);
  });
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only; restore a backup to go back.');
}
