import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_CODES } from '@atendimento/schemas';
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from '@atendimento/server/services/auth/tokens';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../helpers/test-server';
import { RawSocket } from '../server/realtime/realtime-helpers';

/**
 * Signing out, disabling or deleting a user, or revoking a refresh family
 * closed nothing: open /ws sockets streamed until the access token expired (up to 15 min).
 * Now they close at once. Tokens without `exp` are refused.
 */
let t: TestServer;
let admin: string;
const sockets: RawSocket[] = [];

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.tokenFor('acme', 'acme-admin');
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.close();
});

async function signIn(email: string) {
  const res = await t.api('/api/auth/login', { method: 'POST', body: { email, password: TEST_PASSWORD } });
  expect(res.status, res.text).toBe(200);
  return { token: res.body.data.accessToken as string, cookie: res.cookie! };
}

async function socketWith(token: string): Promise<RawSocket> {
  const s = new RawSocket(t.baseUrl, t.hosts.acme);
  sockets.push(s);
  await s.auth(token);
  return s;
}

describe('open sockets close when their session ends', () => {
  it('on sign-out', async () => {
    const session = await signIn('supervisor@acme.test');
    const other = await signIn('supervisor@acme.test');
    const s = await socketWith(session.token);
    const keep = await socketWith(other.token);
    expect((await t.api('/api/auth/logout', { method: 'POST', token: session.token, cookie: session.cookie })).status).toBeLessThan(300);
    expect((await s.closedWith(2_000)).code).toBe(CLOSE_CODES.unauthorized);
    // The same user's other device stays.
    expect(keep.closed).toBeNull();
  });

  it('on a refresh-family revoke (a reused refresh token)', async () => {
    const first = await signIn('agente@acme.test');
    const s = await socketWith(first.token);
    const r1 = await t.api('/api/auth/refresh', { method: 'POST', cookie: first.cookie });
    expect(r1.status).toBe(200);
    const s2 = await socketWith(r1.body.data.accessToken);
    const replay = await t.api('/api/auth/refresh', { method: 'POST', cookie: first.cookie });
    expect(replay.body.error).toBe('refresh_token_reused');
    expect((await s.closedWith(2_000)).code).toBe(CLOSE_CODES.unauthorized);
    expect((await s2.closedWith(2_000)).code).toBe(CLOSE_CODES.unauthorized);
  });

  it('when an admin disables the user, and when the user is deleted', async () => {
    const suporte = await signIn('suporte@acme.test');
    const s = await socketWith(suporte.token);
    const res = await t.api('/api/agents/acme-suporte', { method: 'PATCH', token: admin, body: { active: false } });
    expect(res.status, res.text).toBe(200);
    expect((await s.closedWith(2_000)).code).toBe(CLOSE_CODES.forbidden);

    await t.server.repos.users.create('acme', { id: 'acme-temp', email: 'temp@acme.test', displayName: 'Temporário', passwordHash: null, emailVerified: true }, t.server.clock.now());
    const temp = await socketWith(await t.tokenFor('acme', 'acme-temp'));
    expect((await t.api('/api/agents/acme-temp', { method: 'DELETE', token: admin })).status).toBe(200);
    expect((await temp.closedWith(2_000)).code).toBe(CLOSE_CODES.forbidden);
  });
});

describe('tokens without exp', () => {
  it('are refused on HTTP and on /ws', async () => {
    const sid = 'sessao-sem-exp';
    await t.server.repos.sessions.createSession('acme', { id: sid, userId: 'acme-admin', ip: null, userAgent: 'test' }, t.server.clock.now());
    const forever = await new SignJWT({ tid: 'acme', sid, typ: 'user' })
      .setProtectedHeader({ alg: 'HS256' }).setSubject('acme-admin').setIssuer(TOKEN_ISSUER).setAudience(TOKEN_AUDIENCE).setIssuedAt()
      .sign(new TextEncoder().encode(t.server.config.jwtSecret));
    expect((await t.api('/api/auth/me', { token: forever })).status).toBe(401);
    const s = new RawSocket(t.baseUrl, t.hosts.acme);
    sockets.push(s);
    await s.opened;
    s.send({ type: 'auth', token: forever });
    expect((await s.closedWith(2_000)).code).toBe(CLOSE_CODES.unauthorized);
  });
});
