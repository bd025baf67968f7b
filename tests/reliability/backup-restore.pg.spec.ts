import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from './server-process';
import { npmRun, postWebhook, textWebhook, type WebhookLane } from './signed-webhooks';

/**
 * Backups on PostgreSQL (docs/production.md "Backups"): a real server process on a fresh schema
 * of DATABASE_URL ingests signed WhatsApp webhooks (lanes paced to ~200/s together; the box
 * decides the real rate) while `npm run backup` runs (pg_dump of the schema plus the blobs);
 * then `npm run restore` into a FRESH target: a database created for this test (same schema
 * name, the one the dump holds) and a fresh DATA_DIR. On the restored target: every message
 * whose webhook was answered 200 before the backup started is there, with its room; every table
 * of the schema came back (untouched tables with the same row count, ingest tables between the
 * counts before and after the ingest); a server started on it serves the files byte for byte.
 */
const databaseUrl = process.env.DATABASE_URL!;
const schema = `t_${randomBytes(6).toString('hex')}`;
const restoreDb = `bk_${randomBytes(6).toString('hex')}`;
const restoreUrl = (() => {
  const url = new URL(databaseUrl);
  url.pathname = `/${restoreDb}`;
  return url.toString();
})();
const TENANT = 'demo';
const CHANNEL = 'wa-bk';
const APP_SECRET = 'segredo-backup';
/** The Meta channel this test loads (tests/reliability/signed-webhooks.ts). */
const LANE: WebhookLane = { channel: CHANNEL, appSecret: APP_SECRET, idPrefix: 'bkpg', waba: 'WABA-BK', phoneNumberId: 'PN-BK', displayPhone: '5511999990001', customerBase: '55118000000', customers: 5 };
const LANES = 8;
const PER_LANE_PER_SECOND = 25;
/** Tables the ingest only adds to, and tables whose rows come and go meanwhile (timers, change log). */
const APPEND_ONLY = new Set(['messages', 'rooms', 'contacts', 'contact_identities', 'room_members']);
const VOLATILE = new Set(['deadlines', 'change_log']);

let root: string;
let dataDir: string;
let backupDir: string;
let proc: ServerProcess | null = null;
let restored: ServerProcess | null = null;
let createdDb = false;
const baseEnv = { DATABASE_SCHEMA: schema, JWT_SECRET: 'bk'.repeat(20), SECRETS_KEY: randomBytes(32).toString('base64'), DEMO_WHATSAPP: 'false', LOG_LEVEL: 'error' };
const sourceEnv = () => ({ ...baseEnv, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, BACKUP_DIR: backupDir });
const targetEnv = (dir: string) => ({ ...baseEnv, DATABASE_URL: restoreUrl, DATA_DIR: dir, BACKUP_DIR: backupDir });

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Row count of every table of the schema (knex_migrations included). */
function tableCounts(url: string): Promise<Map<string, number>> {
  return withClient(url, async (c) => {
    const tables = await c.query<{ name: string }>("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE' ORDER BY 1", [schema]);
    const out = new Map<string, number>();
    for (const { name } of tables.rows) {
      const r = await c.query<{ n: string }>(`SELECT count(*) AS n FROM ${pg.escapeIdentifier(schema)}.${pg.escapeIdentifier(name)}`);
      out.set(name, Number(r.rows[0]!.n));
    }
    return out;
  });
}

const files: { name: string; bytes: Buffer }[] = [];

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'backup-restore-pg-'));
  dataDir = path.join(root, 'data');
  backupDir = path.join(root, 'backups');
  proc = await spawnServer(sourceEnv());
  const iso = new Date().toISOString();
  const provider = { baseUrl: 'http://127.0.0.1:9', apiVersion: 'v21.0', appSecret: APP_SECRET, verifyToken: 'verifica-bk', accessToken: 'token-bk', phoneNumberId: 'PN-BK', businessAccountId: 'WABA-BK' };
  await withClient(databaseUrl, (c) =>
    c.query(`INSERT INTO ${pg.escapeIdentifier(schema)}.channels (id, tenant_id, type, display_name, active, created_at, updated_at, deleted_at, data) VALUES ($1, $2, 'meta', 'WhatsApp Backup', true, $3, $3, NULL, $4)`, [
      CHANNEL, TENANT, iso,
      JSON.stringify({ id: CHANNEL, type: 'meta', displayName: 'WhatsApp Backup', active: true, hide: false, color: '#25D366', menuOrder: 0, migrated: true, claims: {}, phoneNumber: '5511999990001', provider }),
    ]),
  );
  // Stored files, as the blob store writes them (data/blobs/{tenant}/{random}.{ext}).
  mkdirSync(path.join(dataDir, 'blobs', TENANT), { recursive: true });
  for (let i = 0; i < 5; i++) {
    const name = `${randomBytes(18).toString('base64url')}.pdf`;
    const bytes = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(2048 + i)]);
    writeFileSync(path.join(dataDir, 'blobs', TENANT, name), bytes);
    files.push({ name, bytes });
  }
  // The fresh restore target: a database of its own, nothing in it.
  await withClient(databaseUrl, (c) => c.query(`CREATE DATABASE ${pg.escapeIdentifier(restoreDb)}`));
  createdDb = true;
}, 120_000);

afterAll(async () => {
  await proc?.stop();
  await restored?.stop();
  await withClient(databaseUrl, async (c) => {
    await c.query(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(schema)} CASCADE`);
    if (createdDb) await c.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(restoreDb)} WITH (FORCE)`);
  });
  if (root) rmSync(root, { recursive: true, force: true });
}, 60_000);

describe('backup while ingesting, restore into a fresh database (PostgreSQL)', () => {
  it('keeps every message acknowledged before the backup started, every table, and the files', async () => {
    const p = proc!;
    const countsBefore = await tableCounts(databaseUrl);
    const acked: { id: string; at: number }[] = [];
    const latencies: number[] = [];
    let n = 0;
    let stop = false;
    const ingestStart = Date.now();
    // Lanes paced to PER_LANE_PER_SECOND each: ~200 webhooks/s in all when the box keeps up.
    const lanes = Array.from({ length: LANES }, async () => {
      while (!stop) {
        const started = Date.now();
        const hook = textWebhook(LANE, n++);
        const status = await postWebhook(p, LANE, hook.raw);
        latencies.push(Date.now() - started);
        if (status === 200) acked.push({ id: hook.id, at: Date.now() });
        const wait = 1000 / PER_LANE_PER_SECOND - (Date.now() - started);
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
    });
    await new Promise((r) => setTimeout(r, 2_000));
    const backupStart = Date.now();
    const backup = await npmRun(['backup'], sourceEnv());
    const backupEnd = Date.now();
    const ackedDuringBackup = acked.filter((a) => a.at > backupStart).length;
    stop = true;
    await Promise.all(lanes);
    const ingestSeconds = (Date.now() - ingestStart) / 1000;
    const sorted = [...latencies].sort((a, b) => a - b);
    const pct = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
    console.log(
      `backup-restore.pg: ${acked.length} of ${n} webhooks acknowledged in ${ingestSeconds.toFixed(1)} s = ${(acked.length / ingestSeconds).toFixed(0)}/s ` +
        `(target ${LANES * PER_LANE_PER_SECOND}/s); ${ackedDuringBackup} acknowledged during the ${backupEnd - backupStart} ms backup; ` +
        `latency p50 ${pct(0.5)} ms, p95 ${pct(0.95)} ms (load average ${os.loadavg()[0]!.toFixed(1)})`,
    );
    expect(backup.code, backup.out).toBe(0);
    // The ingest really ran while the backup was taken.
    expect(ackedDuringBackup).toBeGreaterThan(0);
    const countsAfter = await tableCounts(databaseUrl);

    const made = readdirSync(backupDir).filter((d) => d.startsWith('backup-'));
    expect(made).toHaveLength(1);
    const folder = path.join(backupDir, made[0]!);
    const manifest = JSON.parse(readFileSync(path.join(folder, 'manifest.json'), 'utf8')) as { dialect: string; database: string; files: { path: string; size: number }[] };
    expect(manifest.dialect).toBe('pg');
    expect(manifest.database).toBe('database.pgdump');
    expect(manifest.files.map((f) => f.path)).toEqual(expect.arrayContaining(['database.pgdump', ...files.map((f) => `blobs/${TENANT}/${f.name}`)]));

    // Restore into the fresh database and a fresh DATA_DIR (the source server keeps running).
    const fresh = path.join(root, 'restored');
    const good = await npmRun(['restore', '--', folder], targetEnv(fresh));
    expect(good.code, good.out).toBe(0);

    // Every table of the schema came back.
    const countsRestored = await tableCounts(restoreUrl);
    expect([...countsRestored.keys()]).toEqual([...countsAfter.keys()]);
    for (const [table, after] of countsAfter) {
      const before = countsBefore.get(table) ?? 0;
      const got = countsRestored.get(table)!;
      // Untouched by the ingest: the same row count. The append-only ingest tables hold at least
      // what was there before the ingest and at most what is there now. Timers and the change
      // log come and go meanwhile; derived tables (reports, routing) are rebuilt from the rest.
      if (VOLATILE.has(table)) continue;
      if (before === after) expect(got, table).toBe(after);
      else if (APPEND_ONLY.has(table)) {
        expect(got, table).toBeGreaterThanOrEqual(before);
        expect(got, table).toBeLessThanOrEqual(after);
      }
    }

    // Every message acknowledged before the backup started is there, with its room.
    const before = acked.filter((a) => a.at < backupStart);
    expect(before.length).toBeGreaterThan(0);
    const beforeIds = before.map((a) => a.id);
    const q = (url: string) =>
      withClient(url, async (c) => {
        const msgs = await c.query<{ id: string; room_id: string }>(
          `SELECT external_id AS id, room_id FROM ${pg.escapeIdentifier(schema)}.messages WHERE tenant_id = $1 AND channel_id = $2 AND author_type = 'client' AND external_id = ANY($3)`,
          [TENANT, CHANNEL, beforeIds],
        );
        const rooms = await c.query<{ id: string }>(`SELECT id FROM ${pg.escapeIdentifier(schema)}.rooms WHERE tenant_id = $1 AND channel_id = $2`, [TENANT, CHANNEL]);
        return { msgs: msgs.rows, rooms: new Set(rooms.rows.map((r) => r.id)) };
      });
    const src = await q(databaseUrl);
    const dst = await q(restoreUrl);
    const present = new Set(dst.msgs.map((m) => m.id));
    expect(before.filter((a) => !present.has(a.id))).toEqual([]);
    expect(dst.msgs).toHaveLength(before.length);
    // Each of them added at least its client message to what was there before the ingest.
    expect(countsRestored.get('messages')).toBeGreaterThanOrEqual(countsBefore.get('messages')! + before.length);
    const roomsOfAcked = new Set(src.msgs.map((m) => m.room_id));
    expect(roomsOfAcked.size).toBeGreaterThan(0);
    expect([...roomsOfAcked].filter((id) => !dst.rooms.has(id))).toEqual([]);

    // The server starts on the restored database and dir; its files open with the same bytes.
    await proc!.stop();
    proc = null;
    restored = await spawnServer(targetEnv(fresh));
    for (const file of files) {
      const res = await fetch(`${restored.baseUrl}/api/files/${TENANT}/${file.name}`, { headers: { host: restored.host } });
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(file.bytes)).toBe(true);
    }
    // Through the restored server's API: the demo admin (restored, not re-seeded) logs in.
    const login = await fetch(`${restored.baseUrl}/api/auth/login`, {
      method: 'POST', headers: { host: restored.host, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@exemplo.com.br', password: 'admin123' }),
    });
    expect(login.status).toBe(200);
    expect((await q(restoreUrl)).msgs).toHaveLength(before.length);
  }, 240_000);
});
