import type { Db } from '../../db/knex';
import { createTenantRepository } from '../../db/repositories/tenant-repository';
import type { BlobStore } from '../files/blob-store';
import { createTenantService } from './tenant-service';
import { createTenantSettingsRepository } from '../../db/repositories/tenant-settings-repository';
import type { ChangeFeed } from '../changes/change-feed';
import type { Clock } from '../../clock';
import { createTenantSettingsService } from './tenant-settings-service';

/**
 * The tenants domain (docs/tenancy.md): the tenant of each request's host, its configuration,
 * and the stored files served under its id. Its routes: web/routes/tenants.
 */
export function createTenants(deps: { db: Db; defaultTenant: string; blobs: BlobStore; changes: ChangeFeed; clock: Clock }) {
  const repo = createTenantRepository(deps.db);
  const service = createTenantService(repo, { defaultTenant: deps.defaultTenant });
  // The settings screen (docs/tenancy.md "Settings") and its live `appConfig` collection.
  const settings = createTenantSettingsService({ repo: createTenantSettingsRepository(deps.db), changes: deps.changes, clock: deps.clock, tenants: service });
  return { service, repo, blobs: deps.blobs, settings, liveCollections: settings.liveCollections };
}

export type Tenants = ReturnType<typeof createTenants>;
