import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from './server-process';
import { npmRun, postWebhook, textWebhook, type WebhookLane } from './signed-webhooks';
import { waitFor } from '../helpers/wait-for';

/**
 * R3: kill -9 during ingest. A real server process on a SQLite file receives signed
 * Meta webhooks concurrently and is killed with SIGKILL at a random moment; restarted on the
 * same file, every message whose webhook was answered 200 is there, `PRAGMA integrity_check`
 * is ok, and replaying every webhook sent so far adds no row: each message exactly once.
 * R3_ROUNDS=50 gives the full figure; 10 by default keeps CI fast.
 */
const ROUNDS = Number(process.env.R3_ROUNDS ?? 10);
const PER_ROUND = 40;
const TENANT = 'demo';
const CHANNEL = 'wa-r3';
const APP_SECRET = 'segredo-r3';
/** The Meta channel this test loads (tests/reliability/signed-webhooks.ts). */
const LANE: WebhookLane = { channel: CHANNEL, appSecret: APP_SECRET, idPrefix: 'r3', waba: 'WABA-R3', phoneNumberId: 'PN-R3', displayPhone: '5511999990000', customerBase: '55119000000', customers: 7 };

let dataDir: string;
let sqliteFile: string;
let proc: ServerProcess | null = null;
// Always SQLite, also inside `npm run test:pg` (which sets DATABASE_URL for the whole run).
const env = () => ({ DATABASE_URL: '', DATA_DIR: dataDir, JWT_SECRET: 'r3'.repeat(20), DEMO_WHATSAPP: 'false', LOG_LEVEL: 'error' });

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitExit(pid: number): Promise<void> {
  await waitFor(() => !alive(pid), `process ${pid} to exit`, 60_000);
}

/** The customers' messages by external id (the demo's default queue answers them automatically too). */
function rows(): Map<string, number> {
  const db = new Database(sqliteFile, { readonly: true });
  try {
    const out = new Map<string, number>();
    for (const r of db.prepare("SELECT external_id AS id, COUNT(*) AS n FROM messages WHERE tenant_id = ? AND channel_id = ? AND author_type = 'client' GROUP BY external_id").all(TENANT, CHANNEL) as { id: string; n: number }[]) out.set(r.id, r.n);
    return out;
  } finally {
    db.close();
  }
}

function integrity(): string {
  const db = new Database(sqliteFile);
  try {
    return (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check).join(',');
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'r3-kill-'));
  sqliteFile = path.join(dataDir, 'atendimento.sqlite');
  // The first process migrates and seeds the demo tenant; the channel is then added to its file.
  proc = await spawnServer(env());
  const db = new Database(sqliteFile);
  db.pragma('busy_timeout = 5000');
  const iso = new Date().toISOString();
  const provider = { baseUrl: 'http://127.0.0.1:9', apiVersion: 'v21.0', appSecret: APP_SECRET, verifyToken: 'verifica-r3', accessToken: 'token-r3', phoneNumberId: 'PN-R3', businessAccountId: 'WABA-R3' };
  db.prepare('INSERT INTO channels (id, tenant_id, type, display_name, active, created_at, updated_at, deleted_at, data) VALUES (?, ?, ?, ?, 1, ?, ?, NULL, ?)').run(
    CHANNEL, TENANT, 'meta', 'WhatsApp R3', iso, iso,
    JSON.stringify({ id: CHANNEL, type: 'meta', displayName: 'WhatsApp R3', active: true, hide: false, color: '#25D366', menuOrder: 0, migrated: true, claims: {}, phoneNumber: '5511999990000', provider }),
  );
  db.close();
}, 120_000);

afterAll(async () => {
  await proc?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('R3 kill -9 during ingest (SQLite)', () => {
  it(`${ROUNDS} rounds: acknowledged messages survive, integrity ok, replay adds nothing`, async () => {
    const sent: { id: string; raw: Buffer }[] = [];
    const acked = new Set<string>();
    let n = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const p = proc!;
      const batch = Array.from({ length: PER_ROUND }, () => textWebhook(LANE, n++));
      sent.push(...batch);
      // Concurrent senders, in 4 lanes, while the process is killed at a random moment.
      const lanes = [0, 1, 2, 3].map(async (lane) => {
        for (let i = lane; i < batch.length; i += 4) {
          const status = await postWebhook(p, LANE, batch[i]!.raw);
          if (status === 200) acked.add(batch[i]!.id);
        }
      });
      await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 150)));
      process.kill(p.pid, 'SIGKILL');
      await Promise.all(lanes);
      await waitExit(p.pid);
      await p.stop();

      expect(integrity(), `round ${round}`).toBe('ok');
      const present = rows();
      const missing = [...acked].filter((id) => !present.has(id));
      expect(missing, `round ${round}: acknowledged but lost`).toEqual([]);
      proc = await spawnServer(env());
    }

    // Replay everything ever sent to the last process: every message exactly once.
    const p = proc!;
    for (let i = 0; i < sent.length; i += 16) {
      const statuses = await Promise.all(sent.slice(i, i + 16).map((w) => postWebhook(p, LANE, w.raw)));
      expect(statuses.every((s) => s === 200), `replay statuses ${statuses.join(',')}\n${p.output()}`).toBe(true);
    }
    await p.stop();
    proc = null;
    expect(integrity()).toBe('ok');
    const present = rows();
    expect(present.size).toBe(sent.length);
    expect([...present.values()].filter((c) => c !== 1)).toEqual([]);
    expect(acked.size).toBeGreaterThan(0);
    // The kills landed while webhooks were in flight (some were never answered).
    expect(acked.size).toBeLessThan(sent.length);
  }, 600_000);
});
