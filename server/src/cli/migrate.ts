import { loadConfig } from '../config';
import { closeDb, createDb, migrate, migrationCounts } from '../db/knex';

/**
 * `npm run migrate`: brings the database (DATABASE_URL + DATABASE_SCHEMA, or the SQLite file
 * in DATA_DIR) to the latest migration and exits, as the server does when it starts, under the
 * same lock: several processes may run it (or start) together and it migrates once
 * (docs/production.md "Upgrades"). Exit 0 when the schema is up to date.
 */
async function main(): Promise<void> {
  const config = loadConfig({ LOG_LEVEL: 'warn', ...process.env });
  const db = createDb(config);
  try {
    await migrate(db, config.databaseSchema);
    const { done } = await migrationCounts(db);
    const where = config.databaseUrl ? `PostgreSQL, esquema ${config.databaseSchema ?? 'public'}` : `SQLite, ${config.sqliteFile}`;
    process.stdout.write(`Banco atualizado (${where}): ${done} migrações aplicadas.\n`);
  } finally {
    await closeDb(db);
  }
}

main().catch((err) => {
  process.stderr.write(`Falha na migração: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
