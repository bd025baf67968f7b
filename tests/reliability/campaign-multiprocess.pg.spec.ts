import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMetaGraphServer, type MetaGraphServer } from '@atendimento/integrations/providers/meta-graph-server';
import { spawnServer, type ServerProcess } from './server-process';
import { waitFor } from '../helpers/wait-for';

/**
 * Several server processes share one campaign queue (docs/campaigns.md "Sending"): three real
 * OS processes on one PostgreSQL schema send a campaign to the local Graph server at the same
 * time. The Graph server counts what reaches it: every row exactly once, and the rows were
 * claimed by more than one process (they shared the work, they did not take turns by luck).
 * CAMPAIGN_MULTI_MESSAGES raises the count; CI runs 900.
 */
const MESSAGES = Number(process.env.CAMPAIGN_MULTI_MESSAGES ?? 900);
const PROCESSES = 3;
const databaseUrl = process.env.DATABASE_URL!;
const schema = `t_${randomBytes(6).toString('hex')}`;
const TENANT = 'demo';
const CHANNEL = 'wa-multi';
const META = { appSecret: 'segredo-multi', accessToken: 'token-multi', phoneNumberId: 'PN-MULTI', businessAccountId: 'WABA-MULTI', verifyToken: 'verifica' };

let graph: MetaGraphServer;
let db: pg.Client;
const procs: ServerProcess[] = [];

const env = () => ({
  DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema, BUS: 'pg', JWT_SECRET: 'mp'.repeat(20), DEMO_WHATSAPP: 'false', LOG_LEVEL: 'warn',
  PROVIDER_TRUSTED_HOSTS: new URL(graph.baseUrl).host, CAMPAIGN_RATE_PER_SECOND: '300', CAMPAIGN_LEASE_SECONDS: '15',
});

beforeAll(async () => {
  graph = await startMetaGraphServer({ ...META, statusDelayMs: 20, webhookRetries: 50, webhookRetryMs: 200, webhookRetryMaxMs: 1_000, templates: [] });
  // The first process migrates and seeds the demo tenant, then stops; the campaign is written to its schema.
  const first = await spawnServer(env());
  await first.stop();
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  await db.query(`set search_path to ${pg.escapeIdentifier(schema)}`);
  const iso = new Date().toISOString();
  const provider = { baseUrl: graph.baseUrl, apiVersion: 'v21.0', ...META };
  await db.query('INSERT INTO channels (id, tenant_id, type, display_name, active, created_at, updated_at, deleted_at, data) VALUES ($1, $2, $3, $4, true, $5, $5, NULL, $6)', [
    CHANNEL, TENANT, 'meta', 'WhatsApp Multi', iso,
    JSON.stringify({ id: CHANNEL, type: 'meta', displayName: 'WhatsApp Multi', active: true, hide: false, color: '#25D366', menuOrder: 0, migrated: true, claims: {}, phoneNumber: '5511999990001', provider }),
  ]);
  await db.query('INSERT INTO whatsapp_templates (tenant_id, channel_id, name, language, provider_id, status, category, origin, namespace, components, reason, synced_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, NULL, $9, NULL, $10, $10)', [
    TENANT, CHANNEL, 'aviso', 'pt_BR', '1', 'APPROVED', 'UTILITY', 'meta', JSON.stringify([{ type: 'BODY', text: 'Olá {{1}}' }]), iso,
  ]);
  await db.query('INSERT INTO campaigns (tenant_id, id, name, channel_id, paused, proccessed, proccessed_at, campaign, total, data, created_by, created_at, updated_at, deleted_at) VALUES ($1, $2, $3, $4, false, false, NULL, true, $5, $6, NULL, $7, $7, NULL)', [
    TENANT, 'camp-multi', 'Campanha de vários processos', CHANNEL, MESSAGES, JSON.stringify({ template: { name: 'aviso', language: 'pt_BR', params: ['nome'] }, weekEnd: true }), iso,
  ]);
  const rows = Array.from({ length: MESSAGES }, (_, i) => [TENANT, i + 2, `job-${i}`, CHANNEL, `5511${String(40_000_000 + i)}`, `Cliente ${i}`, JSON.stringify([`Cliente ${i}`]), `Olá Cliente ${i}`, iso]);
  await db.query(
    `INSERT INTO campaign_messages (tenant_id, campaign_id, row_no, id, channel_id, chat_id, display_name, params, text, state, next_at, attempts, status_rank, failed, interacted, clicked, updated_at)
     SELECT t, 'camp-multi', r, id, c, chat, name, params::jsonb, txt, 'queued', at, 0, 0, false, false, false, at
     FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[]) AS x(t, r, id, c, chat, name, params, txt, at)`,
    [0, 1, 2, 3, 4, 5, 6, 7, 8].map((k) => rows.map((row) => row[k])),
  );
}, 180_000);

afterAll(async () => {
  await Promise.all(procs.map((p) => p.stop()));
  await graph?.close();
  if (db) {
    await db.query(`drop schema if exists ${pg.escapeIdentifier(schema)} cascade`);
    await db.end();
  }
}, 60_000);

describe('campaign queue: three processes on one PostgreSQL database', () => {
  it(`${MESSAGES} messages reach the provider exactly once, claimed by more than one process`, async () => {
    procs.push(...(await Promise.all(Array.from({ length: PROCESSES }, () => spawnServer(env())))));
    graph.setWebhookUrl(`${procs[0]!.baseUrl}/api/webhooks/whatsapp/${CHANNEL}`);
    const done = async () => Number((await db.query("SELECT COUNT(*) AS n FROM campaign_messages WHERE state = 'done'")).rows[0].n);
    await waitFor(async () => (await done()) === MESSAGES, `all ${MESSAGES} done`, 300_000);
    // Sends still in flight after 'done' would be duplicates: give them time to show.
    await new Promise((r) => setTimeout(r, 1_000));

    const keys = graph.sent.map((m) => String(m.body.biz_opaque_callback_data));
    const twice = keys.filter((k, i) => keys.indexOf(k) !== i);
    // On a failure, the processes' warnings and errors say which path sent again (lease, answer write).
    const why = () => `${twice.length} sent twice (${twice.slice(0, 5).join(', ')}); process output:\n${procs.map((p) => p.output().split('\n').filter((l) => /warn|error|"level":[45]/i.test(l)).slice(-20).join('\n')).join('\n---\n')}`;
    expect(graph.sent.length, why()).toBe(MESSAGES);
    expect(new Set(keys).size).toBe(MESSAGES);
    expect(new Set(graph.sent.map((m) => m.to)).size).toBe(MESSAGES);
    const workers = (await db.query('SELECT claimed_by, COUNT(*) AS n FROM campaign_messages GROUP BY claimed_by')).rows as { claimed_by: string; n: string }[];
    expect(workers.every((w) => w.claimed_by), JSON.stringify(workers)).toBe(true);
    expect(workers.length, JSON.stringify(workers)).toBeGreaterThanOrEqual(2);
    // Each job's recorded id is the one the provider gave its send.
    const byKey = new Map(graph.sent.map((m) => [String(m.body.biz_opaque_callback_data), m.id]));
    const recorded = (await db.query('SELECT id, provider_id FROM campaign_messages')).rows as { id: string; provider_id: string }[];
    expect(recorded.filter((r) => byKey.get(`cmp:${r.id}`) !== r.provider_id)).toEqual([]);
    await waitFor(async () => Boolean((await db.query("SELECT proccessed FROM campaigns WHERE id = 'camp-multi'")).rows[0].proccessed), 'the campaign marked processed', 60_000);
  }, 600_000);
});
