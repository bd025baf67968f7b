import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Clock } from '../../clock';
import type { Logger } from '../../logger';
import { MANIFEST, createBackup, listBackups, pruneBackups, type BackupConfig, type Manifest } from './backup';

export interface ScheduledBackupOptions {
  config: BackupConfig;
  clock: Clock;
  logger: Logger;
  everyHours: number;
  keep: number;
  /** How often the clock is looked at (default one minute). */
  checkEveryMs?: number;
}

/** When the newest complete backup in `dir` was taken, or null. */
export function newestBackupAt(dir: string): Date | null {
  const all = listBackups(dir);
  const last = all[all.length - 1];
  if (!last) return null;
  try {
    return new Date((JSON.parse(readFileSync(path.join(last, MANIFEST), 'utf8')) as Manifest).createdAt);
  } catch {
    return null;
  }
}

/**
 * Scheduled backups (BACKUP_EVERY_HOURS, BACKUP_KEEP): the server's clock decides when the
 * newest backup is old enough, so a restart never skips or doubles one (the folder itself is
 * the memory, not a timer), and a test moves a manual clock instead of waiting hours.
 */
export function startScheduledBackups(options: ScheduledBackupOptions) {
  const { config, clock, logger, everyHours, keep } = options;
  let running: Promise<void> | null = null;
  let timer: ReturnType<typeof setInterval> | null = null;
  let lastError: string | null = null;

  async function check(): Promise<boolean> {
    if (running) {
      await running;
      return false;
    }
    const newest = newestBackupAt(config.backupDir);
    if (newest && clock.now().getTime() - newest.getTime() < everyHours * 3_600_000) return false;
    running = (async () => {
      try {
        const { dir } = await createBackup(config, clock);
        const removed = await pruneBackups(config.backupDir, keep);
        lastError = null;
        logger.info({ dir, removed: removed.length }, 'backup.done');
      } catch (err) {
        lastError = err instanceof Error ? err.message : String(err);
        logger.error({ err }, 'backup.failed');
      }
    })().finally(() => {
      running = null;
    });
    await running;
    return true;
  }

  timer = setInterval(() => void check(), options.checkEveryMs ?? 60_000);
  timer.unref?.();
  return {
    /** Takes a backup now if the newest one is older than the interval; answers whether it tried. */
    check,
    lastError: () => lastError,
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}

export type ScheduledBackups = ReturnType<typeof startScheduledBackups>;
