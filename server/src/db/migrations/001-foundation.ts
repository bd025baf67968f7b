import type { Knex } from 'knex';

/**
 * Foundation schema. Timestamps are ISO-8601 UTC strings (Date#toISOString) on both
 * dialects so ordering and comparisons behave identically on SQLite and PostgreSQL
 * (docs/database.md). Every table but tenants carries tenant_id.
 */

/** Columns every register table shares: id, tenant, the full record as JSON, life control. */
function registerColumns(t: Knex.CreateTableBuilder): void {
  t.string('id', 64).primary();
  t.string('tenant_id', 64).notNullable().references('id').inTable('tenants');
  t.jsonb('data').notNullable();
  t.string('created_at', 32).notNullable();
  t.string('updated_at', 32).notNullable();
  t.string('deleted_at', 32).nullable();
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('tenants', (t) => {
    t.string('id', 64).primary();
    t.string('name', 200).notNullable();
    t.boolean('active').notNullable().defaultTo(true);
    t.jsonb('app_config').notNullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
  });

  await knex.schema.createTable('tenant_hosts', (t) => {
    t.string('host', 255).primary();
    t.string('tenant_id', 64).notNullable().references('id').inTable('tenants');
  });

  await knex.schema.createTable('users', (t) => {
    registerColumns(t);
    t.string('email', 320).notNullable();
    t.string('display_name', 200).notNullable();
    t.string('type', 20).notNullable().defaultTo('agent');
    t.string('password_hash', 255).nullable();
    t.boolean('active').notNullable().defaultTo(true);
    t.boolean('email_verified').notNullable().defaultTo(false);
    t.unique(['tenant_id', 'email']);
    t.index(['tenant_id', 'type', 'deleted_at']);
  });

  await knex.schema.createTable('sessions', (t) => {
    t.string('id', 64).primary();
    t.string('tenant_id', 64).notNullable().references('id').inTable('tenants');
    t.string('user_id', 64).notNullable().references('id').inTable('users');
    t.string('created_at', 32).notNullable();
    t.string('last_used_at', 32).notNullable();
    t.string('revoked_at', 32).nullable();
    t.string('revoked_reason', 40).nullable();
    t.string('user_agent', 400).nullable();
    t.string('ip', 64).nullable();
    t.index(['tenant_id', 'user_id']);
  });

  await knex.schema.createTable('refresh_tokens', (t) => {
    t.string('id', 64).primary();
    t.string('tenant_id', 64).notNullable();
    t.string('session_id', 64).notNullable().references('id').inTable('sessions');
    t.string('token_hash', 64).notNullable().unique();
    t.string('expires_at', 32).notNullable();
    t.string('used_at', 32).nullable();
    t.string('created_at', 32).notNullable();
    t.index(['session_id']);
  });

  await knex.schema.createTable('access_links', (t) => {
    t.string('id', 64).primary();
    t.string('tenant_id', 64).notNullable().references('id').inTable('tenants');
    t.string('user_id', 64).notNullable().references('id').inTable('users');
    t.string('email', 320).notNullable();
    t.string('purpose', 20).notNullable();
    t.string('token_hash', 64).notNullable().unique();
    t.string('expires_at', 32).notNullable();
    t.string('used_at', 32).nullable();
    t.string('created_at', 32).notNullable();
  });

  await knex.schema.createTable('departments', (t) => {
    registerColumns(t);
    t.string('display_name', 200).notNullable();
    t.boolean('active').notNullable().defaultTo(true);
    t.index(['tenant_id', 'deleted_at', 'display_name']);
  });

  // Membership as rows, so "rooms of my departments" and "am I a supervisor" are indexed joins.
  await knex.schema.createTable('department_members', (t) => {
    t.string('tenant_id', 64).notNullable();
    t.string('department_id', 64).notNullable().references('id').inTable('departments');
    t.string('user_id', 64).notNullable().references('id').inTable('users');
    t.string('role', 20).notNullable();
    t.primary(['department_id', 'user_id', 'role']);
    t.index(['tenant_id', 'user_id', 'role']);
  });

  await knex.schema.createTable('queues', (t) => {
    registerColumns(t);
    t.string('name', 200).notNullable();
    t.string('department_id', 64).nullable();
    t.boolean('active').notNullable().defaultTo(true);
    t.index(['tenant_id', 'deleted_at', 'name']);
  });

  await knex.schema.createTable('tags', (t) => {
    registerColumns(t);
    t.string('name', 200).notNullable();
    t.boolean('active').notNullable().defaultTo(true);
    t.index(['tenant_id', 'deleted_at', 'name']);
  });

  await knex.schema.createTable('contacts', (t) => {
    registerColumns(t);
    t.string('display_name', 200).notNullable();
    t.string('phone', 40).nullable();
    t.string('email', 320).nullable();
    t.boolean('active').notNullable().defaultTo(true);
    t.index(['tenant_id', 'deleted_at', 'display_name']);
    t.index(['tenant_id', 'phone']);
  });

  await knex.schema.createTable('channels', (t) => {
    registerColumns(t);
    t.string('type', 40).notNullable();
    t.string('display_name', 200).notNullable();
    t.boolean('active').notNullable().defaultTo(true);
    t.index(['tenant_id', 'deleted_at']);
  });

  await knex.schema.createTable('fixed_messages', (t) => {
    registerColumns(t);
    t.string('owner_id', 64).nullable();
    t.boolean('active').notNullable().defaultTo(true);
    t.index(['tenant_id', 'deleted_at', 'owner_id']);
  });

  await knex.schema.createTable('rooms', (t) => {
    registerColumns(t);
    t.integer('room_inc').notNullable();
    t.string('chat_id', 320).notNullable();
    t.string('channel', 40).notNullable();
    t.string('channel_id', 64).nullable();
    t.string('contact_id', 64).nullable();
    t.string('department_id', 64).nullable();
    t.string('destination', 40).notNullable().defaultTo('vueJs');
    t.boolean('active').notNullable().defaultTo(true);
    t.boolean('in_attend').notNullable().defaultTo(false);
    t.boolean('unread').notNullable().defaultTo(false);
    t.boolean('internal').notNullable().defaultTo(false);
    t.string('public_token', 64).notNullable().unique();
    t.string('last_message_at', 32).nullable();
    t.string('closed_at', 32).nullable();
    t.unique(['tenant_id', 'room_inc']);
    t.index(['tenant_id', 'active', 'in_attend', 'last_message_at']);
    t.index(['tenant_id', 'chat_id']);
    t.index(['tenant_id', 'contact_id']);
  });

  await knex.schema.createTable('room_agents', (t) => {
    t.string('tenant_id', 64).notNullable();
    t.string('room_id', 64).notNullable().references('id').inTable('rooms');
    t.string('user_id', 64).notNullable();
    t.primary(['room_id', 'user_id']);
    t.index(['tenant_id', 'user_id']);
  });

  await knex.schema.createTable('room_queues', (t) => {
    t.string('tenant_id', 64).notNullable();
    t.string('room_id', 64).notNullable().references('id').inTable('rooms');
    t.string('queue_id', 64).notNullable();
    t.primary(['room_id', 'queue_id']);
    t.index(['tenant_id', 'queue_id']);
  });

  await knex.schema.createTable('messages', (t) => {
    t.string('id', 64).primary();
    t.string('tenant_id', 64).notNullable().references('id').inTable('tenants');
    t.string('room_id', 64).notNullable().references('id').inTable('rooms');
    t.string('channel_id', 64).nullable();
    // Provider message id: inbound deliveries are idempotent on (tenant, channel, external id).
    t.string('external_id', 200).nullable();
    t.string('author_type', 20).notNullable();
    t.string('author_id', 64).nullable();
    t.string('type', 40).notNullable();
    t.string('status', 20).nullable();
    t.jsonb('data').notNullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.unique(['tenant_id', 'channel_id', 'external_id']);
    t.index(['tenant_id', 'room_id', 'created_at']);
  });

  await knex.schema.createTable('statuses', (t) => {
    t.string('id', 64).primary();
    t.string('tenant_id', 64).notNullable().references('id').inTable('tenants');
    t.string('user_id', 64).notNullable();
    t.string('status', 40).notNullable();
    t.string('created_at', 32).notNullable();
    t.index(['tenant_id', 'user_id', 'created_at']);
    t.index(['tenant_id', 'created_at']);
  });

  await knex.schema.createTable('counters', (t) => {
    t.string('tenant_id', 64).notNullable();
    t.string('name', 64).notNullable();
    t.integer('value').notNullable();
    t.primary(['tenant_id', 'name']);
  });

  // Records of registers defined only by a schema (integration collections).
  await knex.schema.createTable('documents', (t) => {
    registerColumns(t);
    t.string('collection', 120).notNullable();
    t.index(['tenant_id', 'collection', 'deleted_at', 'created_at']);
  });
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only; restore a backup to go back.');
}
