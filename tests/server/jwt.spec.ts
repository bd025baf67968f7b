import { generateKeyPair, SignJWT, exportJWK, base64url } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectOf } from '@atendimento/server/db/knex';
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from '@atendimento/server/services/auth/tokens';
import { startTestServer, type TestServer } from '../helpers/test-server';

let t: TestServer;
let valid: string;
beforeAll(async () => {
  t = await startTestServer();
  valid = await t.login('admin@acme.test');
});
afterAll(() => t.close());

const me = (token: string) => t.api('/api/auth/me', { token });
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());

describe('access tokens (R8)', () => {
  it('runs on the database the environment names', () => {
    expect(dialectOf(t.server.db)).toBe(process.env.DATABASE_URL ? 'pg' : 'sqlite');
  });

  it('accepts a valid token', async () => {
    expect((await me(valid)).status).toBe(200);
  });

  it("refuses alg 'none'", async () => {
    const header = base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }));
    const payload = base64url.encode(JSON.stringify(claimsOf(valid)));
    expect((await me(`${header}.${payload}.`)).status).toBe(401);
  });

  it('refuses RS256 tokens (no HS/RS confusion) and tokens signed with another secret', async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const claims = claimsOf(valid);
    const rs = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256' }).sign(privateKey);
    expect((await me(rs)).status).toBe(401);
    // The classic confusion: HMAC-signed with the public key as the secret.
    const jwk = JSON.stringify(await exportJWK(publicKey));
    const confused = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(jwk));
    expect((await me(confused)).status).toBe(401);
  });

  it('refuses a token whose tenant claim was edited', async () => {
    const [h, , s] = valid.split('.');
    const edited = base64url.encode(JSON.stringify({ ...claimsOf(valid), tid: 'outra' }));
    expect((await me(`${h}.${edited}.${s}`)).status).toBe(401);
    expect((await t.api('/api/auth/me', { token: valid, host: t.hosts.outra })).status).toBe(401);
  });

  it('refuses wrong audience, wrong issuer and expired tokens signed with the real key', async () => {
    const key = new TextEncoder().encode(t.server.config.jwtSecret);
    const base = claimsOf(valid);
    const now = Math.floor(Date.now() / 1000);
    const sign = (iss: string, aud: string, exp: number) =>
      new SignJWT({ tid: base.tid, sid: base.sid, typ: 'user' }).setProtectedHeader({ alg: 'HS256' }).setSubject(base.sub).setIssuer(iss).setAudience(aud).setIssuedAt(now - 10).setExpirationTime(exp).sign(key);
    expect((await me(await sign(TOKEN_ISSUER, TOKEN_AUDIENCE, now + 60))).status).toBe(200);
    expect((await me(await sign(TOKEN_ISSUER, 'outra-api', now + 60))).status).toBe(401);
    expect((await me(await sign('outro-emissor', TOKEN_AUDIENCE, now + 60))).status).toBe(401);
    expect((await me(await sign(TOKEN_ISSUER, TOKEN_AUDIENCE, now - 1))).status).toBe(401);
  });

  it('refuses an anonymous token on user routes', async () => {
    const key = new TextEncoder().encode(t.server.config.jwtSecret);
    const anon = await new SignJWT({ tid: 'acme', sid: 'anonymous', typ: 'anon', room: 'r1' })
      .setProtectedHeader({ alg: 'HS256' }).setSubject('anon:x').setIssuer(TOKEN_ISSUER).setAudience(TOKEN_AUDIENCE).setIssuedAt().setExpirationTime('5m').sign(key);
    expect((await me(anon)).status).toBe(403);
  });
});
