import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMetaGraphServer, type MetaGraphServer } from '@atendimento/integrations/providers/meta-graph-server';
import { spawnServer, type ServerProcess } from './server-process';
import { waitFor } from '../helpers/wait-for';

/**
 * Campaign queue under kill -9 (docs/campaigns.md): a real server process on a SQLite file
 * sends a campaign to the local Graph server and is killed with SIGKILL three times during the
 * run; each time it restarts on the same file. The Graph server counts what reaches it: every
 * row exactly once, no failure, and the campaign's counters equal the statuses the provider
 * posted. A burst of 130429 in the middle slows the campaign down without failing a message.
 * CAMPAIGN_KILL_MESSAGES=10000 gives the full figure; CI runs 600.
 */
const MESSAGES = Number(process.env.CAMPAIGN_KILL_MESSAGES ?? 600);
const RATE = Number(process.env.CAMPAIGN_KILL_RATE ?? (MESSAGES > 2000 ? 400 : 100));
const TENANT = 'demo';
const CHANNEL = 'wa-campanha';
const META = { appSecret: 'segredo-campanha', accessToken: 'token-campanha', phoneNumberId: 'PN-CAMP', businessAccountId: 'WABA-CAMP', verifyToken: 'verifica' };

const THROTTLED = 5;
let dataDir: string;
let sqliteFile: string;
let graph: MetaGraphServer;
let proc: ServerProcess | null = null;

const env = () => ({
  DATABASE_URL: '', DATA_DIR: dataDir, JWT_SECRET: 'kc'.repeat(20), DEMO_WHATSAPP: 'false', LOG_LEVEL: 'error',
  PROVIDER_TRUSTED_HOSTS: new URL(graph.baseUrl).host, CAMPAIGN_RATE_PER_SECOND: String(RATE), CAMPAIGN_LEASE_SECONDS: '15',
});

function query<T>(sql: string, ...args: unknown[]): T[] {
  const db = new Database(sqliteFile, { readonly: true });
  db.pragma('busy_timeout = 5000');
  try {
    return db.prepare(sql).all(...args) as T[];
  } finally {
    db.close();
  }
}

const states = () => Object.fromEntries(query<{ state: string; n: number }>('SELECT state, COUNT(*) AS n FROM campaign_messages WHERE tenant_id = ? GROUP BY state', TENANT).map((r) => [r.state, r.n]));
const done = () => states().done ?? 0;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'campaign-kill-'));
  sqliteFile = path.join(dataDir, 'atendimento.sqlite');
  // Meta redelivers webhooks the server did not take (it was dead): so does the local server.
  graph = await startMetaGraphServer({ ...META, statusDelayMs: 20, webhookRetries: 200, webhookRetryMs: 200, webhookRetryMaxMs: 1_000, templates: [] });
  // The first process migrates and seeds the demo tenant, then stops; the campaign is written to its file.
  const first = await spawnServer(env());
  graph.setWebhookUrl(`${first.baseUrl}/api/webhooks/whatsapp/${CHANNEL}`);
  await first.stop();
  const db = new Database(sqliteFile);
  db.pragma('busy_timeout = 5000');
  const iso = new Date().toISOString();
  const provider = { baseUrl: graph.baseUrl, apiVersion: 'v21.0', ...META };
  db.prepare('INSERT INTO channels (id, tenant_id, type, display_name, active, created_at, updated_at, deleted_at, data) VALUES (?, ?, ?, ?, 1, ?, ?, NULL, ?)').run(
    CHANNEL, TENANT, 'meta', 'WhatsApp Campanhas', iso, iso,
    JSON.stringify({ id: CHANNEL, type: 'meta', displayName: 'WhatsApp Campanhas', active: true, hide: false, color: '#25D366', menuOrder: 0, migrated: true, claims: {}, phoneNumber: '5511999990000', provider }),
  );
  db.prepare('INSERT INTO whatsapp_templates (tenant_id, channel_id, name, language, provider_id, status, category, origin, namespace, components, reason, synced_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, NULL, ?, ?)').run(
    TENANT, CHANNEL, 'aviso', 'pt_BR', '1', 'APPROVED', 'UTILITY', 'meta', JSON.stringify([{ type: 'BODY', text: 'Olá {{1}}' }]), iso, iso,
  );
  db.prepare('INSERT INTO campaigns (tenant_id, id, name, channel_id, paused, proccessed, proccessed_at, campaign, total, data, created_by, created_at, updated_at, deleted_at) VALUES (?, ?, ?, ?, 0, 0, NULL, 1, ?, ?, NULL, ?, ?, NULL)').run(
    TENANT, 'camp-kill', 'Campanha kill -9', CHANNEL, MESSAGES, JSON.stringify({ template: { name: 'aviso', language: 'pt_BR', params: ['nome'] }, weekEnd: true }), iso, iso,
  );
  const insert = db.prepare("INSERT INTO campaign_messages (tenant_id, campaign_id, row_no, id, channel_id, chat_id, display_name, params, text, state, next_at, attempts, status_rank, failed, interacted, clicked, updated_at) VALUES (?, 'camp-kill', ?, ?, ?, ?, ?, ?, ?, 'queued', ?, 0, 0, 0, 0, 0, ?)");
  db.transaction(() => {
    for (let i = 0; i < MESSAGES; i++) {
      const chatId = `5511${String(30_000_000 + i)}`;
      insert.run(TENANT, i + 2, `job-${i}`, CHANNEL, chatId, `Cliente ${i}`, JSON.stringify([`Cliente ${i}`]), `Olá Cliente ${i}`, iso, iso);
    }
  })();
  db.close();
}, 180_000);

afterAll(async () => {
  await proc?.stop();
  await graph?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('campaign queue: kill -9 three times during the run (SQLite)', () => {
  it(`${MESSAGES} messages reach the provider exactly once; counters equal the provider's statuses`, async () => {
    const kills: number[] = [];
    for (let k = 0; k < 3; k++) {
      proc = await spawnServer(env());
      graph.setWebhookUrl(`${proc.baseUrl}/api/webhooks/whatsapp/${CHANNEL}`);
      // Kill at roughly 20 %, 45 % and 70 % of the run, while sends are in flight.
      const target = Math.floor(MESSAGES * (0.2 + 0.25 * k));
      await waitFor(() => graph.sent.length >= target, `${target} sends before kill ${k + 1}`, 300_000);
      // A burst of 130429 answers. The local server refuses a number of requests, not a time
      // window as Meta does, so every probe after a back-off eats one refusal and the next pause
      // doubles (1 s, 2 s, 4 s…): 25 refusals could stall the run for minutes; 5 stay within 31 s.
      if (k === 1) graph.throttleNext(THROTTLED);
      kills.push(graph.sent.length);
      process.kill(proc.pid, 'SIGKILL');
      await waitFor(() => !alive(proc!.pid), 'the killed process to exit', 60_000);
      await proc.stop();
      proc = null;
    }
    proc = await spawnServer(env());
    graph.setWebhookUrl(`${proc.baseUrl}/api/webhooks/whatsapp/${CHANNEL}`);
    await waitFor(() => done() === MESSAGES, `all ${MESSAGES} done (now ${JSON.stringify(states())})`, 600_000);

    // Exactly once at the provider: every job key once, every number once.
    const keys = graph.sent.map((m) => String(m.body.biz_opaque_callback_data));
    const seen = new Map<string, number[]>();
    graph.sent.forEach((m, i) => seen.set(String(m.body.biz_opaque_callback_data), [...(seen.get(String(m.body.biz_opaque_callback_data)) ?? []), i]));
    const twice = [...seen].filter(([, at]) => at.length > 1).slice(0, 10).map(([key, at]) => `${key} at sends ${at.join(',')}`);
    const answers = new Map<string, number>();
    for (const r of graph.webhookResults) answers.set(`${r.status} ${r.body.slice(0, 80)}`, (answers.get(`${r.status} ${r.body.slice(0, 80)}`) ?? 0) + 1);
    const dupRows = query<Record<string, unknown>>(`SELECT id, state, attempts, provider_id, status_rank, claimed_at, sent_at FROM campaign_messages WHERE id IN (${twice.map(() => '?').join(',') || "''"})`, ...twice.map((d) => d.split(' ')[0]!.slice(4)));
    expect(graph.sent.length, `kills after sends ${kills.join(', ')}; sent twice: ${twice.join('; ')}; webhook answers ${JSON.stringify([...answers])}; rows ${JSON.stringify(dupRows)}`).toBe(MESSAGES);
    expect(new Set(keys).size).toBe(MESSAGES);
    expect(new Set(graph.sent.map((m) => m.to)).size).toBe(MESSAGES);
    expect(graph.throttled).toBeGreaterThanOrEqual(THROTTLED);
    expect(kills.every((n, i) => n > 0 && n < MESSAGES && (i === 0 || n >= kills[i - 1]!))).toBe(true);

    // The provider posts sent → delivered → read for each (redelivering what a dead process missed).
    await waitFor(() => query<{ n: number }>('SELECT COUNT(*) AS n FROM campaign_messages WHERE status_rank = 3').at(0)!.n === MESSAGES, 'every read receipt applied', 600_000);
    const [row] = query<{ failed: number; done: number; campaign: number }>("SELECT SUM(failed) AS failed, SUM(CASE WHEN state = 'done' THEN 1 ELSE 0 END) AS done, (SELECT proccessed FROM campaigns WHERE id = 'camp-kill') AS campaign FROM campaign_messages");
    expect(row).toEqual({ failed: 0, done: MESSAGES, campaign: 1 });
    // Ids recorded are the provider's: each job's id is the one the provider gave its send.
    const byKey = new Map(graph.sent.map((m) => [String(m.body.biz_opaque_callback_data), m.id]));
    const mismatched = query<{ id: string; provider_id: string }>('SELECT id, provider_id FROM campaign_messages').filter((r) => byKey.get(`cmp:${r.id}`) !== r.provider_id);
    expect(mismatched).toEqual([]);
  }, 1_200_000);
});
