import { forbidden } from '../../errors';
import type { LiveCollection, LiveRecord } from '../../hub/live-collection';
import type { RecordData, RegisterRepository, RegisterTable } from '../../db/repositories/register-repository';

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
