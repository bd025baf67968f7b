import type { Clock } from '../../clock';
import type { Logger } from '../../logger';
import type { Db } from '../../db/knex';
import { createIntegrationRecordRepository } from '../../db/repositories/integration-record-repository';
import { createDepartmentRepository } from '../../db/repositories/department-repository';
import { createErpService } from '../erp/erp-service';
import { createOutboundHttp } from '../http/outbound-http';
import { createContactLinksService } from '../erp/contact-links-service';
import { createContactLinksRepository } from '../../db/repositories/contact-links-repository';
import type { ChangeFeed } from '../changes/change-feed';
import type { Registers } from '../registers';
import { createIntegrationService } from './integration-service';
import { integrationRecordsLiveCollection, integrationViewsLiveCollection } from './integration-live-collection';
import type { LiveCollection } from '../changes/live-collection';

/**
 * The integrations domain (docs/integrations.md), wired with its dependencies: definitions
 * are records of the `integrations` register (its folder in schemas/registers and its hooks
 * checking the schemas); this adds what they become — menu views, validators and the generic
 * records API — and the ERP proxy their forms and lookups call. Its routes: web/routes/integrations.
 */
export function createIntegrations(deps: {
  db: Db;
  changes: ChangeFeed;
  clock: Clock;
  logger: Logger;
  registers: Registers;
  /** The realtime hub: integration record collections are registered on it as integrations appear. */
  hub?: { registerCollection(collection: LiveCollection): void; collectionNames(): string[] };
}) {
  const definitionsTable = deps.registers.registers.table('integrations');
  // The ERP proxy (seed 000 §7): only the tenant's configured ERP URLs, through the SSRF-safe client.
  const erp = createErpService({ http: createOutboundHttp(), logger: deps.logger });
  const live = new Set<string>();
  const departments = createDepartmentRepository(deps.db);
  const service = createIntegrationService({
    erp,
    ensureLive(collection) {
      const hub = deps.hub;
      if (!hub || live.has(collection)) return;
      live.add(collection);
      const collectionObject = integrationRecordsLiveCollection(collection, { service });
      if (!hub.collectionNames().includes(collectionObject.name)) hub.registerCollection(collectionObject);
    },
    definitionsTable,
    // Department claim hideIntegrations (docs/integrations.md): read per request, so a change applies at once.
    hidingDepartments: (tenantId, departmentIds) => departments.hidingIntegrations(tenantId, [...departmentIds]),
    repo: deps.registers.repo,
    records: createIntegrationRecordRepository(deps.db),
    changes: deps.changes,
    clock: deps.clock,
    logger: deps.logger,
  });
  // Contacts ↔ ERP clients, prospects and salesmen (seed 000 §7).
  const contactLinks = createContactLinksService({ db: deps.db, changes: deps.changes, clock: deps.clock, repo: createContactLinksRepository(), erp });
  return {
    service,
    erp,
    contactLinks,
    /** LiveCollections to register with the realtime hub. */
    liveCollections: [integrationViewsLiveCollection({ repo: deps.registers.repo, table: definitionsTable })],
  };
}

export type Integrations = ReturnType<typeof createIntegrations>;
