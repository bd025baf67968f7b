import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from './server-process';
import { RULE_TEXT, seedPendingDeadlines, TENANT } from './deadline-fixture';

/**
 * The clock survives kill -9 (docs/routing.md "The clock"): 1,000 deadlines are pending (one
 * automatic rule per open chat, all due); a real server process on the SQLite file starts
 * firing them and is killed with SIGKILL mid-way, KILLS times; after the last restart every
 * deadline has fired exactly once: each chat got exactly one automatic message and one system
 * note, and no deadline row is left.
 */
const ROOMS = 1_000;
const KILLS = 3;

let dataDir: string;
let sqliteFile: string;
let proc: ServerProcess | null = null;
const env = () => ({ DATABASE_URL: '', DATA_DIR: dataDir, JWT_SECRET: 'r5'.repeat(20), DEMO_WHATSAPP: 'false', LOG_LEVEL: 'error', SCHEDULER_POLL_MS: '200' });

function read<T>(fn: (db: Database.Database) => T): T {
  const db = new Database(sqliteFile, { readonly: true });
  db.pragma('busy_timeout = 5000');
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

const pending = () => read((db) => (db.prepare('SELECT COUNT(*) AS n FROM deadlines WHERE tenant_id = ?').get(TENANT) as { n: number }).n);
const sentPerRoom = () =>
  read((db) => db.prepare("SELECT room_id AS room, COUNT(*) AS n FROM messages WHERE tenant_id = ? AND author_type = 'cron' GROUP BY room_id").all(TENANT) as { room: string; n: number }[]);
const notesPerRoom = () =>
  read((db) => db.prepare("SELECT room_id AS room, COUNT(*) AS n FROM messages WHERE tenant_id = ? AND author_type = 'system' AND annotation = 1 GROUP BY room_id").all(TENANT) as { room: string; n: number }[]);

async function until(check: () => boolean, what: string, timeoutMs = 120_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}\n${proc?.output() ?? ''}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

function waitExit(pid: number): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      try {
        process.kill(pid, 0);
        setTimeout(check, 10);
      } catch {
        resolve();
      }
    };
    check();
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'r5-kill-'));
  sqliteFile = path.join(dataDir, 'atendimento.sqlite');
  // Due over 45 s from now, so each process is killed with deadlines behind and ahead of it even
  // when three server starts take seconds each on a loaded box (over 15 s, all were overdue by
  // the third start and it fired them all before its kill).
  await seedPendingDeadlines({ DATABASE_URL: '', DATA_DIR: dataDir }, ROOMS, new Date(Date.now() + 1_000), 45_000);
}, 300_000);

afterAll(async () => {
  await proc?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('kill -9 with 1,000 pending deadlines (SQLite)', () => {
  it(`each fires exactly once across ${KILLS} kills and restarts`, async () => {
    expect(pending()).toBe(ROOMS);
    const killedAt: number[] = [];
    for (let kill = 0; kill < KILLS; kill++) {
      proc = await spawnServer(env());
      // Kill while firing: a little more done each round.
      const target = Math.min(ROOMS - 1, (ROOMS - pending()) + 30 + Math.floor(Math.random() * 120));
      await until(() => ROOMS - pending() >= target, `${target} deadlines fired`);
      process.kill(proc.pid, 'SIGKILL');
      await waitExit(proc.pid);
      killedAt.push(ROOMS - pending());
      await proc.stop();
      proc = null;
      // What was fired is fired once; nothing got lost or doubled by the kill.
      expect(sentPerRoom().filter((r) => r.n !== 1), `after kill ${kill}`).toEqual([]);
    }
    // The kills landed while deadlines were firing (some done, some pending).
    expect(killedAt[0]!).toBeGreaterThan(0);
    expect(killedAt.at(-1)!).toBeLessThan(ROOMS);

    proc = await spawnServer(env());
    await until(() => pending() === 0, 'every deadline fired');
    await proc.stop();
    proc = null;

    const sent = sentPerRoom();
    expect(sent).toHaveLength(ROOMS);
    expect(sent.filter((r) => r.n !== 1)).toEqual([]);
    const notes = notesPerRoom();
    expect(notes).toHaveLength(ROOMS);
    expect(notes.filter((r) => r.n !== 1)).toEqual([]);
    const texts = read((db) => db.prepare("SELECT DISTINCT json_extract(data, '$.text') AS text FROM messages WHERE tenant_id = ? AND author_type = 'cron'").all(TENANT) as { text: string }[]);
    expect(texts).toEqual([{ text: RULE_TEXT }]);
  }, 600_000);
});
