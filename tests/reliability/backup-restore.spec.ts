import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from './server-process';
import { npmRun, postWebhook, textWebhook, type WebhookLane } from './signed-webhooks';

/**
 * Backups (docs/production.md "Backups"): `npm run backup` is run while a real server process
 * ingests signed WhatsApp webhooks (lanes paced to ~200/s together; the box decides the real
 * rate), then `npm run restore` into a fresh DATA_DIR: integrity_check ok, every message whose
 * webhook was answered 200 before the backup started is there, the files open through the
 * restored server, a running server's data dir and a damaged backup are refused.
 * These are the commands docs/production.md gives.
 */
const TENANT = 'demo';
const CHANNEL = 'wa-bk';
const APP_SECRET = 'segredo-backup';
/** The Meta channel this test loads (tests/reliability/signed-webhooks.ts). */
const LANE: WebhookLane = { channel: CHANNEL, appSecret: APP_SECRET, idPrefix: 'bk', waba: 'WABA-BK', phoneNumberId: 'PN-BK', displayPhone: '5511999990001', customerBase: '55118000000', customers: 5 };
const LANES = 8;
const PER_LANE_PER_SECOND = 25;

let root: string;
let dataDir: string;
let backupDir: string;
let proc: ServerProcess | null = null;
let restored: ServerProcess | null = null;
const env = (dir: string) => ({ DATABASE_URL: '', DATA_DIR: dir, BACKUP_DIR: backupDir, JWT_SECRET: 'bk'.repeat(20), DEMO_WHATSAPP: 'false', LOG_LEVEL: 'error' });

function clientMessageIds(file: string): Set<string> {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db.prepare("SELECT external_id AS id FROM messages WHERE tenant_id = ? AND channel_id = ? AND author_type = 'client'").all(TENANT, CHANNEL) as { id: string }[];
    return new Set(rows.map((r) => r.id));
  } finally {
    db.close();
  }
}

const files: { name: string; bytes: Buffer }[] = [];

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'backup-restore-'));
  dataDir = path.join(root, 'data');
  backupDir = path.join(root, 'backups');
  proc = await spawnServer(env(dataDir));
  const db = new Database(path.join(dataDir, 'atendimento.sqlite'));
  db.pragma('busy_timeout = 5000');
  const iso = new Date().toISOString();
  const provider = { baseUrl: 'http://127.0.0.1:9', apiVersion: 'v21.0', appSecret: APP_SECRET, verifyToken: 'verifica-bk', accessToken: 'token-bk', phoneNumberId: 'PN-BK', businessAccountId: 'WABA-BK' };
  db.prepare('INSERT INTO channels (id, tenant_id, type, display_name, active, created_at, updated_at, deleted_at, data) VALUES (?, ?, ?, ?, 1, ?, ?, NULL, ?)').run(
    CHANNEL, TENANT, 'meta', 'WhatsApp Backup', iso, iso,
    JSON.stringify({ id: CHANNEL, type: 'meta', displayName: 'WhatsApp Backup', active: true, hide: false, color: '#25D366', menuOrder: 0, migrated: true, claims: {}, phoneNumber: '5511999990001', provider }),
  );
  db.close();
  // Stored files, as the blob store writes them (data/blobs/{tenant}/{random}.{ext}).
  mkdirSync(path.join(dataDir, 'blobs', TENANT), { recursive: true });
  for (let i = 0; i < 5; i++) {
    const name = `${randomBytes(18).toString('base64url')}.pdf`;
    const bytes = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(2048 + i)]);
    writeFileSync(path.join(dataDir, 'blobs', TENANT, name), bytes);
    files.push({ name, bytes });
  }
}, 120_000);

afterAll(async () => {
  await proc?.stop();
  await restored?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('backup while ingesting, restore into a fresh DATA_DIR (SQLite)', () => {
  it('keeps every message acknowledged before the backup started, files open, damaged backups refused', async () => {
    const p = proc!;
    const acked: { id: string; at: number }[] = [];
    let n = 0;
    let stop = false;
    // Lanes paced to PER_LANE_PER_SECOND each: ~200 webhooks/s in all when the box keeps up.
    const lanes = Array.from({ length: LANES }, async () => {
      while (!stop) {
        const started = Date.now();
        const hook = textWebhook(LANE, n++);
        if ((await postWebhook(p, LANE, hook.raw)) === 200) acked.push({ id: hook.id, at: Date.now() });
        const wait = 1000 / PER_LANE_PER_SECOND - (Date.now() - started);
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
    });
    await new Promise((r) => setTimeout(r, 2_000));
    const backupStart = Date.now();
    const backup = await npmRun(['backup'], env(dataDir));
    const ackedDuringBackup = acked.filter((a) => a.at > backupStart).length;
    stop = true;
    await Promise.all(lanes);
    expect(backup.code, backup.out).toBe(0);
    // The ingest really ran while the backup was taken.
    expect(ackedDuringBackup).toBeGreaterThan(0);

    const made = readdirSync(backupDir).filter((d) => d.startsWith('backup-'));
    expect(made).toHaveLength(1);
    const folder = path.join(backupDir, made[0]!);
    const manifest = JSON.parse(readFileSync(path.join(folder, 'manifest.json'), 'utf8')) as { dialect: string; files: { path: string; sha256: string }[] };
    expect(manifest.dialect).toBe('sqlite');
    // JWT_SECRET comes from the environment here (no data/jwt-secret); the generated
    // secrets-key is kept: without it the channels' encrypted tokens could not be read.
    const listed = manifest.files.map((f) => f.path);
    expect(listed).toEqual(expect.arrayContaining(['database.sqlite', 'secrets-key', ...files.map((f) => `blobs/${TENANT}/${f.name}`)]));
    // One self-contained database file: no WAL or shared-memory file beside it.
    expect(listed.filter((p) => /-(wal|shm|journal)$/.test(p))).toEqual([]);

    // A server holds dataDir: restore refuses and touches nothing.
    const refused = await npmRun(['restore', '--', folder], env(dataDir));
    expect(refused.code).not.toBe(0);
    expect(refused.out).toMatch(/a server is using/);

    // A damaged copy (one byte of one file changed) is refused before anything is written.
    const damaged = path.join(root, 'damaged');
    cpSync(folder, damaged, { recursive: true });
    const victim = path.join(damaged, 'blobs', TENANT, files[0]!.name);
    const bytes = readFileSync(victim);
    bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 0xff;
    writeFileSync(victim, bytes);
    const fresh = path.join(root, 'restored');
    const bad = await npmRun(['restore', '--', damaged], env(fresh));
    expect(bad.code).not.toBe(0);
    expect(bad.out).toMatch(/checksum mismatch/);
    expect(existsSync(path.join(fresh, 'atendimento.sqlite'))).toBe(false);

    const good = await npmRun(['restore', '--', folder], env(fresh));
    expect(good.code, good.out).toBe(0);
    expect(readFileSync(path.join(fresh, 'secrets-key'), 'utf8')).toBe(readFileSync(path.join(dataDir, 'secrets-key'), 'utf8'));
    const restoredFile = path.join(fresh, 'atendimento.sqlite');
    const check = new Database(restoredFile, { readonly: true });
    expect((check.pragma('integrity_check') as { integrity_check: string }[])[0]!.integrity_check).toBe('ok');
    check.close();
    const present = clientMessageIds(restoredFile);
    const before = acked.filter((a) => a.at < backupStart);
    expect(before.length).toBeGreaterThan(0);
    const missing = before.filter((a) => !present.has(a.id));
    expect(missing).toEqual([]);

    // The server starts on the restored dir; its files open with the same bytes.
    restored = await spawnServer(env(fresh));
    for (const file of files) {
      const res = await fetch(`${restored.baseUrl}/api/files/${TENANT}/${file.name}`, { headers: { host: restored.host } });
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(file.bytes)).toBe(true);
    }
    expect(clientMessageIds(restoredFile).size).toBeGreaterThanOrEqual(before.length);
  }, 240_000);
});
