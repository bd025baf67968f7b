import type { Knex } from 'knex';

/**
 * API tokens (docs/api.md): long-lived bearer tokens an admin generates on the API screen for
 * external systems. Only the SHA-256 of the token is stored (the token is 256 random bits, so a
 * plain hash is enough — no salt or slow hash needed); `prefix` is its first characters, shown
 * to tell tokens apart. `name` is the seed's external id (one active token per name and tenant),
 * `urls`/`methods` the scope, `user_id` the admin the token acts as.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('api_tokens', (t) => {
    t.string('id', 64).primary();
    t.string('tenant_id', 64).notNullable().references('id').inTable('tenants');
    t.string('name', 120).notNullable();
    t.string('token_hash', 64).notNullable().unique();
    t.string('prefix', 16).notNullable();
    t.jsonb('urls').notNullable();
    t.jsonb('methods').notNullable();
    t.string('user_id', 64).notNullable();
    t.string('created_at', 32).notNullable();
    t.string('last_used_at', 32).nullable();
    t.string('revoked_at', 32).nullable();
    t.index(['tenant_id', 'revoked_at', 'created_at'], 'api_tokens_tenant_idx');
  });
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only; restore a backup to go back.');
}
