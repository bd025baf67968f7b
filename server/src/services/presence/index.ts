import type { Clock } from '../../clock';
import type { Db } from '../../db/knex';
import { createStatusRepository } from '../../db/repositories/status-repository';
import type { Logger } from '../../logger';
import type { ChangeFeed } from '../changes/change-feed';
import { createPresenceService } from './presence-service';

/**
 * The presence domain (docs/realtime.md "Presence"): status records, the online flag, the
 * sweeper and the `presence` and `status` live collections. Its routes: web/routes/presence.
 */
export function createPresence(deps: { db: Db; changes: ChangeFeed; clock: Clock; logger: Logger }) {
  const service = createPresenceService({ ...deps, statuses: createStatusRepository(deps.db) });
  return { service, liveCollections: service.collections };
}

export type Presence = ReturnType<typeof createPresence>;
