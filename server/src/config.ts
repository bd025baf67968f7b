import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Typed server configuration, read once from the environment (docs/configuration.md). */
export interface Config {
  port: number;
  host: string;
  /** Public base URL used in e-mailed links; defaults to http://localhost:PORT. */
  publicUrl: string;
  /**
   * host:port pairs outbound calls may reach although they are loopback/private (the local
   * provider servers of tests and `npm start`): PROVIDER_TRUSTED_HOSTS, comma-separated.
   * Empty in production: channel base URLs never bypass the SSRF rules by themselves.
   */
  providerTrustedHosts: string[];
  dataDir: string;
  /** postgres://... selects PostgreSQL; otherwise SQLite at sqliteFile. */
  databaseUrl: string | null;
  /** PostgreSQL schema to use (tests give each run its own). */
  databaseSchema: string | null;
  sqliteFile: string;
  jwtSecret: string;
  /** Key of channel secrets at rest (SECRETS_KEY; docs/channels.md "Secrets"). */
  secretsKey: string;
  /** Where secretsKey came from, so `npm start` can say it. */
  secretsKeySource: 'env' | 'file' | 'generated';
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  linkTtlSeconds: number;
  defaultTenant: string;
  smtpUrl: string | null;
  mailFrom: string;
  logLevel: string;
  bus: 'memory' | 'pg' | 'redis';
  redisUrl: string;
  /** Login rate limit: attempts per window, per account and per IP. */
  loginMaxPerAccount: number;
  loginMaxPerIp: number;
  loginWindowSeconds: number;
  /** Public sign-ups per address per window (docs/security.md). */
  signUpMaxPerIp: number;
  signUpWindowSeconds: number;
  /** Folder with the built single-page app (engine/dist). */
  staticDir: string | null;
  /** Trust X-Forwarded-For / X-Forwarded-Host from a reverse proxy. */
  trustProxy: boolean;
  /** Realtime hub (docs/realtime.md): ping interval, slow-consumer cap, change-log retention. */
  wsHeartbeatSeconds: number;
  /**
   * Connection limits (docs/security.md "Limits"): open HTTP connections and /ws
   * sockets per client address (0 = no cap; behind a reverse proxy every client has the
   * proxy's address, so set both to 0 there and let the proxy limit per client).
   */
  connMaxPerIp: number;
  wsMaxPerIp: number;
  /**
   * Bytes of uploads in flight (docs/security.md "Limits"): per process, and per client
   * address (0 = no per-address share), so one visitor cannot hold the whole budget.
   */
  uploadsInFlightMaxBytes: number;
  uploadsInFlightMaxPerIpBytes: number;
  /** Seconds a client has to send the request headers (slow-loris). */
  headersTimeoutSeconds: number;
  /** Seconds a connection may stay silent mid-request or idle (a body trickling one byte a minute). */
  idleTimeoutSeconds: number;
  /** Seconds one request may take in all (a 100 MB upload on a slow line fits). */
  requestTimeoutSeconds: number;
  wsMaxBufferedBytes: number;
  changeLogRetentionHours: number;
  /** Routing's clock (docs/routing.md): how often due deadlines are looked for, and the queue safety sweep. */
  schedulerPollMs: number;
  /** Campaign send queue (docs/campaigns.md): default messages per second per channel, and how long a send without answer waits for a receipt before it is sent again. */
  campaignRatePerSecond: number;
  campaignLeaseSeconds: number;
  routingSweepSeconds: number;
  /** Dashboard export (docs/exports.md): files up to this size go attached; larger ones as a 24 h link. */
  exportAttachMaxBytes: number;
  /**
   * Google sign-in (docs/auth.md "Google"): the OpenID client of the deployment. The issuer is
   * Google's unless GOOGLE_ISSUER names another (the local stand-in of tests and `npm start`).
   */
  google: { clientId: string; clientSecret: string; issuer: string } | null;
  /** Extra directories of register folders (REGISTERS_DIRS, ':'-separated), after schemas/registers. */
  registersDirs: string[];
  /** Backups (docs/production.md): where `npm run backup` and the scheduled backup write, how often (0 = off), how many are kept. */
  backupDir: string;
  backupEveryHours: number;
  backupKeep: number;
  /** GET /metrics: a bearer token (METRICS_TOKEN); without one, only loopback/private-network callers. */
  metricsToken: string | null;
  /** Graceful stop: how long in-flight requests may take before connections are cut. */
  shutdownGraceMs: number;
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`config: ${name}="${raw}" is not a non-negative integer. Fix or unset it.`);
  }
  return value;
}

/**
 * The JWT secret: JWT_SECRET when set; otherwise one generated on first start and kept in
 * data/, so a restart keeps everyone signed in without anyone having to invent a secret.
 */
function jwtSecret(env: NodeJS.ProcessEnv, dataDir: string): string {
  if (env.JWT_SECRET) {
    if (env.JWT_SECRET.length < 32) throw new Error('config: JWT_SECRET must have at least 32 characters.');
    return env.JWT_SECRET;
  }
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/**
 * The channel-secrets key: SECRETS_KEY when set. Without it, production settings
 * (NODE_ENV=production) refuse to start, since a key generated on one machine would leave
 * every other process unable to open the secrets; elsewhere one is generated into DATA_DIR.
 */
function secretsKey(env: NodeJS.ProcessEnv, dataDir: string): { key: string; source: Config['secretsKeySource'] } {
  if (env.SECRETS_KEY) {
    if (env.SECRETS_KEY.length < 32) throw new Error('config: SECRETS_KEY must have at least 32 characters (e.g. `openssl rand -base64 32`).');
    return { key: env.SECRETS_KEY, source: 'env' };
  }
  if (env.NODE_ENV === 'production') {
    throw new Error('config: SECRETS_KEY is not set. Channel tokens and passwords are stored encrypted with it: set SECRETS_KEY to 32 random bytes (`openssl rand -base64 32`), the same on every process, and keep it safe (docs/configuration.md).');
  }
  const file = path.join(dataDir, 'secrets-key');
  if (existsSync(file)) return { key: readFileSync(file, 'utf8').trim(), source: 'file' };
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32).toString('base64url');
  try {
    // 'wx': two processes starting together on one DATA_DIR must end up with the same key.
    writeFileSync(file, key, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return { key: readFileSync(file, 'utf8').trim(), source: 'file' };
    throw error;
  }
  return { key, source: 'generated' };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const dataDir = path.resolve(overrides.dataDir ?? env.DATA_DIR ?? 'data');
  const port = overrides.port ?? int(env, 'PORT', 5000);
  const bus = (env.BUS ?? 'memory') as Config['bus'];
  if (!['memory', 'pg', 'redis'].includes(bus)) {
    throw new Error(`config: BUS="${bus}" is unknown. Use memory, pg or redis.`);
  }
  const uploadsInFlightMaxBytes = int(env, 'UPLOADS_IN_FLIGHT_MAX_BYTES', 1024 * 1024 * 1024);
  const secrets = overrides.secretsKey ? { key: overrides.secretsKey, source: 'env' as const } : secretsKey(env, dataDir);
  const config: Config = {
    port,
    host: env.HOST ?? '0.0.0.0',
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    providerTrustedHosts: (env.PROVIDER_TRUSTED_HOSTS ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean),
    dataDir,
    databaseUrl: env.DATABASE_URL || null,
    databaseSchema: env.DATABASE_SCHEMA || null,
    sqliteFile: path.resolve(env.SQLITE_FILE ?? path.join(dataDir, 'atendimento.sqlite')),
    jwtSecret: overrides.jwtSecret ?? jwtSecret(env, dataDir),
    secretsKey: secrets.key,
    secretsKeySource: secrets.source,
    accessTokenTtlSeconds: int(env, 'ACCESS_TOKEN_TTL', 15 * 60),
    refreshTokenTtlSeconds: int(env, 'REFRESH_TOKEN_TTL', 30 * 24 * 3600),
    linkTtlSeconds: int(env, 'LINK_TTL', 60 * 60),
    defaultTenant: env.DEFAULT_TENANT ?? 'demo',
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM ?? 'Atendimento <nao-responda@atendimento.local>',
    logLevel: env.LOG_LEVEL ?? 'info',
    bus,
    redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    loginMaxPerAccount: int(env, 'LOGIN_MAX_PER_ACCOUNT', 5),
    loginMaxPerIp: int(env, 'LOGIN_MAX_PER_IP', 50),
    loginWindowSeconds: int(env, 'LOGIN_WINDOW', 15 * 60),
    signUpMaxPerIp: int(env, 'SIGNUP_MAX_PER_IP', 10),
    signUpWindowSeconds: int(env, 'SIGNUP_WINDOW', 60 * 60),
    staticDir: env.STATIC_DIR ? path.resolve(env.STATIC_DIR) : null,
    trustProxy: env.TRUST_PROXY === 'true',
    wsHeartbeatSeconds: int(env, 'WS_HEARTBEAT_SECONDS', 30),
    connMaxPerIp: int(env, 'CONN_MAX_PER_IP', 1_000),
    wsMaxPerIp: int(env, 'WS_MAX_PER_IP', 500),
    uploadsInFlightMaxBytes,
    // A quarter of the process's budget: still two 100 MB files at once from one office behind NAT.
    uploadsInFlightMaxPerIpBytes: int(env, 'UPLOADS_IN_FLIGHT_MAX_PER_IP_BYTES', Math.floor(uploadsInFlightMaxBytes / 4)),
    headersTimeoutSeconds: int(env, 'HEADERS_TIMEOUT', 15),
    idleTimeoutSeconds: int(env, 'IDLE_TIMEOUT', 30),
    requestTimeoutSeconds: int(env, 'REQUEST_TIMEOUT', 10 * 60),
    wsMaxBufferedBytes: int(env, 'WS_MAX_BUFFERED_BYTES', 8 * 1024 * 1024),
    changeLogRetentionHours: int(env, 'CHANGE_LOG_RETENTION_HOURS', 72),
    schedulerPollMs: int(env, 'SCHEDULER_POLL_MS', 1_000),
    campaignRatePerSecond: Math.max(1, int(env, 'CAMPAIGN_RATE_PER_SECOND', 80)),
    campaignLeaseSeconds: Math.max(5, int(env, 'CAMPAIGN_LEASE_SECONDS', 60)),
    routingSweepSeconds: int(env, 'ROUTING_SWEEP_SECONDS', 30),
    exportAttachMaxBytes: int(env, 'EXPORT_ATTACH_MAX_BYTES', 15 * 1024 * 1024),
    google: env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
      ? { clientId: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET, issuer: env.GOOGLE_ISSUER || 'https://accounts.google.com' }
      : null,
    backupDir: path.resolve(env.BACKUP_DIR ?? path.join(dataDir, 'backups')),
    backupEveryHours: int(env, 'BACKUP_EVERY_HOURS', 0),
    backupKeep: Math.max(1, int(env, 'BACKUP_KEEP', 7)),
    metricsToken: env.METRICS_TOKEN || null,
    shutdownGraceMs: int(env, 'SHUTDOWN_GRACE_MS', 10_000),
    registersDirs: (env.REGISTERS_DIRS ?? '').split(path.delimiter).filter(Boolean).map((dir) => path.resolve(dir)),
  };
  return { ...config, ...overrides };
}
