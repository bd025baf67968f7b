import type { Config } from '../../config';
import { createCampaignRepository } from '../../db/repositories/campaign-repository';
import type { Chat } from '../chat';
import { createRoutingMessages } from '../routing/routing-messages';
import { CAMPAIGNS_COLLECTION, createCampaignService } from './campaign-service';
import { createCampaignHooks } from './campaign-hooks';
import { campaignsLiveCollection } from './campaign-live';
import { createSendQueue, type SendQueueOptions } from './send-queue';

/**
 * Campaigns (docs/campaigns.md): the upload and screens' service, the durable send queue, and
 * the hooks provider webhooks call (receipts of campaign messages, customers' replies). Built on
 * the chat (its provider channels, rooms and messages); routes in web/routes/campaigns.
 */
export function createCampaigns(options: { chat: Chat; config: Pick<Config, 'publicUrl'>; queue?: Partial<SendQueueOptions> }) {
  const { chat } = options;
  const { deps, providers } = chat;
  const repo = createCampaignRepository(deps.db);

  // Counters move with every send and receipt: one live event per campaign per 300 ms at most.
  const pending = new Map<string, Set<string>>();
  let flushTimer: ReturnType<typeof setTimeout> | null = null;
  async function flush(): Promise<void> {
    flushTimer = null;
    const batch = [...pending.entries()];
    pending.clear();
    for (const [tenantId, ids] of batch) {
      await deps.feed
        .transaction(tenantId, async (_trx, record) => {
          for (const id of ids) record({ collection: CAMPAIGNS_COLLECTION, id, op: 'upsert' });
        })
        .catch((err) => deps.logger.error({ err, tenantId }, 'campaigns.live_event_failed'));
    }
  }
  function touched(tenantId: string, campaignId: string): void {
    pending.set(tenantId, (pending.get(tenantId) ?? new Set()).add(campaignId));
    if (!flushTimer) {
      flushTimer = setTimeout(() => void flush(), 300);
      flushTimer.unref?.();
    }
  }

  const service = createCampaignService({ repo, feed: deps.feed, clock: deps.clock, logger: deps.logger, providers });
  const queue = createSendQueue({ repo, providers, clock: deps.clock, logger: deps.logger, publicUrl: options.config.publicUrl, touched }, options.queue);
  const hooks = createCampaignHooks({
    repo, clock: deps.clock, logger: deps.logger, touched,
    msgs: createRoutingMessages({ rooms: deps.rooms, messages: deps.messages, senderFor: deps.senderFor, clock: deps.clock }),
    tagByName: (trx, tenantId, name) => repo.tagByName(trx, tenantId, name),
    dispatch: (tenantId, messageId) => chat.messages.dispatch(tenantId, messageId),
    roomById: (trx, tenantId, roomId) => deps.rooms.findById(tenantId, roomId, trx),
  });
  return { repo, service, queue, hooks, flush, liveCollections: [campaignsLiveCollection(repo)] };
}

export type Campaigns = ReturnType<typeof createCampaigns>;
