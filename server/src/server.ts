import { existsSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Config } from './config';
import { systemClock, type Clock } from './clock';
import { createLogger, type Logger } from './logger';
import { afterCommit, closeDb, createDb, migrate, poolStats, type Db } from './db/knex';
import { startCheckpointer } from './db/sqlite-checkpointer';
import { createUserRepository } from './db/repositories/user-repository';
import { useSecretsKey } from './db/secret-box';
import { createBlobStore } from './services/files/blob-store';
import { createMailer, type Mailer } from './services/mail/mailer';
import { createApp } from './web/app';
import { createReports } from './services/reports';
import { registerReportRoutes } from './web/routes/reports';
import { createSummaries } from './services/summaries';
import { registerSummaryRoutes } from './web/routes/summaries';
import { createChangeFeed } from './services/changes/change-feed';
import type { ChangeBus } from './services/changes/change-bus';
import { createBus } from './services/changes/create-bus';
import { startChangeLogPruner } from './services/changes/change-log-pruner';
import { createHub } from './hub/hub';
import { createSafeFetch } from './services/http/safe-fetch';
import { createAuth } from './services/auth';
import { createTenants } from './services/tenants';
import { createPresence } from './services/presence';
import { createRegisters } from './services/registers';
import { defaultRegistersDir, loadRegisterDefinitions } from './services/registers/definition-loader';
import { createIntegrations } from './services/integrations';
import { createChat } from './services/chat';
import { createWhatsapp } from './services/whatsapp';
import { createCampaigns } from './services/campaigns';
import type { SendQueueOptions } from './services/campaigns/send-queue';
import { registerCampaignRoutes } from './web/routes/campaigns';
import { createMail, createMailOutbound } from './services/mail';
import { createApiTokens } from './services/api-tokens';
import { registerTenantRoutes } from './web/routes/tenants';
import { registerAuthRoutes } from './web/routes/auth';
import { registerPresenceRoutes } from './web/routes/presence';
import { registerRegistersRoutes } from './web/routes/registers';
import { registerIntegrationsRoutes } from './web/routes/integrations';
import { registerChatRoutes } from './web/routes/chat';
import { revocationIds, SESSIONS_COLLECTION } from './hub/session-revocations';
import { registerRoomContactRoutes } from './web/routes/chat/room-contact-routes';
import { registerWhatsappRoutes } from './web/routes/whatsapp';
import { registerMailRoutes } from './web/routes/mail';
import { registerApiTokenRoutes } from './web/routes/api-tokens';
import { createChannels } from './services/channels';
import { registerChannelRoutes } from './web/routes/channels';
import { createDeadlineRepository } from './db/repositories/deadline-repository';
import { createStatusRepository } from './db/repositories/status-repository';
import { createScheduler } from './services/scheduler/scheduler';
import { createRouting, type Routing } from './services/routing';
import { limitConnectionsPerAddress } from './web/connection-limits';
import { answerClientErrors } from './web/client-errors';
import { createUploadBudget } from './web/upload-budget';
import { markRunning } from './services/backup/backup';
import { createMetrics } from './services/ops/metrics';
import { createQueueSizeRepository } from './db/repositories/queue-size-repository';
import { createLgpd } from './services/lgpd';
import { registerLgpdRoutes } from './web/routes/lgpd';
import { createReadiness } from './services/ops/readiness';
import { startScheduledBackups } from './services/backup/scheduled-backup';

const here = path.dirname(fileURLToPath(import.meta.url));

/** engine/dist next to this package, when it has been built. */
function defaultStaticDir(): string | null {
  const dist = path.resolve(here, '../../engine/dist');
  return existsSync(dist) ? dist : null;
}

interface ServerOptions {
  config: Config;
  clock?: Clock;
  logger?: Logger;
  db?: Db;
  mailer?: Mailer;
  /** Change bus between processes; defaults to the one config.bus names. */
  bus?: ChangeBus;
  /** Start the mailbox watchers (default true; a benchmark or a one-off script may not want them). */
  startMail?: boolean;
  /** Start the campaign send queue (default true; tests drive `campaigns.queue.tick()` with a manual clock). */
  startCampaigns?: boolean;
  /** Send queue settings beyond the configuration (tests: a `sleep` that moves a ManualClock). */
  campaignQueue?: Partial<SendQueueOptions>;
}

/**
 * Wires every domain with its dependencies (Ghost-style: passed in, not imported), so tests
 * build the same server with a manual clock or another database.
 */
export async function createServer(options: ServerOptions) {
  const { config } = options;
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createLogger(config.logLevel);
  // Channel secrets (docs/channels.md "Secrets"): sealed with this key by the repositories.
  useSecretsKey(config.secretsKey);
  const db = options.db ?? createDb(config);
  await migrate(db, config.databaseSchema);
  // SQLite: WAL checkpoints on a worker thread, not inside a request's COMMIT (docs/ingest.md "Durability").
  const checkpointer = await startCheckpointer(db, logger);

  const mailer = options.mailer ?? (config.smtpUrl ? createMailer(config.smtpUrl, config.mailFrom, logger) : null);
  if (!mailer) throw new Error('createServer: no mailer. Set SMTP_URL or pass options.mailer (npm start starts a local catcher).');
  const bus = options.bus ?? (await createBus(config, db, logger));
  // Every write that clients should see live goes through feed.transaction (docs/realtime.md).
  const changes = createChangeFeed({ db, bus, clock, logger });
  const blobs = createBlobStore(path.join(config.dataDir, 'blobs'));
  const users = createUserRepository(db);

  // Each domain: services/<domain>/index.ts builds it, web/routes/<domain> serves it, and its
  // live collections go on the hub.
  const tenants = createTenants({ db, defaultTenant: config.defaultTenant, blobs, changes, clock });
  const auth = createAuth({ db, users, config, mailer, clock, logger, blobs });
  // Realtime (docs/realtime.md): the hub on /ws.
  const hub = createHub({
    changes,
    auth: auth.service,
    tenants: tenants.service,
    clock,
    logger,
    trustProxy: config.trustProxy,
    heartbeatMs: config.wsHeartbeatSeconds * 1000,
    maxSocketsPerAddress: config.wsMaxPerIp,
    maxBufferedBytes: config.wsMaxBufferedBytes,
  });
  // Cached principals (docs/auth.md "Principal cache") are dropped when a user, an agent, a
  // department or a session changes: at the commit in this process, through the bus in others.
  const principalCollections = new Set(['users', 'agents', 'departaments', SESSIONS_COLLECTION]);
  changes.beforeCommit(async (trx, tenantId, recorded) => {
    if (recorded.some((c) => principalCollections.has(c.collection))) afterCommit(trx, () => auth.service.invalidatePrincipals(tenantId));
  });
  changes.onChanges((tenantId, events) => {
    if (events.some((e) => principalCollections.has(e.collection))) auth.service.invalidatePrincipals(tenantId);
  });
  // Sessions that end close their sockets at once (docs/security.md "Sessions"): here, and in
  // every other process through a `sessions` change on the bus.
  auth.service.onSessionsRevoked((tenantId, revoked) => {
    hub.closeSessions(tenantId, revoked);
    void changes
      .transaction(tenantId, async (_trx, record) => {
        for (const id of revocationIds(revoked)) record({ collection: SESSIONS_COLLECTION, id, op: 'delete' });
      })
      .catch((err) => logger.warn({ err, tenantId }, 'hub.session_revocation_not_broadcast'));
  });
  // Daily reports (docs/reports.md): kept in the transaction of every room and status write.
  const reports = createReports({ db, changes, clock, logger, mailer, dataDir: config.dataDir, secret: config.jwtSecret, exportAttachMaxBytes: config.exportAttachMaxBytes });
  const presence = createPresence({ db, changes, clock, logger });
  // The clock (docs/routing.md): every time-based rule is a row in `deadlines`.
  const scheduler = createScheduler({ db, deadlines: createDeadlineRepository(db), feed: changes, clock, logger });
  // Routing needs the chat; registers (contingencies) need routing first: wired through this slot.
  let routing: Routing | null = null;
  // Registers (docs/registers.md): one folder per register under schemas/registers (+ REGISTERS_DIRS).
  const registers = createRegisters({
    db, changes, clock, logger, blobs, mailer,
    scheduleContingencyEnd: (trx, tenantId, contingency) => routing!.scheduleContingencyEnd(trx, tenantId, contingency),
    sendSignInLink: (tenant, userId) => auth.service.sendSignInLink(tenant, userId),
    sendAccountNotice: (tenant, to, change) => auth.service.sendAccountNotice(tenant, to, change),
    revokeUser: (tenant, userId, reason) => auth.service.revokeUser(tenant, userId, reason),
    definitions: loadRegisterDefinitions([defaultRegistersDir(), ...config.registersDirs]),
  });
  // Integrations (docs/integrations.md): registers admins define live; records under /api/integration/{collection}.
  const integrations = createIntegrations({ db, changes, clock, logger, registers, hub });
  // The mail channel's SMTP side (docs/email.md), handed to the chat's sends.
  const mailOutbound = createMailOutbound({ db, blobs, logger });
  const providerFetch = createSafeFetch({ trustedHosts: config.providerTrustedHosts });
  // Channels screen (docs/channels.md): admin CRUD with write-only sealed secrets, 'Testar conexão', live `channels`.
  const channels = createChannels({ db, changes, clock, logger, fetch: providerFetch });
  await channels.sealStoredSecrets();
  // Chat (docs/chat.md): rooms, messages, search, counters, the web-chat channel; live `rooms` and `messages`.
  const chat = createChat({
    db, changes, clock, logger, blobs, tokens: auth.tokens, adapterSenders: { mail: mailOutbound.sender }, scheduler,
    // Provider channels (docs/channels.md): SSRF-safe; loopback only for PROVIDER_TRUSTED_HOSTS.
    providers: { fetch: providerFetch, publicUrl: config.publicUrl },
  });
  // Routing (docs/routing.md): assignment rules, caps, waiting, automatic rules, business hours, contingencies.
  routing = createRouting({
    db, feed: changes, clock, logger, scheduler, rooms: chat.deps.rooms, messages: chat.deps.messages, directory: chat.deps.directory,
    statuses: createStatusRepository(db),
    senderFor: (room) => chat.deps.senderFor(room),
    dispatch: (tenantId, messageId) => chat.messages.dispatch(tenantId, messageId),
  });
  // Campaigns (docs/campaigns.md): CSV upload, the durable send queue, receipts and replies.
  const campaigns = createCampaigns({
    chat, config,
    queue: { ratePerSecond: config.campaignRatePerSecond, leaseMs: config.campaignLeaseSeconds * 1000, ...options.campaignQueue },
  });
  const routingHooks = routing.chatHooks;
  chat.useHooks({
    ...routingHooks,
    // Routing first (queue, answers); then a reply to a campaign tags the chat and names the campaign.
    async onInbound(trx, record, tenantId, event) {
      await routingHooks.onInbound(trx, record, tenantId, event);
      await campaigns.hooks.onInbound(trx, record, tenantId, event);
    },
    prepareInbound: (trx, tenantId, channel, chatIds) => campaigns.hooks.prepareInbound(trx, tenantId, channel, chatIds),
  });
  // Chat summaries (docs/summaries.md): extractive, e-mailed to the caller.
  const summaries = createSummaries({ db, chat, mailer, logger });
  // Provider webhooks, templates, media and 'Mensagem Ativa' (docs/whatsapp.md).
  const whatsapp = createWhatsapp({ chat, campaignStatus: (trx, tenantId, channelId, update) => campaigns.hooks.status(trx, tenantId, channelId, update) });
  // E-mail channel (docs/email.md): a watcher per mailbox (IMAP in), replies (SMTP out).
  const mail = createMail({ chat, outbound: mailOutbound });
  // API tokens (docs/api.md): the API screen's tokens, checked on every /api route.
  const apiTokens = createApiTokens({ db, users, clock, registers: registers.registers.definitions });

  for (const domain of [tenants, presence, registers, integrations, chat, channels, campaigns]) {
    for (const collection of domain.liveCollections) hub.registerCollection(collection);
  }
  presence.service.start(15_000);
  routing.start({ schedulerPollMs: config.schedulerPollMs, sweepMs: config.routingSweepSeconds * 1000 });
  if (options.startMail !== false) mail.start();
  if (options.startCampaigns !== false) campaigns.queue.start();
  // Dashboard exports (docs/exports.md): jobs left by a stopped or dead process are resumed.
  reports.exports.start();
  // LGPD (docs/lgpd.md): contact export and erase, retention of closed chats by the clock (hourly).
  const lgpd = createLgpd({ db, changes, clock, logger, blobs, secret: config.jwtSecret });
  const stopRetention = lgpd.startRetention();
  // Scheduled backups (docs/production.md "Backups"): off unless BACKUP_EVERY_HOURS is set.
  const backups = config.backupEveryHours > 0 ? startScheduledBackups({ config, clock, logger, everyHours: config.backupEveryHours, keep: config.backupKeep }) : null;
  let unmarkRunning: (() => Promise<void>) | null = null;
  const pruner = startChangeLogPruner({ changes, clock, logger, retentionMs: config.changeLogRetentionHours * 3_600_000, everyMs: 10 * 60_000 });

  // Operations (docs/production.md): /metrics, /api/health/{live,ready}, graceful stop.
  let draining = false;
  const queueSizes = createQueueSizeRepository(db);
  const metrics = createMetrics({
    sockets: () => hub.stats(),
    changeFeed: () => changes.stats(),
    scheduler: () => scheduler.stats(),
    pool: () => poolStats(db),
    queues: () => queueSizes.sizes(clock.now()),
    now: () => clock.now(),
  });
  const readiness = createReadiness({ db, busConnected: () => bus.connected?.() ?? true, draining: () => draining });

  // Every route that takes a file counts against this one budget (docs/security.md "Limits").
  const uploads = createUploadBudget({ maxBytes: config.uploadsInFlightMaxBytes, maxPerAddressBytes: config.uploadsInFlightMaxPerIpBytes });
  const { app, api } = createApp({
    logger,
    ops: { metrics, readiness, draining: () => draining, metricsToken: config.metricsToken },
    auth: auth.service,
    tenants: tenants.service,
    staticDir: config.staticDir ?? defaultStaticDir(),
    trustProxy: config.trustProxy,
    apiTokens: apiTokens.service,
    uploads,
    routes: [
      (registry) => registerTenantRoutes(registry, tenants),
      (registry) => registerAuthRoutes(registry, auth),
      (registry) => registerPresenceRoutes(registry, presence),
      (registry) => registerRegistersRoutes(registry, registers),
      (registry) => registerIntegrationsRoutes(registry, integrations),
      (registry) => registerChatRoutes(registry, chat),
      (registry) => registerRoomContactRoutes(registry, chat, registers.registers),
      (registry) => registerWhatsappRoutes(registry, whatsapp),
      (registry) => registerCampaignRoutes(registry, campaigns),
      (registry) => registerMailRoutes(registry, mail, chat),
      (registry) => registerApiTokenRoutes(registry, apiTokens),
      (registry) => registerChannelRoutes(registry, channels),
      (registry) => registerLgpdRoutes(registry, lgpd),
      (registry) => registerReportRoutes(registry, reports),
      (registry) => registerSummaryRoutes(registry, summaries, chat),
    ],
  });
  const httpServer = http.createServer(app.callback());
  hub.attach(httpServer);
  httpServer.once('close', () => {
    presence.service.stop();
    pruner.stop();
    stopRetention();
    void routing!.stop();
    void mail.stop();
    void campaigns.queue.stop();
    void reports.exports.stop();
  });
  // Slow-loris and slow-body protection without cutting long uploads short (docs/security.md
  // "Limits"): headers within 15 s, no silence longer than 30 s, a whole request within 10 min.
  httpServer.headersTimeout = config.headersTimeoutSeconds * 1000;
  httpServer.requestTimeout = config.requestTimeoutSeconds * 1000;
  httpServer.timeout = config.idleTimeoutSeconds * 1000;
  httpServer.keepAliveTimeout = Math.min(65_000, config.idleTimeoutSeconds * 1000);
  limitConnectionsPerAddress(httpServer, config.connMaxPerIp, logger);
  answerClientErrors(httpServer);

  return {
    config,
    clock,
    logger,
    db,
    repos: { tenants: tenants.repo, users, sessions: auth.sessions },
    services: {
      apiTokens: apiTokens.service, auth: auth.service, tenants: tenants.service, blobs, tokens: auth.tokens, mailer, changes, bus, hub,
      uploads, presence: presence.service, checkpointer, reports: reports.service, reportExports: reports.exports, pruner, backups, metrics, readiness, lgpd, registers, chat, channels: channels.service, whatsapp, mail, integrations, routing, scheduler, campaigns,
    },
    /** The realtime hub: `server.hub.registerCollection(...)` makes a collection live. */
    hub,
    app,
    api,
    httpServer,
    async listen(port = config.port, host = config.host): Promise<string> {
      // Read while listening: a stop that comes during the await below closes the socket.
      const address = await new Promise<AddressInfo>((resolve, reject) => {
        httpServer.once('error', reject);
        httpServer.listen(port, host, () => resolve(httpServer.address() as AddressInfo));
      });
      // `npm run restore` refuses while this mark is live (data/run/server-PID.json).
      unmarkRunning = await markRunning(config.dataDir, clock.now());
      return `http://localhost:${address.port}`;
    },
    /**
     * Graceful stop (docs/production.md "Upgrades"): readiness turns 503 and new requests are
     * refused with Retry-After, the listening socket closes, /ws clients get 1001 and reconnect
     * (elsewhere, behind a proxy) with their cursors; in-flight requests get SHUTDOWN_GRACE_MS
     * to finish before their connections are cut; then the background work stops, the change
     * feed delivers what it was told, and the bus and pool close.
     */
    async close(): Promise<void> {
      draining = true;
      const closed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      httpServer.closeIdleConnections?.();
      await hub.close();
      const cut = setTimeout(() => httpServer.closeAllConnections?.(), config.shutdownGraceMs);
      cut.unref?.();
      await closed;
      clearTimeout(cut);
      // Background imports stop before their next chunk (docs/registers.md).
      await registers.imports.stop();
      await backups?.stop();
      await campaigns.queue.stop();
      await reports.exports.stop();
      await mail.stop();
      await routing!.stop();
      await changes.idle();
      tenants.service.stop();
      mailer.close();
      changes.close();
      await bus.close();
      await checkpointer.stop();
      await closeDb(db);
      await unmarkRunning?.();
    },
  };
}

export type AppServer = Awaited<ReturnType<typeof createServer>>;
