import { hasPermission, type Filter } from '@atendimento/schemas';
import type { Campaign } from '@atendimento/schemas/campaigns';
import type { Transaction } from '../../db/knex';
import type { CampaignRepository } from '../../db/repositories/campaign-repository';
import { forbidden } from '../../errors';
import type { LiveCollection, LiveRecord } from '../changes/live-collection';
import { readLiveQuery } from '../presence/live-query-input';
import { CAMPAIGNS_COLLECTION } from './campaign-service';

/** Ids a subscription asks for (`id == x` or `id in [...]`); null = the newest campaigns. */
function idsOf(filter: Filter | null): string[] | null {
  if (!filter || 'and' in filter || 'or' in filter) return null;
  if (filter.field !== 'id') return null;
  if (filter.op === '==') return [String(filter.value)];
  if (filter.op === 'in' && Array.isArray(filter.value)) return filter.value.map(String);
  return null;
}

/**
 * The `notifications` live collection: a campaign with its counters, re-sent when the queue or
 * a receipt changes them (events debounced per campaign, services/campaigns/index.ts). The
 * detail screen subscribes with `id == {id}`, the list without a filter. Same access as the
 * routes: admin or the `notifications` claim.
 */
export function campaignsLiveCollection(repo: CampaignRepository): LiveCollection {
  // Inside the hub's read transaction (`q`): on SQLite it holds the only connection.
  async function records(tenantId: string, ids: string[], q?: Transaction): Promise<LiveRecord[]> {
    const rows: NonNullable<Awaited<ReturnType<CampaignRepository['find']>>>[] = [];
    for (const id of ids) {
      const row = await repo.find(tenantId, id, q);
      if (row) rows.push(row);
    }
    const counters = await repo.countersOf(tenantId, rows.map((r) => r.id), q);
    return rows.map((r) => {
      const { tenantId: _t, total, createdBy: _c, ...campaign } = r;
      const c = counters.get(r.id) ?? { total, done: 0, sent: 0, delivered: 0, read: 0, interacted: 0, clicked: 0, error: 0 };
      return { ...campaign, counters: c } satisfies Campaign as unknown as LiveRecord;
    });
  }
  return {
    name: CAMPAIGNS_COLLECTION,
    resolve(_tenant, principal, input) {
      if (principal.kind !== 'user' || !hasPermission(principal.user, 'notifications')) throw forbidden();
      return readLiveQuery(input, { defaultOrder: [{ field: 'lifeControl.createdAt', direction: 'desc' }], defaultLimit: 20, maxLimit: 100, fields: ['id'], ops: ['==', 'in'] });
    },
    async snapshot(trx, tenantId, query) {
      const ids = idsOf(query.filter) ?? (await repo.list(tenantId, { external: true, limit: query.limit, offset: 0 }, trx)).rows.map((r) => r.id);
      return records(tenantId, ids.slice(0, 100), trx);
    },
    load: (tenantId, ids) => records(tenantId, ids),
  };
}
