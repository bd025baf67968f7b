import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { CLOSE_CODES, format, messages } from '@atendimento/schemas';
import { ManualClock } from '@atendimento/server';
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from '@atendimento/server/services/auth/tokens';
import { startTestServer, type TestServer } from '../../helpers/test-server';
import { RawSocket, TEST_COLLECTION, testTagsCollection, writeTag } from './realtime-helpers';
import { waitFor } from '../../helpers/wait-for';

let t: TestServer;
const clock = new ManualClock(new Date());

beforeAll(async () => {
  t = await startTestServer({ clock });
  t.server.hub.registerCollection(testTagsCollection(t.server.db));
});
afterAll(() => t.close());

const sockets: RawSocket[] = [];
function socket(host = t.hosts.acme): RawSocket {
  const s = new RawSocket(t.baseUrl, host);
  sockets.push(s);
  return s;
}

function visitorToken(room = 'sala-qualquer'): Promise<string> {
  return new SignJWT({ tid: 'acme', sid: 'anonymous', typ: 'anon', room })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('anon:teste')
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setIssuedAt(Math.floor(clock.now().getTime() / 1000))
    .setExpirationTime(Math.floor(clock.now().getTime() / 1000) + 300)
    .sign(new TextEncoder().encode(t.server.config.jwtSecret));
}

describe('/ws authentication', () => {
  it('answers ready with the user and the token expiry after a valid auth frame', async () => {
    const s = socket();
    await s.auth(await t.tokenFor('acme', 'acme-agente'));
    const ready = await s.frame('ready');
    expect(ready.userId).toBe('acme-agente');
    expect(ready.roomId).toBeNull();
    expect(Date.parse(ready.expiresAt)).toBe(Math.floor(clock.now().getTime() / 1000) * 1000 + t.server.config.accessTokenTtlSeconds * 1000);
    s.close();
  });

  it('closes with 4401 and a pt-BR reason for a forged token and for another tenant’s token', async () => {
    const forged = socket();
    await forged.opened;
    forged.send({ type: 'auth', token: 'eyJhbGciOiJub25lIn0.e30.' });
    expect(await forged.closedWith()).toEqual({ code: CLOSE_CODES.unauthorized, reason: messages.auth.notAuthenticated });

    const other = socket();
    await other.opened;
    other.send({ type: 'auth', token: await t.tokenFor('outra', 'outra-admin') });
    expect(await other.closedWith()).toEqual({ code: CLOSE_CODES.unauthorized, reason: messages.auth.notAuthenticated });
  });

  it('closes with 4419 "Sessão expirada" for an expired token', async () => {
    const token = await t.tokenFor('acme', 'acme-agente');
    clock.advance((t.server.config.accessTokenTtlSeconds + 1) * 1000);
    const s = socket();
    await s.opened;
    s.send({ type: 'auth', token });
    expect(await s.closedWith()).toEqual({ code: CLOSE_CODES.tokenExpired, reason: messages.auth.sessionExpired });
  });

  it('refuses an inactive tenant (4403) and an unknown host (4404) before any auth', async () => {
    expect(await socket(t.hosts.inativa).closedWith()).toEqual({ code: CLOSE_CODES.forbidden, reason: messages.tenant.blockedDetail });
    expect(await socket('desconhecido.test').closedWith()).toEqual({ code: CLOSE_CODES.tenantNotFound, reason: messages.tenant.notFound });
  });

  it('closes with 4001 when no auth frame arrives in time, and 4401 for a subscribe before auth', async () => {
    const silent = socket();
    await silent.opened;
    expect(await silent.closedWith(8_000)).toEqual({ code: CLOSE_CODES.authTimeout, reason: messages.realtime.authTimeout });

    const eager = socket();
    await eager.opened;
    eager.send({ type: 'subscribe', id: 'a', collection: TEST_COLLECTION });
    expect((await eager.closedWith()).code).toBe(CLOSE_CODES.unauthorized);
  });

  it('closes with 4000 on a frame that is not a protocol frame', async () => {
    const s = socket();
    await s.auth(await t.tokenFor('acme', 'acme-agente'));
    s.send('isto não é json');
    expect(await s.closedWith()).toEqual({ code: CLOSE_CODES.protocolError, reason: messages.realtime.protocolError });
  });

  it('warns before expiry, keeps subscriptions across a token refresh, and closes 4419 when not refreshed', async () => {
    const s = socket();
    await s.auth(await t.tokenFor('acme', 'acme-admin'));
    s.send({ type: 'subscribe', id: 'tags', collection: TEST_COLLECTION, query: { limit: 10 } });
    await s.frame('snapshot');

    clock.advance((t.server.config.accessTokenTtlSeconds - 30) * 1000);
    t.server.hub.checkTokens();
    await s.frame('auth.expiring');

    s.send({ type: 'auth', token: await t.tokenFor('acme', 'acme-admin') });
    await waitFor(() => s.frames.filter((f) => f.type === 'ready').length === 2, 'second ready');
    clock.advance(60_000); // past the first token's expiry
    t.server.hub.checkTokens();
    await writeTag(t.server.services.changes, 'acme', { id: 'refresh-1', name: 'depois do refresh', department: 'vendas' }, clock.now());
    const changes = await s.frame('changes', (f) => f.added.some((r) => r.id === 'refresh-1'));
    expect(changes.id).toBe('tags');
    expect(s.closed).toBeNull();

    clock.advance(t.server.config.accessTokenTtlSeconds * 1000);
    t.server.hub.checkTokens();
    expect(await s.closedWith()).toEqual({ code: CLOSE_CODES.tokenExpired, reason: messages.auth.sessionExpired });
  });

  it('closes with 4401 when a refresh brings another user’s token', async () => {
    const s = socket();
    await s.auth(await t.tokenFor('acme', 'acme-agente'));
    s.send({ type: 'auth', token: await t.tokenFor('acme', 'acme-admin') });
    expect(await s.closedWith()).toEqual({ code: CLOSE_CODES.unauthorized, reason: messages.realtime.anotherUser });
  });

  it('answers an error frame for an unknown collection and keeps the socket', async () => {
    const s = socket();
    await s.auth(await t.tokenFor('acme', 'acme-agente'));
    s.send({ type: 'subscribe', id: 'x', collection: 'naoexiste' });
    const error = await s.frame('error');
    expect(error).toEqual({ type: 'error', id: 'x', error: 'unknown_collection', errorMessage: format(messages.realtime.unknownCollection, { collection: 'naoexiste' }) });
    s.send({ type: 'ping', t: 7 });
    expect(await s.frame('pong')).toEqual({ type: 'pong', t: 7 });
    s.close();
  });

  it('lets an anonymous visitor connect, but a collection refuses it with 403 in an error frame', async () => {
    const s = socket();
    await s.opened;
    s.send({ type: 'auth', token: await visitorToken('sala-42') });
    const ready = await s.frame('ready');
    expect(ready).toMatchObject({ userId: null, roomId: 'sala-42' });
    s.send({ type: 'subscribe', id: 'tags', collection: TEST_COLLECTION });
    s.send({ type: 'subscribe', id: 'agents', collection: 'presence' });
    expect(await s.frame('error', (f) => f.id === 'tags')).toMatchObject({ error: 'forbidden', errorMessage: messages.auth.forbidden });
    expect(await s.frame('error', (f) => f.id === 'agents')).toMatchObject({ error: 'forbidden' });
    s.close();
  });

  it('answers a bad query with a pt-BR 400-style error frame', async () => {
    const s = socket();
    await s.auth(await t.tokenFor('acme', 'acme-admin'));
    s.send({ type: 'subscribe', id: 'bad', collection: 'status', query: { filter: { field: 'senha', op: '==', value: 'x' } } });
    const error = await s.frame('error');
    expect(error.error).toBe('invalid_query');
    expect(error.errorMessage).toContain('Consulta inválida');
    s.close();
  });
});

afterAll(() => {
  for (const s of sockets) s.close();
});
