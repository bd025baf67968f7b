import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { decodeJwt } from 'jose';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { CLOSE_CODES, format, messages, parseClientFrame, REALTIME_LIMITS, type ClientFrame, type GoingAwayFrame, type SubscribeFrame } from '@atendimento/schemas';
import type { Clock } from '../clock';
import type { Logger } from '../logger';
import type { TenantRow } from '../db/repositories/tenant-repository';
import type { AuthService, Principal } from '../services/auth/auth-service';
import type { ChangeFeed } from '../services/changes/change-feed';
import type { TenantService } from '../services/tenants/tenant-service';
import { revocationOf, SESSIONS_COLLECTION, type Revoked } from './session-revocations';
import { AppError } from '../errors';
import type { LiveCollection } from '../services/changes/live-collection';
import { createSubscriptionEngine, Subscription, type SubscriptionOwner } from './subscription-engine';
import { routePath } from '../web/path-rule';

interface HubOptions {
  changes: ChangeFeed;
  auth: AuthService;
  tenants: TenantService;
  clock: Clock;
  logger: Logger;
  /** Take the tenant host from X-Forwarded-Host (behind a reverse proxy), like the HTTP app. */
  trustProxy?: boolean;
  /** Ping every socket this often; a socket that did not answer the previous ping is dropped. */
  heartbeatMs?: number;
  /** A socket whose unsent bytes pass this is dropped (slow consumer), so it cannot hold memory. */
  maxBufferedBytes?: number;
  authTimeoutMs?: number;
  maxSubscriptions?: number;
  /** Resumes further behind than this many changes get a fresh snapshot. */
  maxReplay?: number;
  /** Open /ws sockets per client address (0 = no cap; docs/security.md "Limits"). */
  maxSocketsPerAddress?: number;
  /**
   * On graceful stop each socket gets `goingAway { retryInMs }` before the 1001 close: a random
   * delay in [minMs, minMs + spreadMs), so a fleet of clients does not reconnect in one instant.
   */
  goingAwayRetry?: { minMs: number; spreadMs: number };
}

/** A token about to expire gets `auth.expiring` this long before. */
const EXPIRY_WARNING_MS = 60_000;
const CONNECTION = Symbol('connection');

type HubSocket = WebSocket & { [CONNECTION]?: Connection };

/** Close reasons are limited to 123 bytes by the protocol. */
function reasonText(text: string): string {
  let out = text;
  while (Buffer.byteLength(out) > 123) out = out.slice(0, -1);
  return out;
}

/**
 * One socket. Kept small on purpose (B5 measures memory per idle socket): no closures per
 * socket, subscriptions allocated on first use.
 */
class Connection implements SubscriptionOwner {
  principal!: Principal;
  authenticated = false;
  authing = false;
  /** Frames that arrived while the first `auth` was being checked. */
  queued: ClientFrame[] | null = null;
  expiresAt = 0;
  warned = false;
  alive = true;
  closed = false;
  subs: Map<string, Subscription> | null = null;
  authTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    readonly hub: HubInternals,
    readonly ws: HubSocket,
    public tenant: TenantRow,
    readonly host: string,
  ) {}

  send(frame: string | Buffer): void {
    if (this.closed || this.ws.readyState !== WebSocket.OPEN) return;
    if (this.ws.bufferedAmount > this.hub.maxBufferedBytes) {
      this.hub.dropSlow(this);
      return;
    }
    this.ws.send(frame, { binary: false });
  }

  fail(reason: string): void {
    this.close(1011, reason);
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.ws.close(code, reasonText(reason));
  }
}

interface HubInternals {
  maxBufferedBytes: number;
  dropSlow(conn: Connection): void;
}

/**
 * The realtime hub on `/ws` (docs/realtime.md): authenticates each socket with a first `auth`
 * frame, routes subscribe / unsubscribe to the subscription engine, pings, drops slow and dead
 * sockets, and closes with a clear code and pt-BR reason when access ends.
 */
export function createHub(options: HubOptions) {
  const { changes, auth, tenants, clock, logger } = options;
  const heartbeatMs = options.heartbeatMs ?? 30_000;
  const authTimeoutMs = options.authTimeoutMs ?? REALTIME_LIMITS.authTimeoutMs;
  const maxSubscriptions = options.maxSubscriptions ?? REALTIME_LIMITS.maxSubscriptions;
  const engine = createSubscriptionEngine({ changes, logger, maxReplay: options.maxReplay });
  const connections = new Set<Connection>();
  const wss = new WebSocketServer({
    noServer: true,
    // Compression costs CPU and ~300 KB per socket with context takeover; our frames are small.
    perMessageDeflate: false,
    maxPayload: REALTIME_LIMITS.maxFrameBytes,
    clientTracking: false,
  });
  let heartbeat: ReturnType<typeof setInterval> | null = null;
  let closing = false;
  let slowDrops = 0;
  const maxPerAddress = options.maxSocketsPerAddress ?? 0;
  const perAddress = new Map<string, number>();
  const goingAwayRetry = options.goingAwayRetry ?? { minMs: 250, spreadMs: 2_000 };

  const internals: HubInternals = {
    maxBufferedBytes: options.maxBufferedBytes ?? 8 * 1024 * 1024,
    dropSlow(conn) {
      if (conn.closed) return;
      slowDrops++;
      logger.warn({ tenantId: conn.tenant.id, buffered: conn.ws.bufferedAmount }, 'hub.slow_consumer_dropped');
      conn.closed = true;
      // Its buffer is full, so a close frame would wait behind it: cut the connection now.
      conn.ws.terminate();
    },
  };

  const unlisten = changes.onChanges((tenantId, events) => {
    // A tenant switched off (`npm run tenant -- disable`, docs/tenancy.md) records an
    // 'appConfig' change: its open sockets are closed with 4403 'Acesso Desabilitado.' at once.
    if (events.some((e) => e.collection === 'appConfig')) void closeIfInactive(tenantId);
    // Sessions ended in any process (session-revocations.ts): close this process's sockets of them.
    for (const e of events) {
      const revoked = e.collection === SESSIONS_COLLECTION ? revocationOf(e.id) : null;
      if (revoked) closeSessions(tenantId, revoked);
    }
    return engine.onChanges(tenantId, events);
  });

  /**
   * Closes at once this process's sockets of sessions that ended: sign-out, refresh-family
   * revoke, a user disabled or deleted. Without this they streamed until the access token
   * expired. Other processes do the same when the `sessions` change reaches them.
   */
  function closeSessions(tenantId: string, revoked: Revoked): number {
    let closed = 0;
    for (const conn of connections) {
      if (conn.closed || !conn.authenticated || conn.tenant.id !== tenantId) continue;
      const p = conn.principal;
      if (p.kind !== 'user') continue;
      const match = 'sessionIds' in revoked ? revoked.sessionIds.includes(p.sessionId) : p.user.id === revoked.userId;
      if (!match) continue;
      const disabled = !('sessionIds' in revoked) && revoked.disabled;
      conn.close(disabled ? CLOSE_CODES.forbidden : CLOSE_CODES.unauthorized, disabled ? messages.auth.userDisabled : messages.auth.sessionExpired);
      closed++;
    }
    return closed;
  }

  async function closeIfInactive(tenantId: string): Promise<void> {
    const open = [...connections].filter((c) => c.tenant.id === tenantId && !c.closed);
    if (open.length === 0) return;
    try {
      const tenant = await tenants.resolve(open[0]!.host);
      if (tenant && tenant.active) return;
      for (const conn of open) conn.close(CLOSE_CODES.forbidden, messages.tenant.blockedDetail);
    } catch (error) {
      logger.warn({ err: error, tenantId }, 'hub.tenant_check_failed');
    }
  }

  function sendJson(conn: Connection, frame: object): void {
    conn.send(JSON.stringify(frame));
  }

  function closeForAuthError(conn: Connection, err: unknown): void {
    if (err instanceof AppError) {
      if (err.code === 'token_expired') return conn.close(CLOSE_CODES.tokenExpired, messages.auth.sessionExpired);
      if (err.status === 401) return conn.close(CLOSE_CODES.unauthorized, err.errorMessage);
      if (err.status === 403) return conn.close(CLOSE_CODES.forbidden, err.errorMessage);
    }
    logger.error({ err }, 'hub.auth_failed');
    conn.close(1011, messages.errors.internal);
  }

  function expiryOf(token: string): number {
    const exp = decodeJwt(token).exp;
    return typeof exp === 'number' ? exp * 1000 : 0;
  }

  /** What, if changed by a token refresh, changes what this socket may see. */
  function scopeOf(p: Principal): string {
    if (p.kind === 'anonymous') return `anon:${p.roomId}`;
    return JSON.stringify([p.user.id, p.user.claims, p.user.team, p.agentOf, p.supervisorOf, p.user.showChatsWithTags]);
  }

  function sameIdentity(a: Principal, b: Principal): boolean {
    if (a.kind === 'anonymous' || b.kind === 'anonymous') return a.kind === b.kind && a.kind === 'anonymous' && b.kind === 'anonymous' && a.roomId === b.roomId;
    return a.user.id === b.user.id;
  }

  async function authenticate(conn: Connection, token: string): Promise<void> {
    conn.authing = true;
    let principal: Principal;
    try {
      principal = await auth.authenticate(conn.tenant, token);
    } catch (err) {
      closeForAuthError(conn, err);
      return;
    } finally {
      conn.authing = false;
    }
    if (conn.closed) return;
    if (conn.authTimer) clearTimeout(conn.authTimer);
    conn.authTimer = null;
    conn.principal = principal;
    conn.authenticated = true;
    conn.expiresAt = expiryOf(token);
    conn.warned = false;
    sendReady(conn);
    const queued = conn.queued;
    conn.queued = null;
    for (const frame of queued ?? []) handle(conn, frame);
  }

  async function reauthenticate(conn: Connection, token: string): Promise<void> {
    let principal: Principal;
    try {
      const tenant = await tenants.resolve(conn.host);
      if (!tenant || !tenant.active) return conn.close(CLOSE_CODES.forbidden, messages.tenant.blockedDetail);
      conn.tenant = tenant;
      principal = await auth.authenticate(conn.tenant, token);
    } catch (err) {
      closeForAuthError(conn, err);
      return;
    }
    if (conn.closed) return;
    if (!sameIdentity(conn.principal, principal)) return conn.close(CLOSE_CODES.unauthorized, messages.realtime.anotherUser);
    const rescope = scopeOf(conn.principal) !== scopeOf(principal);
    conn.principal = principal;
    conn.expiresAt = expiryOf(token);
    conn.warned = false;
    sendReady(conn);
    if (rescope && conn.subs) {
      // Claims or departments changed: every query is resolved again and starts from a snapshot.
      for (const sub of [...conn.subs.values()]) subscribe(conn, { ...sub.frame, cursor: undefined, ids: undefined });
    }
  }

  function sendReady(conn: Connection): void {
    const p = conn.principal;
    sendJson(conn, {
      type: 'ready',
      userId: p.kind === 'user' ? p.user.id : null,
      roomId: p.kind === 'anonymous' ? p.roomId : null,
      expiresAt: new Date(conn.expiresAt).toISOString(),
    });
  }

  function subscribe(conn: Connection, frame: SubscribeFrame): void {
    if (clock.now().getTime() >= conn.expiresAt) return conn.close(CLOSE_CODES.tokenExpired, messages.auth.sessionExpired);
    const collection = engine.collections.get(frame.collection);
    if (!collection) {
      sendJson(conn, { type: 'error', id: frame.id, error: 'unknown_collection', errorMessage: format(messages.realtime.unknownCollection, { collection: frame.collection }) });
      return;
    }
    conn.subs ??= new Map();
    const previous = conn.subs.get(frame.id);
    if (previous) engine.remove(previous);
    else if (conn.subs.size >= maxSubscriptions) {
      sendJson(conn, { type: 'error', id: frame.id, error: 'too_many_subscriptions', errorMessage: messages.realtime.tooManySubscriptions });
      return;
    }
    if (frame.ids && frame.ids.length > REALTIME_LIMITS.maxResumeIds) frame = { ...frame, cursor: undefined, ids: undefined };
    const sub = new Subscription(conn, frame.id, collection, frame);
    conn.subs.set(frame.id, sub);
    void engine.start(sub).then(() => {
      if (sub.state === 'closed' && conn.subs?.get(frame.id) === sub) conn.subs.delete(frame.id);
    });
  }

  function handle(conn: Connection, frame: ClientFrame): void {
    if (conn.closed) return;
    if (!conn.authenticated) {
      if (frame.type === 'ping') return sendJson(conn, { type: 'pong', ...(frame.t !== undefined && { t: frame.t }) });
      if (conn.authing) {
        // A client may send subscribes right behind its auth frame.
        conn.queued ??= [];
        if (conn.queued.length >= maxSubscriptions) return conn.close(CLOSE_CODES.protocolError, messages.realtime.protocolError);
        conn.queued.push(frame);
        return;
      }
      if (frame.type !== 'auth') return conn.close(CLOSE_CODES.unauthorized, messages.auth.notAuthenticated);
      void authenticate(conn, frame.token);
      return;
    }
    switch (frame.type) {
      case 'auth':
        void reauthenticate(conn, frame.token);
        return;
      case 'subscribe':
        return subscribe(conn, frame);
      case 'unsubscribe': {
        const sub = conn.subs?.get(frame.id);
        if (sub) {
          engine.remove(sub);
          conn.subs!.delete(frame.id);
        }
        return;
      }
      case 'ping':
        return sendJson(conn, { type: 'pong', ...(frame.t !== undefined && { t: frame.t }) });
    }
  }

  // Shared handlers (no closure per socket): `this` is the socket.
  function onMessage(this: HubSocket, data: RawData, isBinary: boolean): void {
    const conn = this[CONNECTION];
    if (!conn) return;
    conn.alive = true;
    const frame = isBinary ? null : parseClientFrame(data.toString());
    if (!frame) return conn.close(CLOSE_CODES.protocolError, messages.realtime.protocolError);
    handle(conn, frame);
  }

  function onPong(this: HubSocket): void {
    const conn = this[CONNECTION];
    if (conn) conn.alive = true;
  }

  function onClose(this: HubSocket): void {
    const conn = this[CONNECTION];
    if (!conn) return;
    conn.closed = true;
    if (conn.authTimer) clearTimeout(conn.authTimer);
    for (const sub of conn.subs?.values() ?? []) engine.remove(sub);
    conn.subs = null;
    connections.delete(conn);
    delete this[CONNECTION];
  }

  function onSocketError(this: HubSocket, err: Error): void {
    logger.debug({ err }, 'hub.socket_error');
  }

  function onAuthTimeout(conn: Connection): void {
    conn.authTimer = null;
    if (!conn.authenticated) conn.close(CLOSE_CODES.authTimeout, messages.realtime.authTimeout);
  }

  function hostOf(req: http.IncomingMessage): string {
    const forwarded = options.trustProxy ? req.headers['x-forwarded-host'] : undefined;
    const value = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim() || req.headers.host || '';
    return value;
  }

  async function onUpgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => socket.destroy());
    const path = routePath((req.url ?? '').split('?')[0] ?? '');
    if (path !== '/ws' || closing) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    if (maxPerAddress > 0) {
      // Counted from the upgrade request until the socket closes.
      const address = req.socket.remoteAddress ?? 'unknown';
      const count = perAddress.get(address) ?? 0;
      if (count >= maxPerAddress) {
        socket.end('HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      perAddress.set(address, count + 1);
      socket.once('close', () => {
        const left = (perAddress.get(address) ?? 1) - 1;
        if (left <= 0) perAddress.delete(address);
        else perAddress.set(address, left);
      });
    }
    const host = hostOf(req);
    let tenant: TenantRow | null;
    try {
      tenant = await tenants.resolve(host);
    } catch (err) {
      logger.error({ err }, 'hub.tenant_lookup_failed');
      socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    if (socket.destroyed) return;
    // Browsers cannot read an HTTP refusal of a WebSocket, so refusals are close codes.
    wss.handleUpgrade(req, socket, head, (raw) => {
      const ws = raw as HubSocket;
      ws.on('error', onSocketError);
      if (!tenant) return void ws.close(CLOSE_CODES.tenantNotFound, reasonText(messages.tenant.notFound));
      if (!tenant.active) return void ws.close(CLOSE_CODES.forbidden, reasonText(messages.tenant.blockedDetail));
      const conn = new Connection(internals, ws, tenant, host);
      ws[CONNECTION] = conn;
      connections.add(conn);
      ws.on('message', onMessage);
      ws.on('pong', onPong);
      ws.on('close', onClose);
      conn.authTimer = setTimeout(onAuthTimeout, authTimeoutMs, conn);
    });
  }

  /** Closes sockets whose token expired and warns those about to expire. */
  function checkTokens(): void {
    const now = clock.now().getTime();
    for (const conn of connections) {
      if (!conn.authenticated || conn.closed) continue;
      if (now >= conn.expiresAt) conn.close(CLOSE_CODES.tokenExpired, messages.auth.sessionExpired);
      else if (!conn.warned && conn.expiresAt - now <= EXPIRY_WARNING_MS) {
        conn.warned = true;
        sendJson(conn, { type: 'auth.expiring', expiresAt: new Date(conn.expiresAt).toISOString() });
      }
    }
  }

  /** One heartbeat: drop sockets that missed the last ping, ping the rest, check tokens. */
  function sweep(): void {
    for (const conn of connections) {
      if (!conn.alive) {
        logger.debug({ tenantId: conn.tenant.id }, 'hub.dead_peer_dropped');
        conn.closed = true;
        conn.ws.terminate();
        continue;
      }
      conn.alive = false;
      if (conn.ws.readyState === WebSocket.OPEN) conn.ws.ping();
    }
    checkTokens();
  }

  return {
    registerCollection: (collection: LiveCollection) => engine.registerCollection(collection),
    /** Names of the subscribable collections. */
    collectionNames: () => [...engine.collections.keys()],

    /** Serves `/ws` on the app's HTTP server. */
    attach(server: http.Server): void {
      server.on('upgrade', (req, socket, head) => void onUpgrade(req, socket, head));
      if (heartbeatMs > 0 && !heartbeat) {
        heartbeat = setInterval(sweep, heartbeatMs);
        heartbeat.unref?.();
      }
      server.once('close', () => {
        if (heartbeat) clearInterval(heartbeat);
        heartbeat = null;
      });
    },

    sweep,
    checkTokens,

    closeSessions,

    /** Resolves when every queued batch and subscription start has run (tests). */
    idle: () => engine.idle(),

    stats() {
      let authenticated = 0;
      for (const c of connections) if (c.authenticated) authenticated++;
      return { connections: connections.size, authenticated, slowDrops, ...engine.stats() };
    },

    /**
     * Sends every socket `goingAway { retryInMs }` (jittered per socket), closes it with 1001
     * (clients reconnect elsewhere after the hint) and stops the heartbeat.
     */
    async close(): Promise<void> {
      closing = true;
      if (heartbeat) clearInterval(heartbeat);
      heartbeat = null;
      unlisten();
      const open = [...connections].map((c) => c.ws);
      for (const c of connections) {
        const retryInMs = goingAwayRetry.minMs + Math.floor(Math.random() * goingAwayRetry.spreadMs);
        c.send(JSON.stringify({ type: 'goingAway', retryInMs } satisfies GoingAwayFrame));
        c.close(CLOSE_CODES.goingAway, messages.realtime.goingAway);
      }
      await Promise.race([
        Promise.all(open.map((ws) => (ws.readyState === WebSocket.CLOSED ? null : new Promise((resolve) => ws.once('close', resolve))))),
        new Promise((resolve) => setTimeout(resolve, 1_000).unref?.()),
      ]);
      for (const ws of open) if (ws.readyState !== WebSocket.CLOSED) ws.terminate();
      wss.close();
    },
  };
}

export type Hub = ReturnType<typeof createHub>;
