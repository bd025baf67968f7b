import path from 'node:path';
import { loadConfig } from '../config';
import { restoreBackup } from '../services/backup/backup';

/**
 * `npm run restore <backup folder>`: refuses while a server uses DATA_DIR, checks every
 * checksum, then replaces the database and the blob store. docs/production.md "Backups".
 */
async function main(): Promise<void> {
  const arg = process.argv[2];
  if (!arg) throw new Error('usage: npm run restore -- <backup folder> (one made by npm run backup, e.g. data/backups/backup-20261125T030000000Z)');
  const config = loadConfig();
  const manifest = await restoreBackup(path.resolve(arg), config);
  process.stdout.write(`Restaurado: backup de ${manifest.createdAt} (${manifest.dialect}) em ${config.databaseUrl ? 'DATABASE_URL' : config.dataDir}. Inicie o servidor (npm start).\n`);
}

main().catch((err) => {
  process.stderr.write(`Falha na restauração: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
