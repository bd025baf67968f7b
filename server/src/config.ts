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
  /** Folder with the built single-page app (engine/dist). */
  staticDir: string | null;
  /** Trust X-Forwarded-For / X-Forwarded-Host from a reverse proxy. */
  trustProxy: boolean;
  /** Realtime hub (docs/realtime.md): ping interval, slow-consumer cap, change-log retention. */
  wsHeartbeatSeconds: number;
  wsMaxBufferedBytes: number;
  changeLogRetentionHours: number;
  /** Routing's clock (docs/routing.md): how often due deadlines are looked for, and the queue safety sweep. */
  schedulerPollMs: number;
  routingSweepSeconds: number;
  /** Extra directories of register folders (REGISTERS_DIRS, ':'-separated), after schemas/registers. */
  registersDirs: string[];
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

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const dataDir = path.resolve(overrides.dataDir ?? env.DATA_DIR ?? 'data');
  const port = overrides.port ?? int(env, 'PORT', 5000);
  const bus = (env.BUS ?? 'memory') as Config['bus'];
  if (!['memory', 'pg', 'redis'].includes(bus)) {
    throw new Error(`config: BUS="${bus}" is unknown. Use memory, pg or redis.`);
  }
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
    staticDir: env.STATIC_DIR ? path.resolve(env.STATIC_DIR) : null,
    trustProxy: env.TRUST_PROXY === 'true',
    wsHeartbeatSeconds: int(env, 'WS_HEARTBEAT_SECONDS', 30),
    wsMaxBufferedBytes: int(env, 'WS_MAX_BUFFERED_BYTES', 8 * 1024 * 1024),
    changeLogRetentionHours: int(env, 'CHANGE_LOG_RETENTION_HOURS', 72),
    schedulerPollMs: int(env, 'SCHEDULER_POLL_MS', 1_000),
    routingSweepSeconds: int(env, 'ROUTING_SWEEP_SECONDS', 30),
    registersDirs: (env.REGISTERS_DIRS ?? '').split(path.delimiter).filter(Boolean).map((dir) => path.resolve(dir)),
  };
  return { ...config, ...overrides };
}
