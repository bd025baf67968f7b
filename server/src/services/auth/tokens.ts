import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';

export const TOKEN_ISSUER = 'atendimento';
export const TOKEN_AUDIENCE = 'atendimento-api';

/** Claims of our access tokens: `tid` tenant, `sid` session (refresh family), `typ` kind. */
interface AccessClaims {
  sub: string;
  tid: string;
  sid: string;
  typ: 'user' | 'anon';
  /** Anonymous tokens only: the one room they may read. */
  room?: string;
}

export function createTokenService(secret: string, ttlSeconds: number) {
  const key = new TextEncoder().encode(secret);
  return {
    ttlSeconds,
    async sign(claims: AccessClaims, now: Date): Promise<string> {
      const iat = Math.floor(now.getTime() / 1000);
      const { sub, ...rest } = claims;
      return new SignJWT({ ...rest })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(sub)
        .setIssuer(TOKEN_ISSUER)
        .setAudience(TOKEN_AUDIENCE)
        .setIssuedAt(iat)
        .setExpirationTime(iat + ttlSeconds)
        .sign(key);
    },
    /**
     * Verifies signature, algorithm (HS256 only: no `none`, no RS/HS confusion), issuer,
     * audience and expiry. Returns null for any invalid token.
     */
    async verify(token: string, now: Date): Promise<{ claims: AccessClaims; expired: false } | { claims: null; expired: boolean }> {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          issuer: TOKEN_ISSUER,
          audience: TOKEN_AUDIENCE,
          currentDate: now,
          // A token without an expiry would be valid forever: refused.
          requiredClaims: ['exp', 'iat'],
        });
        if (typeof payload.sub !== 'string' || typeof payload.tid !== 'string' || typeof payload.sid !== 'string') {
          return { claims: null, expired: false };
        }
        if (payload.typ !== 'user' && payload.typ !== 'anon') return { claims: null, expired: false };
        return {
          claims: {
            sub: payload.sub,
            tid: payload.tid,
            sid: payload.sid,
            typ: payload.typ,
            ...(typeof payload.room === 'string' && { room: payload.room }),
          },
          expired: false,
        };
      } catch (error) {
        return { claims: null, expired: error instanceof joseErrors.JWTExpired };
      }
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;

/** An opaque random secret for refresh tokens and e-mailed links. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Only hashes of opaque tokens are stored, so a database leak yields no usable token. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
