import type { Clock } from '../../clock';
import type { Db } from '../../db/knex';
import { createExportRepository, createReportRepository } from '../../db/repositories/report-repository';
import { createExportJobRepository } from '../../db/repositories/export-job-repository';
import { createFlowRunRepository } from '../../db/repositories/flow-run-repository';
import type { Logger } from '../../logger';
import type { ChangeFeed } from '../changes/change-feed';
import type { Mailer } from '../mail/mailer';
import { createDashboardExportService } from './export-service';
import { createFlowRunService } from './flow-run-service';
import { createReportService } from './report-service';

/**
 * The reports domain (docs/reports.md): daily counters kept in the transaction of each room or
 * status write (a pre-commit hook on the change feed), a rebuild from raw data, and the
 * dashboard's read, and the flow runs bots report (docs/flows.md). Its routes: web/routes/reports.
 */
export function createReports(deps: { db: Db; changes: ChangeFeed; clock: Clock; logger: Logger; mailer: Mailer; dataDir: string; secret: string; exportAttachMaxBytes?: number }) {
  const service = createReportService({ db: deps.db, repo: createReportRepository(deps.db), clock: deps.clock, logger: deps.logger });
  const detach = deps.changes.beforeCommit((trx, tenantId, changes) => service.onChanges(trx, tenantId, changes));
  const exports = createDashboardExportService({
    repo: createExportRepository(deps.db), jobs: createExportJobRepository(deps.db), mailer: deps.mailer, clock: deps.clock, logger: deps.logger,
    dataDir: deps.dataDir, secret: deps.secret, attachMaxBytes: deps.exportAttachMaxBytes,
  });
  const flowRuns = createFlowRunService({ repo: createFlowRunRepository(deps.db), reports: service, clock: deps.clock });
  return { service, exports, flowRuns, detach };
}

export type Reports = ReturnType<typeof createReports>;
