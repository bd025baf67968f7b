import type { Knex } from 'knex';

/**
 * Campaigns (docs/campaigns.md; seed 000 §3 "Campaign", "Campaign message"):
 * - campaigns: one row per campaign (the seed's `notifications` collection), the settings as
 *   columns the queue filters on (paused, proccessed, channel) and the rest in `data`;
 * - campaign_messages: one row per CSV row, which is also the send queue's job. The primary key
 *   (tenant, campaign, row) is the idempotency key: a row is sent at most once because its
 *   `state` moves queued → sending → done/failed in committed steps, and the provider's message
 *   id is written before `done`. `(state, next_at)` is the queue's scan; `provider_id` finds a
 *   row from a status webhook; `(tenant, channel, chat_id)` finds the campaign a reply answers;
 * - campaign_pacing: one row per channel holding the next free send slot, locked by each claim,
 *   so several processes share one rate (80 msg/s per number by default).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('campaigns', (t) => {
    t.string('tenant_id', 64).notNullable().references('id').inTable('tenants');
    t.string('id', 64).notNullable();
    t.string('name', 200).notNullable();
    t.string('channel_id', 64).notNullable();
    t.boolean('paused').notNullable().defaultTo(false);
    t.boolean('proccessed').notNullable().defaultTo(false);
    t.string('proccessed_at', 32).nullable();
    t.boolean('campaign').notNullable().defaultTo(true);
    t.integer('total').notNullable().defaultTo(0);
    t.jsonb('data').notNullable();
    t.string('created_by', 64).nullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.string('deleted_at', 32).nullable();
    t.primary(['tenant_id', 'id']);
    t.index(['tenant_id', 'deleted_at', 'created_at'], 'campaigns_list_idx');
    t.index(['proccessed', 'paused'], 'campaigns_active_idx');
  });

  await knex.schema.createTable('campaign_messages', (t) => {
    t.string('tenant_id', 64).notNullable();
    t.string('campaign_id', 64).notNullable();
    t.integer('row_no').notNullable();
    t.string('id', 64).notNullable();
    t.string('channel_id', 64).notNullable();
    t.string('chat_id', 40).notNullable();
    t.string('display_name', 200).nullable();
    t.jsonb('params').notNullable();
    t.text('text').notNullable();
    /** queued → sending → done | failed (the queue's state; `status` is the provider's). */
    t.string('state', 16).notNullable();
    t.string('next_at', 32).notNullable();
    t.string('claimed_at', 32).nullable();
    t.string('claimed_by', 64).nullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.string('provider_id', 200).nullable();
    /** 0 none, 1 sent, 2 delivered, 3 read; failed is `failed` (terminal, only before delivery). */
    t.integer('status_rank').notNullable().defaultTo(0);
    t.boolean('failed').notNullable().defaultTo(false);
    t.jsonb('status').nullable();
    t.boolean('interacted').notNullable().defaultTo(false);
    t.boolean('clicked').notNullable().defaultTo(false);
    t.text('answer').nullable();
    t.string('sent_at', 32).nullable();
    t.string('updated_at', 32).notNullable();
    t.primary(['tenant_id', 'campaign_id', 'row_no']);
    t.unique(['tenant_id', 'id'], { indexName: 'campaign_messages_id_uq' });
    t.index(['state', 'next_at'], 'campaign_messages_queue_idx');
    t.index(['tenant_id', 'campaign_id', 'state'], 'campaign_messages_campaign_idx');
    t.index(['provider_id'], 'campaign_messages_provider_idx');
    t.index(['tenant_id', 'channel_id', 'chat_id', 'sent_at'], 'campaign_messages_reply_idx');
  });

  await knex.schema.createTable('campaign_pacing', (t) => {
    t.string('tenant_id', 64).notNullable();
    t.string('channel_id', 64).notNullable();
    t.string('next_slot_at', 32).notNullable();
    /** Throttled by the provider (130429/131056) until then; the back-off doubles while it repeats. */
    t.string('throttled_until', 32).nullable();
    t.integer('throttle_level').notNullable().defaultTo(0);
    t.primary(['tenant_id', 'channel_id']);
  });
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only; restore a backup to go back.');
}
