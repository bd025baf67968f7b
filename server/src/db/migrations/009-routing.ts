import type { Knex } from 'knex';

/**
 * Routing and the contact-center clock (docs/routing.md):
 * - deadlines: the durable scheduler's table, one row per pending time-based action, unique on
 *   (tenant, key) so scheduling the same action twice keeps one row; the firing transaction
 *   deletes (or moves) the row together with the action's own writes, so each fires once;
 * - routing_departments / routing_agents: one row per department and agent that claims lock
 *   (FOR UPDATE on PostgreSQL) so no two claims exceed an agent's cap; the agent row keeps when
 *   the agent last received a chat (ties of 'Menor carga' go to the longest idle);
 * - room_routing: per room, when it entered its queue (FIFO and waiting time), who it was
 *   assigned to, how and when, and the notices already sent (one out-of-hours message per
 *   closed period, one message per contingency);
 * - rooms get the index the router's "queued rooms of a department" reads.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('deadlines', (t) => {
    t.string('tenant_id', 64).notNullable().references('id').inTable('tenants');
    t.string('key', 200).notNullable();
    t.string('kind', 40).notNullable();
    t.string('subject_id', 200).nullable();
    t.string('due_at', 32).notNullable();
    t.jsonb('payload').notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.string('last_error', 400).nullable();
    t.string('created_at', 32).notNullable();
    t.primary(['tenant_id', 'key']);
    t.index(['due_at'], 'deadlines_due_index');
  });

  await knex.schema.createTable('routing_departments', (t) => {
    t.string('tenant_id', 64).notNullable();
    t.string('department_id', 64).notNullable();
    t.integer('assign_seq').notNullable().defaultTo(0);
    t.primary(['tenant_id', 'department_id']);
  });

  await knex.schema.createTable('routing_agents', (t) => {
    t.string('tenant_id', 64).notNullable();
    t.string('user_id', 64).notNullable();
    t.string('last_assigned_at', 32).nullable();
    t.primary(['tenant_id', 'user_id']);
  });

  await knex.schema.createTable('room_routing', (t) => {
    t.string('tenant_id', 64).notNullable();
    t.string('room_id', 64).notNullable();
    t.string('department_id', 64).nullable();
    t.string('queue_id', 200).nullable();
    t.string('queued_at', 32).notNullable();
    t.string('assigned_to', 64).nullable();
    // router | take | push
    t.string('assigned_by', 16).nullable();
    t.string('assigned_at', 32).nullable();
    t.integer('assign_seq').nullable();
    t.jsonb('notices').notNullable();
    t.primary(['tenant_id', 'room_id']);
    t.index(['tenant_id', 'assigned_to'], 'room_routing_assigned_index');
  });

  await knex.schema.alterTable('rooms', (t) => {
    t.index(['tenant_id', 'department_id', 'active', 'in_attend'], 'rooms_routing_queue_index');
  });
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only; restore a backup to go back.');
}
