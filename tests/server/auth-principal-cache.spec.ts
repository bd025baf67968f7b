import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../helpers/test-server';

/**
 * The principal cache (docs/auth.md "Principal cache"): a signed-in user's second request
 * reads neither the session, nor the user, nor their departments again — and every change
 * that decides what the user may do still takes effect on their very next request.
 */
let t: TestServer;
let admin: string;

async function signIn(email: string): Promise<string> {
  const res = await t.api('/api/auth/login', { method: 'POST', body: { email, password: TEST_PASSWORD } });
  expect(res.status, res.text).toBe(200);
  return res.body.data.accessToken as string;
}

/** The SQL a request ran, by table it read (knex's query event). */
async function statementsOf(request: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const listener = (q: { sql: string }) => seen.push(q.sql);
  t.server.db.on('query', listener);
  try {
    await request();
  } finally {
    t.server.db.off('query', listener);
  }
  return seen;
}

const authReads = (sql: string[]) => sql.filter((s) => /from [`"](sessions|users|department_members)[`"]/i.test(s));

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.tokenFor('acme', 'acme-admin');
});
afterAll(() => t?.close());

describe('principal cache', () => {
  it('a second request of the same session reads no session, user or department row', async () => {
    const token = await signIn('agente@acme.test');
    const first = await statementsOf(() => t.api('/api/auth/me', { token }));
    expect(authReads(first).length).toBeGreaterThan(0);
    const second = await statementsOf(() => t.api('/api/auth/me', { token }));
    expect(authReads(second)).toEqual([]);
  });

  it('signing out refuses the same access token on the next request', async () => {
    const token = await signIn('agente@acme.test');
    expect((await t.api('/api/auth/me', { token })).status).toBe(200);
    expect((await t.api('/api/auth/logout', { method: 'POST', token })).status).toBeLessThan(300);
    expect((await t.api('/api/auth/me', { token })).status).toBe(401);
  });

  it('an admin granting or removing a permission counts on the very next request', async () => {
    const token = await signIn('suporte@acme.test');
    expect((await t.api('/api/dashboard/reports', { token })).status).toBe(403);
    const grant = await t.api('/api/agents/acme-suporte', { method: 'PATCH', token: admin, body: { claims: { dashboard: true } } });
    expect(grant.status, grant.text).toBe(200);
    expect((await t.api('/api/dashboard/reports', { token })).status).toBe(200);
    const revoke = await t.api('/api/agents/acme-suporte', { method: 'PATCH', token: admin, body: { claims: {} } });
    expect(revoke.status, revoke.text).toBe(200);
    expect((await t.api('/api/dashboard/reports', { token })).status).toBe(403);
  });

  it('disabling a user refuses their token on the next request', async () => {
    const token = await signIn('suporte@acme.test');
    expect((await t.api('/api/auth/me', { token })).status).toBe(200);
    const off = await t.api('/api/agents/acme-suporte', { method: 'PATCH', token: admin, body: { active: false } });
    expect(off.status, off.text).toBe(200);
    expect((await t.api('/api/auth/me', { token })).status).toBeGreaterThanOrEqual(401);
    expect((await t.api('/api/agents/acme-suporte', { method: 'PATCH', token: admin, body: { active: true } })).status).toBe(200);
  });

  it("an admin setting a user's password or e-mail ends that user's sessions: the token and the refresh cookie are refused", async () => {
    for (const change of [{ password: 'pinguim cinza salta 34' }, { email: 'suporte.novo@acme.test' }]) {
      const login = await t.api('/api/auth/login', { method: 'POST', body: { email: 'suporte@acme.test', password: TEST_PASSWORD } });
      expect(login.status, login.text).toBe(200);
      const token = login.body.data.accessToken as string;
      expect((await t.api('/api/auth/me', { token })).status).toBe(200);
      const set = await t.api('/api/agents/acme-suporte', { method: 'PATCH', token: admin, body: change });
      expect(set.status, set.text).toBe(200);
      expect((await t.api('/api/auth/me', { token })).status, JSON.stringify(change)).toBe(401);
      expect((await t.api('/api/auth/refresh', { method: 'POST', cookie: login.cookie })).status, JSON.stringify(change)).toBe(401);
      const back = await t.api('/api/agents/acme-suporte', { method: 'PATCH', token: admin, body: { email: 'suporte@acme.test', password: TEST_PASSWORD } });
      expect(back.status, back.text).toBe(200);
    }
    // Any other change (a name) leaves the sessions alone.
    const token = await signIn('suporte@acme.test');
    expect((await t.api('/api/agents/acme-suporte', { method: 'PATCH', token: admin, body: { displayName: 'Suporte' } })).status).toBe(200);
    expect((await t.api('/api/auth/me', { token })).status).toBe(200);
  });

  it('joining a department as supervisor counts on the next request', async () => {
    const token = await signIn('suporte@acme.test');
    const before = (await t.api('/api/auth/me', { token })).body.data;
    const departments = await t.api('/api/departaments/suporte', { token: admin });
    expect(departments.status, departments.text).toBe(200);
    const supervisors: string[] = departments.body.supervisors ?? departments.body.data?.supervisors ?? [];
    const patch = await t.api('/api/departaments/suporte', { method: 'PATCH', token: admin, body: { supervisors: [...supervisors, 'acme-suporte'] } });
    expect(patch.status, patch.text).toBe(200);
    const after = (await t.api('/api/auth/me', { token })).body.data;
    expect(JSON.stringify(after)).not.toEqual(JSON.stringify(before));
    expect(JSON.stringify(after)).toContain('suporte');
  });
});
