import { existsSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Config } from './config';
import { systemClock, type Clock } from './clock';
import { createLogger, type Logger } from './logger';
import { closeDb, createDb, migrate, type Db } from './db/knex';
import { createUserRepository } from './db/repositories/user-repository';
import { createBlobStore } from './services/files/blob-store';
import { createMailer, type Mailer } from './services/mail/mailer';
import { createApp } from './web/app';
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
import { createMail, createMailOutbound } from './services/mail';
import { createApiTokens } from './services/api-tokens';
import { registerTenantRoutes } from './web/routes/tenants';
import { registerAuthRoutes } from './web/routes/auth';
import { registerPresenceRoutes } from './web/routes/presence';
import { registerRegistersRoutes } from './web/routes/registers';
import { registerIntegrationsRoutes } from './web/routes/integrations';
import { registerChatRoutes } from './web/routes/chat';
import { registerWhatsappRoutes } from './web/routes/whatsapp';
import { registerMailRoutes } from './web/routes/mail';
import { registerApiTokenRoutes } from './web/routes/api-tokens';
import { createDeadlineRepository } from './db/repositories/deadline-repository';
import { createStatusRepository } from './db/repositories/status-repository';
import { createScheduler } from './services/scheduler/scheduler';
import { createRouting, type Routing } from './services/routing';

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

  const mailer = options.mailer ?? (config.smtpUrl ? createMailer(config.smtpUrl, config.mailFrom, logger) : null);
  if (!mailer) throw new Error('createServer: no mailer. Set SMTP_URL or pass options.mailer (npm start starts a local catcher).');
  const bus = options.bus ?? (await createBus(config, db, logger));
  // Every write that clients should see live goes through feed.transaction (docs/realtime.md).
  const changes = createChangeFeed({ db, bus, clock, logger });
  const blobs = createBlobStore(path.join(config.dataDir, 'blobs'));
  const users = createUserRepository(db);

  // Each domain: services/<domain>/index.ts builds it, web/routes/<domain> serves it, and its
  // live collections go on the hub.
  const tenants = createTenants({ db, defaultTenant: config.defaultTenant, blobs });
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
    maxBufferedBytes: config.wsMaxBufferedBytes,
  });
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
    definitions: loadRegisterDefinitions([defaultRegistersDir(), ...config.registersDirs]),
  });
  // Integrations (docs/integrations.md): registers admins define live; records under /api/integration/{collection}.
  const integrations = createIntegrations({ db, changes, clock, logger, registers, hub });
  // The mail channel's SMTP side (docs/email.md), handed to the chat's sends.
  const mailOutbound = createMailOutbound({ db, blobs, logger });
  // Chat (docs/chat.md): rooms, messages, search, counters, the web-chat channel; live `rooms` and `messages`.
  const chat = createChat({
    db, changes, clock, logger, blobs, tokens: auth.tokens, adapterSenders: { mail: mailOutbound.sender },
    // Provider channels (docs/channels.md): SSRF-safe; loopback only for PROVIDER_TRUSTED_HOSTS.
    providers: { fetch: createSafeFetch({ trustedHosts: config.providerTrustedHosts }), publicUrl: config.publicUrl },
  });
  // Routing (docs/routing.md): assignment rules, caps, waiting, automatic rules, business hours, contingencies.
  routing = createRouting({
    db, feed: changes, clock, logger, scheduler, rooms: chat.deps.rooms, messages: chat.deps.messages, directory: chat.deps.directory,
    statuses: createStatusRepository(db),
    senderFor: (room) => chat.deps.senderFor(room),
    dispatch: (tenantId, messageId) => chat.messages.dispatch(tenantId, messageId),
  });
  chat.useHooks(routing.chatHooks);
  // Provider webhooks, templates, media and 'Mensagem Ativa' (docs/whatsapp.md).
  const whatsapp = createWhatsapp({ chat });
  // E-mail channel (docs/email.md): a watcher per mailbox (IMAP in), replies (SMTP out).
  const mail = createMail({ chat, outbound: mailOutbound });
  // API tokens (docs/api.md): the API screen's tokens, checked on every /api route.
  const apiTokens = createApiTokens({ db, users, clock, registers: registers.registers.definitions });

  for (const domain of [presence, registers, integrations, chat]) {
    for (const collection of domain.liveCollections) hub.registerCollection(collection);
  }
  presence.service.start(15_000);
  routing.start({ schedulerPollMs: config.schedulerPollMs, sweepMs: config.routingSweepSeconds * 1000 });
  if (options.startMail !== false) mail.start();
  const pruner = startChangeLogPruner({ changes, clock, logger, retentionMs: config.changeLogRetentionHours * 3_600_000, everyMs: 10 * 60_000 });

  const { app, api } = createApp({
    logger,
    auth: auth.service,
    tenants: tenants.service,
    staticDir: config.staticDir ?? defaultStaticDir(),
    trustProxy: config.trustProxy,
    apiTokens: apiTokens.service,
    routes: [
      (registry) => registerTenantRoutes(registry, tenants),
      (registry) => registerAuthRoutes(registry, auth),
      (registry) => registerPresenceRoutes(registry, presence),
      (registry) => registerRegistersRoutes(registry, registers),
      (registry) => registerIntegrationsRoutes(registry, integrations),
      (registry) => registerChatRoutes(registry, chat),
      (registry) => registerWhatsappRoutes(registry, whatsapp),
      (registry) => registerMailRoutes(registry, mail, chat),
      (registry) => registerApiTokenRoutes(registry, apiTokens),
    ],
  });
  const httpServer = http.createServer(app.callback());
  hub.attach(httpServer);
  httpServer.once('close', () => {
    presence.service.stop();
    pruner.stop();
    void routing!.stop();
    void mail.stop();
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
    repos: { tenants: tenants.repo, users, sessions: auth.sessions },
    services: {
      apiTokens: apiTokens.service, auth: auth.service, tenants: tenants.service, blobs, tokens: auth.tokens, mailer, changes, bus, hub,
      presence: presence.service, pruner, registers, chat, whatsapp, mail, integrations, routing, scheduler,
    },
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
      await mail.stop();
      await routing!.stop();
      await hub.close();
      await new Promise<void>((resolve) => {
        httpServer.closeAllConnections?.();
        httpServer.close(() => resolve());
      });
      mailer.close();
      changes.close();
      await bus.close();
      await closeDb(db);
    },
  };
}

export type AppServer = Awaited<ReturnType<typeof createServer>>;
