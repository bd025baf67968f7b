import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db/knex';
import { createAccessLinkRepository } from '../../db/repositories/access-link-repository';
import { createRoomRepository } from '../../db/repositories/room-repository';
import { createSessionRepository } from '../../db/repositories/session-repository';
import { createTenantRepository } from '../../db/repositories/tenant-repository';
import type { UserRepository } from '../../db/repositories/user-repository';
import type { Logger } from '../../logger';
import type { BlobStore } from '../files/blob-store';
import type { Mailer } from '../mail/mailer';
import { createAuthService } from './auth-service';
import { createRateLimiter } from './rate-limiter';
import { createTokenService } from './tokens';
import { createGoogleSignIn } from './google-signin';

type AuthConfig = Pick<
  Config,
  'jwtSecret' | 'accessTokenTtlSeconds' | 'loginMaxPerAccount' | 'loginMaxPerIp' | 'loginWindowSeconds' | 'signUpMaxPerIp' | 'signUpWindowSeconds' | 'refreshTokenTtlSeconds' | 'linkTtlSeconds' | 'publicUrl' | 'defaultTenant'
> & { google?: Config['google'] };

/**
 * Where a tenant's e-mailed links point: the deployment's PUBLIC_URL for the default tenant (the
 * one localhost serves), else the tenant's first registered host with PUBLIC_URL's scheme and
 * port (every tenant is served by the same listener). A link on the wrong host fails: sign-in
 * links and recovery tokens are looked up in the tenant the host names.
 */
export function tenantAppUrl(config: Pick<Config, 'publicUrl' | 'defaultTenant'>, tenantId: string, hosts: string[]): string {
  if (tenantId === config.defaultTenant || hosts.length === 0) return config.publicUrl;
  const url = new URL(config.publicUrl);
  url.hostname = hosts[0]!;
  return url.origin;
}

/**
 * The auth domain (docs/auth.md), wired in one place: sessions and refresh-token families,
 * e-mailed sign-in links, rate limits per account and per IP, access tokens, and the public
 * chat's anonymous tokens. Its routes: web/routes/auth.
 */
export function createAuth(deps: { db: Db; users: UserRepository; config: AuthConfig; mailer: Mailer; clock: Clock; logger: Logger; blobs: BlobStore }) {
  const { db, config, clock } = deps;
  const tokens = createTokenService(config.jwtSecret, config.accessTokenTtlSeconds);
  const rooms = createRoomRepository(db);
  const sessions = createSessionRepository(db);
  const tenantRepo = createTenantRepository(db);
  const service = createAuthService({
    users: deps.users,
    sessions,
    links: createAccessLinkRepository(db),
    tokens,
    mailer: deps.mailer,
    clock,
    logger: deps.logger,
    accountLimiter: createRateLimiter(clock, { max: config.loginMaxPerAccount, windowSeconds: config.loginWindowSeconds }),
    ipLimiter: createRateLimiter(clock, { max: config.loginMaxPerIp, windowSeconds: config.loginWindowSeconds }),
    signUpLimiter: createRateLimiter(clock, { max: config.signUpMaxPerIp, windowSeconds: config.signUpWindowSeconds }),
    refreshTtlSeconds: config.refreshTokenTtlSeconds,
    linkTtlSeconds: config.linkTtlSeconds,
    appUrl: async (tenant) => tenantAppUrl(config, tenant.id, tenant.id === config.defaultTenant ? [] : await tenantRepo.hostsOf(tenant.id)),
    findPublicRoom: (tenantId, publicToken) => rooms.idByPublicToken(tenantId, publicToken),
  });
  // Google sign-in (docs/auth.md "Google"): the deployment's OpenID client, if configured.
  const google = createGoogleSignIn(() => config.google ?? null);
  return { service, tokens, sessions, blobs: deps.blobs, google };
}

export type Auth = ReturnType<typeof createAuth>;
