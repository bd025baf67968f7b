import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@atendimento/schemas';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../helpers/test-server';

/**
 * Google sign-in's account rules (docs/auth.md "Google"), on the service the callback calls
 * (the browser flow through the local OpenID provider is tests/e2e/google.e2e.ts).
 */
let t: TestServer;
const meta = { ip: '127.0.0.1', userAgent: 'test' };
beforeAll(async () => {
  t = await startTestServer();
  await t.patchAppConfig({ claims: { publicRegister: true, googleSignIn: true } });
});
afterAll(() => t?.close());

const tenant = async (id = 'acme') => (await t.server.repos.tenants.findById(id))!;

describe('signInWithGoogle', () => {
  it('signs in the account of the same tenant with that verified e-mail', async () => {
    const issued = await t.server.services.auth.signInWithGoogle(await tenant(), { email: 'agente@acme.test', emailVerified: true, name: 'X' }, meta);
    expect(issued.session.user.id).toBe('acme-agente');
  });

  it('refuses an e-mail the provider did not verify, and creates nothing', async () => {
    await expect(t.server.services.auth.signInWithGoogle(await tenant(), { email: 'novo@acme.test', emailVerified: false, name: null }, meta)).rejects.toMatchObject({ status: 403, errorMessage: messages.auth.googleEmailUnverified });
    expect(await t.server.repos.users.findByEmail('acme', 'novo@acme.test')).toBeNull();
  });

  it('an unverified local sign-up does not keep its password once the mailbox owner signs in with Google', async () => {
    const signUp = await t.api('/api/users', { method: 'POST', body: { displayName: 'Impostor', email: 'vitima@acme.test', password: TEST_PASSWORD, confirmPassword: TEST_PASSWORD } });
    expect(signUp.status).toBe(201);
    const issued = await t.server.services.auth.signInWithGoogle(await tenant(), { email: 'vitima@acme.test', emailVerified: true, name: 'Vítima' }, meta);
    expect(issued.session.user.email).toBe('vitima@acme.test');
    // The impostor's password and session are gone.
    expect((await t.api('/api/auth/login', { method: 'POST', body: { email: 'vitima@acme.test', password: TEST_PASSWORD } })).status).not.toBe(200);
    expect((await t.api('/api/auth/me', { token: signUp.body.data.accessToken })).status).toBe(401);
  });

  it('creates an agent only when the tenant allows public sign-up', async () => {
    const created = await t.server.services.auth.signInWithGoogle(await tenant(), { email: 'nova@acme.test', emailVerified: true, name: 'Nova Agente' }, meta);
    expect(created.session.user).toMatchObject({ email: 'nova@acme.test', displayName: 'Nova Agente', type: 'agent' });
    await t.patchAppConfig({ claims: { googleSignIn: true } }, 'outra');
    await expect(t.server.services.auth.signInWithGoogle(await tenant('outra'), { email: 'nova@acme.test', emailVerified: true, name: null }, meta)).rejects.toMatchObject({ status: 403, errorMessage: messages.auth.googleNoAccount });
  });

  it('without the googleSignIn claim the popup answers the seed message', async () => {
    const res = await t.api('/api/auth/google/start', { host: t.hosts.outra.replace('outra', 'inativa') });
    expect(res.status).toBe(403);
    const page = await t.api('/api/auth/google/start', { host: t.hosts.outra.replace('outra.test', 'acme.test') });
    // acme has the claim but no client is configured in this server: same message, in the popup page.
    expect(page.text).toContain(messages.auth.googleLoginDisabled);
  });
});
