import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@atendimento/server';
import { listBackups, restoreBackup, verifyBackup } from '@atendimento/server/services/backup/backup';
import { hasPgTools } from '@atendimento/server/db/backup-db';
import { startTestServer, type TestServer } from '../../helpers/test-server';

/**
 * Scheduled backups by the server's clock (BACKUP_EVERY_HOURS, BACKUP_KEEP), on SQLite and,
 * under `npm run test:pg`, through pg_dump / pg_restore (docs/production.md "Backups").
 */
const clock = new ManualClock(new Date('2026-03-02T03:00:00.000Z'));
let t: TestServer;
let backupDir: string;

beforeAll(async () => {
  backupDir = mkdtempSync(path.join(os.tmpdir(), 'backups-'));
  t = await startTestServer({ clock, env: { BACKUP_DIR: backupDir, BACKUP_EVERY_HOURS: '6', BACKUP_KEEP: '2' } });
});

afterAll(async () => {
  await t?.close();
  rmSync(backupDir, { recursive: true, force: true });
});

describe('scheduled backups', () => {
  it('takes one when due by the clock, none before, and keeps BACKUP_KEEP copies', async (ctx) => {
    if (t.server.config.databaseUrl && !(await hasPgTools())) ctx.skip();
    const backups = t.server.services.backups!;
    expect(await backups.check()).toBe(true);
    expect(listBackups(backupDir)).toHaveLength(1);
    clock.advance(5 * 3_600_000);
    expect(await backups.check()).toBe(false);
    clock.advance(1 * 3_600_000);
    expect(await backups.check()).toBe(true);
    clock.advance(6 * 3_600_000);
    expect(await backups.check()).toBe(true);
    expect(backups.lastError()).toBeNull();
    const kept = listBackups(backupDir);
    expect(kept.map((dir) => path.basename(dir))).toEqual(['backup-20260302T090000000Z', 'backup-20260302T150000000Z']);
    const manifest = await verifyBackup(kept[1]!);
    expect(manifest.dialect).toBe(t.server.config.databaseUrl ? 'pg' : 'sqlite');
    expect(manifest.files.find((f) => f.path === manifest.database)!.size).toBeGreaterThan(0);
  });

  it('restores the database it backed up (and refuses a damaged manifest entry)', async (ctx) => {
    if (t.server.config.databaseUrl && !(await hasPgTools())) ctx.skip();
    const folder = listBackups(backupDir).at(-1)!;
    // A restore target no server holds: for PostgreSQL the same schema (pg_restore --clean), for SQLite a fresh dir.
    const target = mkdtempSync(path.join(os.tmpdir(), 'restore-target-'));
    const config = { ...t.server.config, dataDir: target, sqliteFile: path.join(target, 'atendimento.sqlite') };
    try {
      // Changed after the backup: the restore brings the backed-up value back.
      await t.server.db('users').where({ tenant_id: 'acme', id: 'acme-suporte' }).update({ display_name: 'Alterado depois do backup' });
      if (config.databaseUrl) {
        // pg_restore recreates the dump's own schema: a different DATABASE_SCHEMA is refused, nothing touched.
        await expect(restoreBackup(folder, { ...config, databaseSchema: 'outro_schema' })).rejects.toThrow(/DATABASE_SCHEMA is "outro_schema"/);
        expect((await t.server.db('users').where({ tenant_id: 'acme', id: 'acme-suporte' }).first())?.display_name).toBe('Alterado depois do backup');
      }
      await restoreBackup(folder, config);
      if (config.databaseUrl) {
        const back = await t.server.db('users').where({ tenant_id: 'acme', id: 'acme-suporte' }).first();
        expect(back?.display_name).toBe('Suporte Acme');
      } else {
        const restored = new Database(config.sqliteFile, { readonly: true });
        const row = restored.prepare("SELECT display_name FROM users WHERE tenant_id = 'acme' AND id = 'acme-suporte'").get() as { display_name: string };
        restored.close();
        expect(row.display_name).toBe('Suporte Acme');
      }
      const manifestFile = path.join(folder, 'manifest.json');
      const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
      manifest.files[0].sha256 = '0'.repeat(64);
      writeFileSync(manifestFile, JSON.stringify(manifest));
      await expect(restoreBackup(folder, config)).rejects.toThrow(/checksum mismatch/);
    } finally {
      rmSync(target, { recursive: true, force: true });
    }
  });

  it('refuses to restore into a data dir a running server holds', async () => {
    const folder = listBackups(backupDir).at(-1)!;
    await expect(restoreBackup(folder, t.server.config)).rejects.toThrow(/a server is using/);
  });
});
