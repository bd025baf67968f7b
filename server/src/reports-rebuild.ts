import { loadConfig } from './config';
import { createLogger } from './logger';
import { closeDb, createDb, migrate } from './db/knex';
import { createReportRepository } from './db/repositories/report-repository';
import { createReportService } from './services/reports/report-service';
import { systemClock } from './clock';

/**
 * `npm run reports:rebuild -- TENANT FROM TO`: recomputes the daily reports of the local days
 * FROM..TO (YYYY-MM-DD) from raw data (docs/reports.md "Rebuild"). Same database settings as
 * the server (DATABASE_URL or the SQLite file).
 */
async function main(): Promise<void> {
  const [tenantId, from, to] = process.argv.slice(2);
  if (!tenantId || !from || !to) {
    process.stderr.write('Uso: npm run reports:rebuild -- <tenant> <AAAA-MM-DD inicial> <AAAA-MM-DD final>\n');
    process.exit(2);
  }
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const db = createDb(config);
  await migrate(db, config.databaseSchema);
  const reports = createReportService({ db, repo: createReportRepository(db), clock: systemClock, logger });
  const started = Date.now();
  const result = await reports.rebuild(tenantId, from, to);
  process.stdout.write(`Relatórios refeitos: ${result.days} dia(s), ${result.rooms} atendimento(s) em ${Date.now() - started} ms\n`);
  await closeDb(db);
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exit(1);
});
