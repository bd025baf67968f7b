import { forbidden } from '../../errors';
import type { LiveCollection, LiveRecord } from '../changes/live-collection';
import type { RecordData, RegisterRepository, RegisterTable } from '../../db/repositories/register-repository';
import { liveNameOf, type IntegrationService } from './integration-service';

/** The live collection every signed-in user may follow to learn that integrations changed. */
export const INTEGRATION_VIEWS_LIVE = 'integration_views';

/** Only what says "this definition changed": no name, schema or rule leaves the server here. */
function signal(record: RecordData): LiveRecord {
  const life = (record.lifeControl ?? {}) as { updatedAt?: string | null; deletedAt?: string | null };
  return { id: record.id, order: Number(record.order ?? 0), lifeControl: { updatedAt: life.updatedAt ?? null, deletedAt: life.deletedAt ?? null } };
}

/**
 * `integration_views` on the realtime hub (docs/integrations.md "Live"): the `integrations`
 * register itself is an admin screen, but every user's menu and screens follow the
 * definitions. Subscribers get only ids, order and timestamps; on a change the engine refetches
 * GET /api/integration-definitions, which applies the visibility rules. The definitions'
 * hooks record changes here beside the register's own.
 */
export function integrationViewsLiveCollection(deps: { repo: RegisterRepository; table: RegisterTable }): LiveCollection {
  return {
    name: INTEGRATION_VIEWS_LIVE,
    resolve(_tenant, principal) {
      if (principal.kind !== 'user') throw forbidden();
      return { filter: null, orderBy: [{ field: 'order', direction: 'asc' }], limit: 500 };
    },
    async snapshot(trx, tenantId, query) {
      const page = await deps.repo.list(tenantId, deps.table, { filter: null, orderBy: query.orderBy, offset: 0, limit: query.limit }, { trx });
      return page.records.map(signal);
    },
    async load(tenantId, ids) {
      return (await deps.repo.getMany(tenantId, deps.table, ids, { includeDeleted: true })).map(signal);
    },
  };
}

/**
 * An integration's records on the hub, as `integration/{collection}` (the generic table's `live`
 * name, so the register list refetches when another user changes a row). Registered on first
 * use, since integrations appear at run time; the same name serves every tenant, each resolving
 * its own definition and the caller's visibility (404 when they may not use it).
 */
export function integrationRecordsLiveCollection(collection: string, deps: { service: IntegrationService }): LiveCollection {
  const { service } = deps;
  return {
    name: liveNameOf(collection),
    async resolve(tenant, principal, query) {
      if (principal.kind !== 'user') throw forbidden();
      const resolved = await service.forCaller({ tenant, user: principal.user, departments: [...principal.agentOf, ...principal.supervisorOf] }, collection);
      const q = (query && typeof query === 'object' ? query : {}) as { orderBy?: unknown; limit?: unknown };
      const orderBy = Array.isArray(q.orderBy)
        ? (q.orderBy as { field?: unknown; direction?: unknown }[]).slice(0, 3).filter((o) => typeof o?.field === 'string' && resolved.fields[o.field] && resolved.fields[o.field]!.type !== 'array').map((o) => ({ field: o.field as string, direction: o.direction === 'desc' ? ('desc' as const) : ('asc' as const) }))
        : [];
      const limit = Math.min(Math.max(Number.isInteger(q.limit) ? (q.limit as number) : 20, 1), 500);
      return { filter: null, orderBy: orderBy.length ? orderBy : [{ field: resolved.definition.list.sort.field, direction: 'asc' }], limit };
    },
    async snapshot(trx, tenantId, query) {
      const resolved = await service.resolvedFor(tenantId, collection, trx);
      if (!resolved) return [];
      const page = await deps.service.repo.list(tenantId, resolved.table, { filter: query.filter, orderBy: query.orderBy, offset: 0, limit: query.limit }, { trx });
      return page.records;
    },
    async load(tenantId, ids) {
      const resolved = await service.resolvedFor(tenantId, collection);
      if (!resolved) return [];
      return deps.service.repo.getMany(tenantId, resolved.table, ids, { includeDeleted: true });
    },
  };
}
