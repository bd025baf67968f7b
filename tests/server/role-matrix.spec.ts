import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from '@atendimento/server/services/auth/tokens';
import type { RouteSpec } from '@atendimento/server/web/access';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { RawSocket } from './realtime/realtime-helpers';
import { waitFor } from '../helpers/wait-for';

/**
 * Walks EVERY registered route as each role and as another tenant's user, and checks the
 * server's answer against the route's declared access. New routes join the matrix by being
 * registered through the route registry; nothing to add here.
 */
type Role = 'nobody' | 'visitor' | 'agent' | 'oneClaim' | 'stranger' | 'supervisor' | 'admin' | 'otherTenant';
const ROLES: Role[] = ['nobody', 'visitor', 'agent', 'oneClaim', 'stranger', 'supervisor', 'admin', 'otherTenant'];
/**
 * oneClaim: an agent whose only grant is one screen permission ('tags'); stranger: a user who
 * signed up through the public page and was given nothing (no claim, no department).
 */
const USER_IDS = { agent: 'acme-suporte', oneClaim: 'acme-tags', stranger: 'acme-estranho', supervisor: 'acme-supervisor', admin: 'acme-admin' } as const;
const CLAIMS = { agent: {}, oneClaim: { tags: true }, stranger: {}, supervisor: { dashboard: true }, admin: { admin: true } } as Record<string, Record<string, boolean>>;

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  const now = t.server.clock.now();
  await t.server.repos.users.create('acme', { id: 'acme-tags', email: 'tags@acme.test', displayName: 'Agente Tags', passwordHash: null, claims: { tags: true } }, now);
  // As the public sign-up creates it (services/auth signUp).
  await t.server.repos.users.create('acme', { id: 'acme-estranho', email: 'estranho@acme.test', displayName: 'Estranho', passwordHash: null, type: 'agent', active: true, emailVerified: false }, now);
});
afterAll(() => t.close());

async function tokenFor(role: Role): Promise<string | null> {
  if (role === 'nobody') return null;
  if (role === 'otherTenant') return t.tokenFor('outra', 'outra-admin');
  if (role === 'visitor') {
    return new SignJWT({ tid: 'acme', sid: 'anonymous', typ: 'anon', room: 'sala-inexistente' })
      .setProtectedHeader({ alg: 'HS256' }).setSubject('anon:matrix').setIssuer(TOKEN_ISSUER).setAudience(TOKEN_AUDIENCE)
      .setIssuedAt().setExpirationTime('5m').sign(new TextEncoder().encode(t.server.config.jwtSecret));
  }
  return t.tokenFor('acme', USER_IDS[role]);
}

/** 'allowed' = anything but 401/403; 'public' = must answer as it does for an admin. */
function expected(route: RouteSpec, role: Role, tenantClaims: Record<string, unknown>): 401 | 403 | 'allowed' | 'public' {
  const a = route.access;
  if (a.kind === 'public') return 'public';
  if (role === 'nobody' || role === 'otherTenant') return 401;
  if (route.tenantClaim && !tenantClaims[route.tenantClaim]) return 403;
  if (role === 'visitor') return a.kind === 'anonymous' ? 'allowed' : 403;
  const claims = CLAIMS[role]!;
  // docs/security.md: a stranger writes nothing shared.
  if (role === 'stranger' && (a.kind === 'member' || (a.kind === 'rule' && a.members))) return 403;
  switch (a.kind) {
    case 'anonymous':
    case 'user':
    case 'member':
      return 'allowed';
    case 'admin':
      return claims.admin ? 'allowed' : 403;
    case 'permission':
      return claims.admin || claims[a.permission] ? 'allowed' : 403;
    case 'supervisor':
      return claims.admin || role === 'supervisor' ? 'allowed' : 403;
    case 'rule': {
      const rule = a.rule;
      if (rule.claim && !tenantClaims[rule.claim]) return 403;
      if (rule.access === 'admin') return claims.admin ? 'allowed' : 403;
      if (rule.access === 'admin-or-permission') return claims.admin || claims[rule.permission ?? ''] ? 'allowed' : 403;
      return 'allowed';
    }
  }
}

function concretePath(path: string): string {
  return path.replace(/:(\w+)/g, (_m, name: string) => `nao-existe-${name}`);
}

describe('role matrix', () => {
  it('has routes of every access kind to walk', () => {
    const kinds = new Set(t.server.api.routes.map((r) => r.access.kind));
    for (const kind of ['public', 'user', 'permission', 'rule']) expect(kinds).toContain(kind);
  });

  it('answers every route as its declared access says, for every role and another tenant', async () => {
    const tenantClaims = (await t.server.repos.tenants.findById('acme'))!.appConfig.claims;
    const failures: string[] = [];
    let checked = 0;
    for (const route of t.server.api.routes) {
      const path = concretePath(route.path);
      const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : {};
      const adminStatus = (await t.api(path, { method: route.method, body, token: await tokenFor('admin') })).status;
      for (const role of ROLES) {
        const want = expected(route, role, tenantClaims);
        const res = await t.api(path, { method: route.method, body, token: await tokenFor(role) });
        checked++;
        const ok =
          want === 'allowed' ? res.status !== 401 && res.status !== 403 && res.status < 500
          : want === 'public' ? res.status === adminStatus && res.status < 500
          : res.status === want;
        if (!ok) failures.push(`${route.method} ${route.path} as ${role}: got ${res.status}, want ${want} ${res.text.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBe(t.server.api.routes.length * ROLES.length);
  }, 180_000);

  it("the hub's staff and structure collections are the members' only: a stranger gets 'forbidden' where an agent gets rows", async () => {
    const collections = ['users', 'departaments', 'queues', 'tags', 'channels', 'presence'];
    const answers = async (role: 'stranger' | 'agent') => {
      const s = new RawSocket(t.baseUrl, t.hosts.acme);
      try {
        await s.auth((await tokenFor(role))!);
        for (const collection of collections) s.send({ type: 'subscribe', id: collection, collection });
        return Object.fromEntries(await Promise.all(collections.map(async (id) => {
          const frame = await waitFor(() => s.frames.find((f) => (f.type === 'error' || f.type === 'snapshot') && f.id === id), `${role}: ${id}`);
          return [id, frame.type === 'error' ? frame.error : 'snapshot'];
        })));
      } finally {
        s.close();
      }
    };
    expect(await answers('stranger')).toEqual(Object.fromEntries(collections.map((c) => [c, 'forbidden'])));
    expect(await answers('agent')).toEqual(Object.fromEntries(collections.map((c) => [c, 'snapshot'])));
  });
});
