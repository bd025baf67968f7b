import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerPermission, type RegisterDefinition } from '@atendimento/schemas/registers/index';
import type { RouteSpec } from '@atendimento/server/web/access';
import { startTestServer, type TestServer } from '../../helpers/test-server';
import { setTenantClaims, userWith } from './register-test-kit';

/**
 * Every route of every register, as every kind of caller, with the register's tenant claim on
 * and off (seed 000 §2 route table, §6). The expectation comes from the register's list.json
 * (access, permission, claim), not from the route's declared guard, so a route registered
 * with the wrong guard fails here. The generic role matrix (tests/server/role-matrix.spec.ts)
 * checks routes against their declared guard; this one checks the guard against the seed.
 */
type Role = 'nobody' | 'otherTenant' | 'agent' | 'otherPermission' | 'permitted' | 'admin';
const ROLES: Role[] = ['nobody', 'otherTenant', 'agent', 'otherPermission', 'permitted', 'admin'];

/** Routes every register must have (seed 000 §7). */
const EXPECTED_ROUTES = [
  'GET /api/{r}',
  'POST /api/{r}',
  'GET /api/{r}/:id',
  'PUT /api/{r}/:id',
  'PATCH /api/{r}/:id',
  'DELETE /api/{r}/:id',
  'PATCH /api/{r}/remove',
  'GET /api/mongodb/{r}',
  'GET /api/mongodb/{r}/count',
  'POST /api/{r}/import',
  'GET /api/{r}/getRawCsvDataReport',
  'GET /api/{r}/getXlsxDataReport',
  'POST /api/{r}/getDataReport',
  'GET /api/{r}/csvTemplate',
  'POST /api/{r}/fileToMail',
];

/** Tenant claims of the seed's claim-guarded registers, plus the sub-collection exporter. */
const ALL_CLAIMS = { clients: true, participants: true, stores: true, negotiations: true, queues: true, employees: true, products: true, metaChannel: true, flowsView: true, enableAgentStatusExporter: true };
const NO_CLAIMS = Object.fromEntries(Object.keys(ALL_CLAIMS).map((k) => [k, false]));

let t: TestServer;
let definitions: RegisterDefinition[];
const tokens = new Map<string, string>();

beforeAll(async () => {
  t = await startTestServer();
  definitions = [...t.server.services.registers.registers.definitions.values()];
  tokens.set('admin', await t.tokenFor('acme', 'acme-admin'));
  tokens.set('agent', await t.tokenFor('acme', 'acme-suporte'));
  tokens.set('otherTenant', await t.tokenFor('outra', 'outra-admin'));
  for (const permission of new Set(definitions.map((d) => registerPermission(d.list)))) {
    tokens.set(`perm:${permission}`, await userWith(t, `matriz-${permission.toLowerCase()}`, { [permission]: true }));
  }
}, 60_000);
afterAll(() => t?.close());

function routesOf(name: string): RouteSpec[] {
  const bases = [`/api/${name}`, `/api/mongodb/${name}`];
  return t.server.api.routes.filter((r) => bases.some((base) => r.path === base || r.path.startsWith(`${base}/`)));
}

function tokenOf(definition: RegisterDefinition, role: Role): string | null {
  const own = registerPermission(definition.list);
  switch (role) {
    case 'nobody':
      return null;
    case 'permitted':
      return tokens.get(`perm:${own}`) ?? null;
    case 'otherPermission': {
      // A user holding the permission of some other register only.
      const other = definitions.map((d) => registerPermission(d.list)).find((p) => p !== own)!;
      return tokens.get(`perm:${other}`)!;
    }
    default:
      return tokens.get(role)!;
  }
}

/** What the seed allows: 401 without a user of this tenant, 403 when the claim or the role is missing. */
function expected(definition: RegisterDefinition, route: RouteSpec, role: Role, claimsOn: boolean): 401 | 403 | 'allowed' {
  if (role === 'nobody' || role === 'otherTenant') return 401;
  const { list } = definition;
  if (list.claim && !claimsOn) return 403;
  if (route.path.endsWith('/extractSubCollection') && !claimsOn) return 403;
  if (role === 'admin') return 'allowed';
  // Writes follow list.json `writeAccess` when it differs from the screen rule (queues).
  const access = isWrite(definition, route) ? list.writeAccess ?? list.access : list.access;
  if (access === 'admin') return 403;
  if (access === 'admin-or-permission') return role === 'permitted' ? 'allowed' : 403;
  return 'allowed';
}

/** Routes that change records (POST of reports and exports only read). */
function isWrite(definition: RegisterDefinition, route: RouteSpec): boolean {
  if (route.method === 'PUT' || route.method === 'PATCH' || route.method === 'DELETE') return true;
  if (route.method !== 'POST') return false;
  return route.path === `/api/${definition.name}` || route.path.endsWith('/import') || route.path.endsWith('/sendLogin');
}

async function walk(claimsOn: boolean): Promise<{ failures: string[]; checked: number }> {
  await setTenantClaims(t, claimsOn ? ALL_CLAIMS : NO_CLAIMS);
  const failures: string[] = [];
  let checked = 0;
  for (const definition of definitions) {
    for (const route of routesOf(definition.name)) {
      const path = route.path.replace(/:(\w+)/g, (_m, p: string) => `nao-existe-${p}`);
      const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : {};
      for (const role of ROLES) {
        const want = expected(definition, route, role, claimsOn);
        const res = await t.api(path, { method: route.method, body, token: tokenOf(definition, role) });
        checked++;
        const ok = want === 'allowed' ? res.status !== 401 && res.status !== 403 && res.status < 500 : res.status === want;
        if (!ok) failures.push(`${route.method} ${route.path} as ${role} (claims ${claimsOn ? 'on' : 'off'}): got ${res.status}, want ${want} ${res.text.slice(0, 100)}`);
      }
    }
  }
  return { failures, checked };
}

describe('register role matrix', () => {
  it('gives every register the full set of routes', () => {
    const missing: string[] = [];
    for (const definition of definitions) {
      const have = new Set(routesOf(definition.name).map((r) => `${r.method} ${r.path}`));
      for (const route of EXPECTED_ROUTES) {
        const concrete = route.replace('{r}', definition.name);
        if (!have.has(concrete)) missing.push(concrete);
      }
    }
    expect(missing).toEqual([]);
    expect(definitions.map((d) => d.name)).toEqual(expect.arrayContaining(['contacts', 'clients', 'agents', 'departaments', 'queues', 'tags', 'flows', 'faq', 'faqCategories', 'faqQuestions', 'fixedMessages', 'dm_qrcodes', 'contingecies', 'employees', 'products', 'participants', 'stores', 'negotiations']));
  });

  it('answers each route as the seed allows with the tenant claims on', async () => {
    const { failures, checked } = await walk(true);
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(definitions.length * EXPECTED_ROUTES.length * ROLES.length - 1);
  }, 120_000);

  it('refuses every route of a claim-guarded register with the claim off, even to admins', async () => {
    const { failures } = await walk(false);
    expect(failures).toEqual([]);
  }, 120_000);
});
