import { loadConfig } from '../config';
import { systemClock } from '../clock';
import { createBackup, pruneBackups } from '../services/backup/backup';

/**
 * `npm run backup`: one dated folder under BACKUP_DIR (default data/backups) while the server
 * keeps running; BACKUP_KEEP (default 7) newest are kept. docs/production.md "Backups".
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const { dir, manifest } = await createBackup(config, systemClock);
  const removed = await pruneBackups(config.backupDir, config.backupKeep);
  process.stdout.write(`Backup pronto: ${dir}\n  banco: ${manifest.dialect} (${manifest.database}), ${manifest.files.length} arquivos com SHA-256 em manifest.json\n`);
  if (removed.length) process.stdout.write(`  backups antigos removidos: ${removed.length} (BACKUP_KEEP=${config.backupKeep})\n`);
}

main().catch((err) => {
  process.stderr.write(`Falha no backup: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
