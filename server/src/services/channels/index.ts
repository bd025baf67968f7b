import type { Db } from '../../db/knex';
import { createChannelAdminRepository } from '../../db/repositories/channel-admin-repository';
import { createChannelProviderRepository } from '../../db/repositories/channel-provider-repository';
import type { ChangeFeed } from '../changes/change-feed';
import { assertMember, type LiveCollection, type LiveRecord } from '../changes/live-collection';
import type { Clock } from '../../clock';
import type { Logger } from '../../logger';
import { CHANNELS_COLLECTION, createChannelAdminService } from './channel-admin-service';

/**
 * Channels administration (docs/channels.md "The channels screen"): the admin service and the
 * `channels` live collection (seed 002 §7), so a console picks up a new, hidden or switched-off
 * channel without a reload.
 */
export function createChannels(deps: { db: Db; changes: ChangeFeed; clock: Clock; logger: Logger; fetch: typeof fetch }) {
  const repo = createChannelAdminRepository(deps.db);
  const service = createChannelAdminService({ repo, changes: deps.changes, clock: deps.clock, logger: deps.logger, fetch: deps.fetch });

  // Records are public channels (no provider settings): every member may list them, as
  // GET /api/lookup/channels answers; the settings are only ever on the admin routes.
  const channels: LiveCollection = {
    name: CHANNELS_COLLECTION,
    resolve(_tenant, principal) {
      assertMember(principal);
      return { filter: null, orderBy: [{ field: 'menuOrder', direction: 'asc' }], limit: 500 };
    },
    async snapshot(trx, tenantId) {
      return (await repo.channels(tenantId, trx)) as unknown as LiveRecord[];
    },
    async load(tenantId, ids) {
      const found = await repo.channelsByIds(tenantId, ids);
      return found.map(({ deleted, ...channel }) => ({ ...channel, ...(deleted && { lifeControl: { deletedAt: new Date().toISOString() } }) })) as unknown as LiveRecord[];
    },
  };

  return {
    service,
    liveCollections: [channels],
    /** Seals provider secrets stored in plain text (rows written before sealing, or by hand). */
    sealStoredSecrets: () => createChannelProviderRepository(deps.db).sealStoredSecrets(),
  };
}

export type Channels = ReturnType<typeof createChannels>;
