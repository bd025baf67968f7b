import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routePath } from '@atendimento/server/web/path-rule';
import { startTestServer, type TestServer } from '../helpers/test-server';

/**
 * The router matches paths case-insensitively and ignores a trailing
 * slash, while the API token deny-list compared them as written, so a leaked token scoped to
 * all of /api minted new tokens through `POST /api/GenerateToken`. One rule everywhere
 * (server/src/web/path-rule.ts); `/API/...` is served like `/api/...`, never a 500.
 */
let t: TestServer;
let admin: string;
let leaked: string;

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.tokenFor('acme', 'acme-admin');
  await t.patchAppConfig({ api: true });
  const res = await t.api('/api/api-tokens', { method: 'POST', token: admin, body: { id: 'erp-largo', urls: ['/api'], methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] } });
  expect(res.status, res.text).toBe(201);
  leaked = res.body.data.token;
});
afterAll(() => t?.close());

describe('one path-matching rule', () => {
  it('a token scoped to all of /api reaches no token or session route, however the path is spelled', async () => {
    const attempts: [string, string, unknown?][] = [
      ['POST', '/api/GenerateToken', { id: 'novo', urls: ['/api'], methods: ['GET'] }],
      ['POST', '/api/generateToken/', { id: 'novo', urls: ['/api'], methods: ['GET'] }],
      ['POST', '/api/API-TOKENS', { id: 'novo', urls: ['/api'], methods: ['GET'] }],
      ['GET', '/api/API-TOKENS'],
      ['GET', '/api/Api-Tokens/'],
      ['GET', '/api/AUTH/me'],
      ['GET', '/API/auth/me'],
      ['GET', '/api/auth/ME/'],
    ];
    for (const [method, path, body] of attempts) {
      const res = await t.api(path, { method, token: leaked, ...(body !== undefined && { body }) });
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(403);
      expect(res.body.error, `${method} ${path}`).toBe('api_token_route_denied');
    }
    // The one active token is still the admin's own.
    const list = await t.api('/api/api-tokens', { token: admin });
    expect(list.body.data.filter((tk: { revokedAt: string | null }) => !tk.revokedAt).map((tk: { name: string }) => tk.name)).toEqual(['erp-largo']);
  });

  it('serves /API/... like /api/... (tenant resolved, no 500) and keeps the scope check case-insensitive', async () => {
    const me = await t.api('/API/AUTH/ME', { token: admin });
    expect(me.status, me.text).toBe(200);
    expect(me.body.data.id).toBe('acme-admin');
    const tags = await t.api('/API/Tags', { token: leaked });
    expect(tags.status, tags.text).toBe(200);
    const unknown = await t.api('/API/nada-aqui', { token: admin });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('route_not_found');
  });
});

describe('routePath', () => {
  it('lower-cases and drops trailing slashes, and returns a path already in that form unchanged', () => {
    expect(routePath('/api/rooms/12')).toBe('/api/rooms/12');
    expect(routePath('/API/Rooms/12/')).toBe('/api/rooms/12');
    expect(routePath('/api/rooms//')).toBe('/api/rooms');
    expect(routePath('/')).toBe('/');
    expect(routePath('///')).toBe('/');
    expect(routePath('')).toBe('/');
    expect(routePath('/api/ÁREAS')).toBe('/api/áreas');
  });
});
