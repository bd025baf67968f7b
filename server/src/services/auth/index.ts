import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db/knex';
import { createAccessLinkRepository } from '../../db/repositories/access-link-repository';
import { createRoomRepository } from '../../db/repositories/room-repository';
import { createSessionRepository } from '../../db/repositories/session-repository';
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
  'jwtSecret' | 'accessTokenTtlSeconds' | 'loginMaxPerAccount' | 'loginMaxPerIp' | 'loginWindowSeconds' | 'signUpMaxPerIp' | 'signUpWindowSeconds' | 'refreshTokenTtlSeconds' | 'linkTtlSeconds' | 'publicUrl'
> & { google?: Config['google'] };

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
    appUrl: () => config.publicUrl,
    findPublicRoom: (tenantId, publicToken) => rooms.idByPublicToken(tenantId, publicToken),
  });
  // Google sign-in (docs/auth.md "Google"): the deployment's OpenID client, if configured.
  const google = createGoogleSignIn(() => config.google ?? null);
  return { service, tokens, sessions, blobs: deps.blobs, google };
}

export type Auth = ReturnType<typeof createAuth>;
