import type { Clock } from '../../clock';
import type { Logger } from '../../logger';
import { parseJson, type Db } from '../../db/knex';
import { createIntegrationRecordRepository } from '../../db/repositories/integration-record-repository';
import type { ApiRegistry } from '../../web/access';
import { registerIntegrationRoutes } from '../../web/routes/integration-routes';
import { registerErpProxyRoutes } from '../../web/routes/erp-proxy-routes';
import { createErpService } from '../erp/erp-service';
import { createOutboundHttp } from '../http/outbound-http';
import { createContactLinksService } from '../erp/contact-links-service';
import { createContactLinksRepository } from '../erp/contact-links-repository';
import { registerContactLinkRoutes } from '../../web/routes/contact-links-routes';
import type { ChangeFeed } from '../changes/change-feed';
import type { Registers } from '../registers';
import { createIntegrationService } from './integration-service';
import { integrationRecordsLiveCollection, integrationViewsLiveCollection } from './integration-live-collection';
import type { LiveCollection } from '../../hub/live-collection';

/**
 * The integrations domain (docs/integrations.md), wired with its dependencies: definitions
 * are records of the `integrations` register (its folder in schemas/registers and its hooks
 * checking the schemas); this adds what they become — menu views, validators and the generic
 * records API — and the ERP proxy their forms and lookups call.
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
    async hidingDepartments(tenantId, departmentIds) {
      const rows = await deps.db('departments').where({ tenant_id: tenantId }).whereIn('id', [...departmentIds]).whereNull('deleted_at').select('id', 'data');
      return rows.filter((row) => parseJson<{ claims?: { hideIntegrations?: unknown } }>(row.data, {}).claims?.hideIntegrations === true).map((row) => String(row.id));
    },
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
    routes(api: ApiRegistry): void {
      registerIntegrationRoutes(api, service);
      registerErpProxyRoutes(api, erp);
      registerContactLinkRoutes(api, contactLinks);
    },
  };
}

export type Integrations = ReturnType<typeof createIntegrations>;
