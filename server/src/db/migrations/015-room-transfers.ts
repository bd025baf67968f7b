import type { Knex } from 'knex';

/**
 * Chat transfers (docs/transfers.md): one row per transfer target, written in the transfer's
 * own transaction, so the dashboard counts who passed which chat to whom, from
 * which department to which, when and why. A transfer to a queue has no `to_user_id` (routing
 * picks the agent afterwards and records that as an assignment, not a transfer).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('room_transfers', (t) => {
    t.string('tenant_id', 64).notNullable().references('id').inTable('tenants');
    t.string('id', 64).notNullable();
    t.string('room_id', 64).notNullable();
    t.string('from_user_id', 64).nullable();
    t.string('to_user_id', 64).nullable();
    t.string('from_department_id', 64).nullable();
    t.string('to_department_id', 64).nullable();
    t.string('justification', 200).nullable();
    t.text('observation').nullable();
    t.string('created_by', 64).notNullable();
    t.string('created_at', 32).notNullable();
    t.primary(['tenant_id', 'id']);
    t.index(['tenant_id', 'room_id'], 'room_transfers_room_index');
    t.index(['tenant_id', 'created_at'], 'room_transfers_created_index');
  });
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only; restore a backup to go back.');
}
