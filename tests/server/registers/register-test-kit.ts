import type { TestServer } from '../../helpers/test-server';

/** Tenant claims the fixture tenant acme lacks, for register tests that need them. */
export async function setTenantClaims(t: TestServer, claims: Record<string, boolean>, tenantId = 'acme'): Promise<void> {
  const tenant = await t.server.repos.tenants.findById(tenantId);
  if (!tenant) throw new Error(`setTenantClaims: no tenant ${tenantId}`);
  await t.patchAppConfig({ claims: { ...tenant.appConfig.claims, ...claims } }, tenantId);
}

/** A user of the acme tenant with the given claims, and a token for it. */
export async function userWith(t: TestServer, id: string, claims: Record<string, boolean>): Promise<string> {
  const existing = await t.server.repos.users.findById('acme', id);
  if (!existing) {
    await t.server.repos.users.create('acme', { id, email: `${id}@acme.test`, displayName: `Usuário ${id}`, passwordHash: null, emailVerified: true, claims }, new Date());
  }
  return t.tokenFor('acme', id);
}

/** GET helper returning the parsed list and its Content-Range total. */
export async function list(t: TestServer, token: string, collection: string, params: Record<string, unknown> = {}) {
  const qs = new URLSearchParams(Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]))).toString();
  const res = await t.api(`/api/${collection}${qs ? `?${qs}` : ''}`, { token });
  const range = String(res.headers['content-range'] ?? '');
  return { ...res, total: range ? Number(range.split('/').pop()) : null };
}
