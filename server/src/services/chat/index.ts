import type { Clock } from '../../clock';
import type { Logger } from '../../logger';
import type { Db } from '../../db/knex';
import { createRoomRepository } from '../../db/repositories/room-repository';
import { createMessageRepository } from '../../db/repositories/message-repository';
import { createChatContactRepository } from '../../db/repositories/chat-contact-repository';
import { createChatDirectoryRepository } from '../../db/repositories/chat-directory-repository';
import { createTransferRepository } from '../../db/repositories/transfer-repository';
import { createStatusRepository } from '../../db/repositories/status-repository';
import type { ChangeFeed } from '../changes/change-feed';
import type { BlobStore } from '../files/blob-store';
import type { TokenService } from '../auth/tokens';
import { createRateLimiter } from '../auth/rate-limiter';
import type { Principal } from '../auth/auth-service';
import type { TenantRow } from '../../db/repositories/tenant-repository';
import type { ChatDeps } from './chat-deps';
import { noChatHooks, type ChatHooks } from './chat-hooks';
import { createSenderFor, type ChannelSender, type SenderFor } from './channel-senders';
import { createMessageService } from './message-service';
import { createRoomService } from './room-service';
import { createTransferService } from './transfer-service';
import { createSurveyService } from './survey-service';
import type { Scheduler } from '../scheduler/scheduler';
import { createRoomSearchService } from './room-search-service';
import { createIngestService } from './ingest-service';
import { createWebchatService } from './webchat-service';
import { createInternalChatService } from './internal-chat-service';
import { createBotRestartService } from './bot-restart-service';
import { createPublicLinkService } from './public-link-service';
import { createFollowMeService } from './follow-me-service';
import { createTenantRepository } from '../../db/repositories/tenant-repository';
import { createChatLiveCollections } from './chat-live-collections';
import { viewerOf, type ChatScope } from './room-scope';
import { createSafeFetch } from '../http/safe-fetch';
import { createChannelProviderRepository } from '../../db/repositories/channel-provider-repository';
import { createProviderChannels, type ProviderOptions } from '../whatsapp/provider-channels';
import { createProviderSender } from '../whatsapp/whatsapp-sender';

interface ChatOptions {
  db: Db;
  changes: ChangeFeed;
  clock: Clock;
  logger: Logger;
  blobs: BlobStore;
  tokens: TokenService;
  /** Outbound delivery per channel; default: web chat in process, provider channels through their adapter. */
  senderFor?: SenderFor;
  /** New web-chat conversations per visitor IP per window (abuse guard of the public session call). */
  webchatSessionsPerIp?: { max: number; windowSeconds: number };
  /** Provider channels (docs/channels.md): the SSRF-safe client and our public URL. */
  providers?: ProviderOptions;
  /** The clock's durable deadlines (survey expiry); without it surveys do not expire (tests of other domains). */
  scheduler?: Scheduler;
  /** Senders of adapter kinds that are not HTTP providers (the mail channel's SMTP), by kind. */
  adapterSenders?: Record<string, ChannelSender>;
}

/**
 * The chat domain (docs/chat.md), wired in one place with its dependencies passed in: rooms,
 * messages, search and counters, inbound ingest, the web-chat channel and the live
 * collections `rooms` and `messages`, and the outbound side of provider channels (their
 * adapters and the 24-hour window). server.ts registers `liveCollections` on the hub and
 * `registerChatRoutes` (web/routes/chat/) on the API; services/whatsapp builds on this.
 */
export function createChat(options: ChatOptions) {
  const { db, clock, logger } = options;
  const deps: ChatDeps = {
    db,
    feed: options.changes,
    clock,
    logger,
    blobs: options.blobs,
    rooms: createRoomRepository(db),
    messages: createMessageRepository(db),
    contacts: createChatContactRepository(),
    directory: createChatDirectoryRepository(db),
    senderFor: () => null,
    hooks: noChatHooks,
  };
  const providerOptions = options.providers ?? { fetch: createSafeFetch(), publicUrl: 'http://localhost' };
  const channels = createChannelProviderRepository(db);
  const providers = createProviderChannels({ channels, logger, fetch: providerOptions.fetch });
  deps.senderFor = options.senderFor ?? createSenderFor({ provider: createProviderSender({ providers, contacts: deps.contacts, clock }, providerOptions), byAdapter: options.adapterSenders });
  const messages = createMessageService(deps);
  const rooms = createRoomService(deps, messages, () => surveys);
  const search = createRoomSearchService(deps, rooms);
  const transfers = createTransferService({ ...deps, get hooks() { return deps.hooks; }, transfers: createTransferRepository(db), statuses: createStatusRepository(db) });
  const surveys = createSurveyService({ ...deps, get hooks() { return deps.hooks; }, get senderFor() { return deps.senderFor; }, scheduler: options.scheduler, dispatch: (tenantId, id) => messages.dispatch(tenantId, id) });
  const stored = createIngestService(deps, surveys);
  const followMe = createFollowMeService({ ...deps, providers, tenants: createTenantRepository(db) });
  // Follow-me joins every channel's inbound (docs/console-operations.md "Follow-me"): a
  // follower's own phone is answered, not ingested; stored customer messages are forwarded.
  const ingest: typeof stored = {
    ...stored,
    async ingestInbound(tenantId, channel, items) {
      const kept = await followMe.splitReplies(tenantId, channel, items);
      const results = kept.length ? await stored.ingestInbound(tenantId, channel, kept) : [];
      void followMe.forward(tenantId, results).catch((err: unknown) => logger.warn({ err, tenantId }, 'followme.forward_failed'));
      return results;
    },
  };
  const internal = createInternalChatService(deps);
  const bot = createBotRestartService(deps);
  const publicLink = createPublicLinkService(deps);
  const webchat = createWebchatService({ ...deps, tokens: options.tokens }, ingest, messages);
  const limits = options.webchatSessionsPerIp ?? { max: 100, windowSeconds: 600 };

  return {
    deps,
    rooms,
    messages,
    search,
    transfers,
    surveys,
    ingest,
    followMe,
    internal,
    bot,
    publicLink,
    webchat,
    channels,
    providers,
    blobs: options.blobs,
    /** Limits new web-chat conversations per IP (a public endpoint that writes). */
    webchatLimiter: createRateLimiter(clock, limits),
    liveCollections: createChatLiveCollections(deps, rooms),
    /** Plugs routing (docs/routing.md) into ingest and push. */
    useHooks(hooks: ChatHooks): void {
      deps.hooks = hooks;
    },
    /** The caller as the chat rules see them (departments, supervised agents, team), in their tenant. */
    async scope(tenant: TenantRow, principal: Principal): Promise<ChatScope> {
      return { tenantId: tenant.id, viewer: await viewerOf(principal, tenant.id, deps.directory), config: tenant.appConfig };
    },
  };
}

export type Chat = ReturnType<typeof createChat>;
