import type { Db } from '../../db/knex';
import { createTenantRepository } from '../../db/repositories/tenant-repository';
import type { BlobStore } from '../files/blob-store';
import { createTenantService } from './tenant-service';

/**
 * The tenants domain (docs/tenancy.md): the tenant of each request's host, its configuration,
 * and the stored files served under its id. Its routes: web/routes/tenants.
 */
export function createTenants(deps: { db: Db; defaultTenant: string; blobs: BlobStore }) {
  const repo = createTenantRepository(deps.db);
  const service = createTenantService(repo, { defaultTenant: deps.defaultTenant });
  return { service, repo, blobs: deps.blobs };
}

export type Tenants = ReturnType<typeof createTenants>;
