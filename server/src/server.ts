import { existsSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Config } from './config';
import { systemClock, type Clock } from './clock';
import { createLogger, type Logger } from './logger';
import { createDb, migrate, type Db } from './db/knex';
import { createTenantRepository } from './db/repositories/tenant-repository';
import { createUserRepository } from './db/repositories/user-repository';
import { createSessionRepository } from './db/repositories/session-repository';
import { createAccessLinkRepository } from './db/repositories/access-link-repository';
import { createAuthService } from './services/auth/auth-service';
import { createTokenService } from './services/auth/tokens';
import { createRateLimiter } from './services/auth/rate-limiter';
import { createTenantService } from './services/tenants/tenant-service';
import { createBlobStore } from './services/files/blob-store';
import { createMailer, type Mailer } from './services/mail/mailer';
import { createApp } from './web/app';
import { createChangeFeed } from './services/changes/change-feed';
import type { ChangeBus } from './services/changes/change-bus';
import { createBus } from './services/changes/create-bus';
import { startChangeLogPruner } from './services/changes/change-log-pruner';
import { createHub } from './hub/hub';
import { createStatusRepository } from './db/repositories/status-repository';
import { createPresenceService } from './services/presence/presence-service';
import { registerPresenceRoutes } from './web/routes/presence-routes';
import { createRegisters } from './services/registers';
import { defaultRegistersDir, loadRegisterDefinitions } from './services/registers/definition-loader';
import { createChat } from './services/chat';
import { createIntegrations } from './services/integrations';
import { registerChatRoomRoutes } from './web/routes/chat-room-routes';
import { registerChatWebchatRoutes } from './web/routes/chat-webchat-routes';
import { registerWhatsappWebhookRoutes } from './web/routes/whatsapp-webhook-routes';
import { createSafeFetch } from './services/http/safe-fetch';
import { createApiTokenService } from './services/api-tokens/api-token-service';
import { registerApiTokenRoutes } from './web/routes/api-token-routes';
import { createDeadlineRepository } from './db/repositories/deadline-repository';
import { createScheduler } from './services/scheduler/scheduler';
import { createRouting, type Routing } from './services/routing';

const here = path.dirname(fileURLToPath(import.meta.url));

/** engine/dist next to this package, when it has been built. */
export function defaultStaticDir(): string | null {
  const dist = path.resolve(here, '../../engine/dist');
  return existsSync(dist) ? dist : null;
}

export interface ServerOptions {
  config: Config;
  clock?: Clock;
  logger?: Logger;
  db?: Db;
  mailer?: Mailer;
  /** Change bus between processes; defaults to the one config.bus names. */
  bus?: ChangeBus;
}

/**
 * Wires every domain with its dependencies (Ghost-style: passed in, not imported), so tests
 * build the same server with a manual clock or another database.
 */
export async function createServer(options: ServerOptions) {
  const { config } = options;
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createLogger(config.logLevel);
  const db = options.db ?? createDb(config);
  await migrate(db, config.databaseSchema);

  const repos = {
    tenants: createTenantRepository(db),
    users: createUserRepository(db),
    sessions: createSessionRepository(db),
    links: createAccessLinkRepository(db),
  };
  const mailer = options.mailer ?? (config.smtpUrl ? createMailer(config.smtpUrl, config.mailFrom, logger) : null);
  if (!mailer) throw new Error('createServer: no mailer. Set SMTP_URL or pass options.mailer (npm start starts a local catcher).');
  const bus = options.bus ?? (await createBus(config, db, logger));
  // Every write that clients should see live goes through feed.transaction (docs/realtime.md).
  const changes = createChangeFeed({ db, bus, clock, logger });
  const tenants = createTenantService(repos.tenants, { defaultTenant: config.defaultTenant });
  const blobs = createBlobStore(path.join(config.dataDir, 'blobs'));
  const tokens = createTokenService(config.jwtSecret, config.accessTokenTtlSeconds);
  const auth = createAuthService({
    users: repos.users,
    sessions: repos.sessions,
    links: repos.links,
    tokens,
    mailer,
    clock,
    logger,
    accountLimiter: createRateLimiter(clock, { max: config.loginMaxPerAccount, windowSeconds: config.loginWindowSeconds }),
    ipLimiter: createRateLimiter(clock, { max: config.loginMaxPerIp, windowSeconds: config.loginWindowSeconds }),
    refreshTtlSeconds: config.refreshTokenTtlSeconds,
    linkTtlSeconds: config.linkTtlSeconds,
    appUrl: () => config.publicUrl,
    findPublicRoom: async (tenantId, publicToken) => {
      const row = await db('rooms').where({ tenant_id: tenantId, public_token: publicToken }).whereNull('deleted_at').first('id');
      return row ? String(row.id) : null;
    },
  });

  // Realtime (docs/realtime.md): the hub on /ws; domains register their live collections on it.
  const hub = createHub({
    changes,
    auth,
    tenants,
    clock,
    logger,
    trustProxy: config.trustProxy,
    heartbeatMs: config.wsHeartbeatSeconds * 1000,
    maxBufferedBytes: config.wsMaxBufferedBytes,
  });
  const statuses = createStatusRepository(db);
  const presence = createPresenceService({ db, changes, statuses, clock, logger });
  for (const collection of presence.collections) hub.registerCollection(collection);
  presence.start(15_000);
  // The clock (docs/routing.md): every time-based rule is a row in `deadlines`.
  const scheduler = createScheduler({ db, deadlines: createDeadlineRepository(db), feed: changes, clock, logger });
  // Routing needs the chat; registers (contingencies) need routing first: wired through this slot.
  let routing: Routing | null = null;
  // Registers (docs/registers.md): one folder per register under schemas/registers (+ REGISTERS_DIRS).
  const registers = createRegisters({
    db, changes, clock, logger, blobs, mailer,
    scheduleContingencyEnd: (trx, tenantId, contingency) => routing!.scheduleContingencyEnd(trx, tenantId, contingency),
    sendSignInLink: (tenant, userId) => auth.sendSignInLink(tenant, userId),
    definitions: loadRegisterDefinitions([defaultRegistersDir(), ...config.registersDirs]),
  });
  for (const collection of registers.liveCollections()) hub.registerCollection(collection);
  // Integrations (docs/integrations.md): registers admins define live; records under /api/integration/{collection}.
  const integrations = createIntegrations({ db, changes, clock, logger, registers, hub });
  for (const collection of integrations.liveCollections) hub.registerCollection(collection);
  // Chat (docs/chat.md): rooms, messages, search, counters, the web-chat channel; live `rooms` and `messages`.
  const chat = createChat({
    db, changes, clock, logger, blobs, tokens,
    // WhatsApp providers (docs/whatsapp.md): SSRF-safe; loopback only for PROVIDER_TRUSTED_HOSTS.
    whatsapp: { fetch: createSafeFetch({ trustedHosts: config.providerTrustedHosts }), publicUrl: config.publicUrl },
  });
  for (const collection of chat.liveCollections) hub.registerCollection(collection);
  // Routing (docs/routing.md): assignment rules, caps, waiting, automatic rules, business hours, contingencies.
  routing = createRouting({
    db, feed: changes, clock, logger, scheduler, rooms: chat.deps.rooms, messages: chat.deps.messages, directory: chat.deps.directory, statuses,
    senderFor: (room) => chat.deps.senderFor(room),
    dispatch: (tenantId, messageId) => chat.messages.dispatch(tenantId, messageId),
  });
  chat.useHooks(routing.chatHooks);
  routing.start({ schedulerPollMs: config.schedulerPollMs, sweepMs: config.routingSweepSeconds * 1000 });
  const pruner = startChangeLogPruner({ changes, clock, logger, retentionMs: config.changeLogRetentionHours * 3_600_000, everyMs: 10 * 60_000 });

  // API tokens (docs/api.md): the API screen's tokens, checked on every /api route.
  const apiTokens = createApiTokenService({ db, users: repos.users, clock });
  const { app, api } = createApp({
    logger,
    auth,
    tenants,
    blobs,
    staticDir: config.staticDir ?? defaultStaticDir(),
    trustProxy: config.trustProxy,
    apiTokens,
    extraRoutes: [
      (registry) => registerPresenceRoutes(registry, presence),
      (registry) => registers.routes(registry),
      (registry) => integrations.routes(registry),
      (registry) => registerChatRoomRoutes(registry, chat),
      (registry) => registerChatWebchatRoutes(registry, chat),
      (registry) => registerWhatsappWebhookRoutes(registry, chat),
      (registry) => registerApiTokenRoutes(registry, { tokens: apiTokens, registers: registers.registers.definitions }),
    ],
  });
  const httpServer = http.createServer(app.callback());
  hub.attach(httpServer);
  httpServer.once('close', () => {
    presence.stop();
    pruner.stop();
    void routing!.stop();
  });
  // Slow-loris protection without cutting long uploads short.
  httpServer.headersTimeout = 20_000;
  httpServer.requestTimeout = 10 * 60_000;
  httpServer.keepAliveTimeout = 65_000;

  return {
    config,
    clock,
    logger,
    db,
    repos,
    services: { apiTokens, auth, tenants, blobs, tokens, mailer, changes, bus, hub, presence, pruner, registers, chat, integrations, routing, scheduler },
    /** The realtime hub: `server.hub.registerCollection(...)` makes a collection live. */
    hub,
    app,
    api,
    httpServer,
    async listen(port = config.port, host = config.host): Promise<string> {
      await new Promise<void>((resolve, reject) => {
        httpServer.once('error', reject);
        httpServer.listen(port, host, () => resolve());
      });
      const address = httpServer.address() as AddressInfo;
      return `http://localhost:${address.port}`;
    },
    async close(): Promise<void> {
      await routing!.stop();
      await hub.close();
      await new Promise<void>((resolve) => {
        httpServer.closeAllConnections?.();
        httpServer.close(() => resolve());
      });
      mailer.close();
      changes.close();
      await bus.close();
      await db.destroy();
    },
  };
}

export type AppServer = Awaited<ReturnType<typeof createServer>>;
