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

  it('a later local sign-up with the e-mail of an account Google created does not capture it, and hears the normal 409', async () => {
    const email = 'conta-google@acme.test';
    const google = await t.server.services.auth.signInWithGoogle(await tenant(), { email, emailVerified: true, name: 'Dona da Conta' }, meta);
    const before = (await t.server.repos.users.findByEmail('acme', email))!;
    expect(before).toMatchObject({ id: google.session.user.id, emailVerified: true, passwordHash: null });
    const beforeRow = await t.server.db('users').where({ tenant_id: 'acme', id: before.id }).first();

    // What a sign-up with an address of a plain local account answers (docs/auth.md "Sign-up and enumeration").
    const local = await t.api('/api/users', { method: 'POST', body: { displayName: 'Outro', email: 'agente@acme.test', password: TEST_PASSWORD, confirmPassword: TEST_PASSWORD } });
    expect(local.status).toBe(409);
    for (const typed of [email, '  Conta-Google@ACME.test ']) {
      const signUp = await t.api('/api/users', { method: 'POST', body: { displayName: 'Impostor', email: typed, password: TEST_PASSWORD, confirmPassword: TEST_PASSWORD } });
      expect(signUp.status, typed).toBe(409);
      expect(signUp.body).toEqual(local.body);
      expect(signUp.body.errorMessage).toBe(messages.auth.emailInUse);
      expect(signUp.text).not.toContain('accessToken');
      expect(signUp.cookie).toBeNull();
    }

    // The account is untouched: no password set, still verified, no second account, same row.
    expect(await t.server.db('users').where({ tenant_id: 'acme', id: before.id }).first()).toEqual(beforeRow);
    expect(await t.server.db('users').where({ tenant_id: 'acme' }).whereRaw('lower(email) = ?', [email])).toHaveLength(1);
    // The impostor's password does not sign in, with the same answer as an unknown address.
    const login = await t.api('/api/auth/login', { method: 'POST', body: { email, password: TEST_PASSWORD } });
    const unknown = await t.api('/api/auth/login', { method: 'POST', body: { email: 'ninguem-aqui@acme.test', password: TEST_PASSWORD } });
    expect(login.status).toBe(401);
    expect(login.body).toEqual(unknown.body);
    expect(login.body.errorMessage).toBe(messages.auth.invalidCredentials);
    // The owner's Google session still works; Google still signs the same account in.
    expect((await t.api('/api/auth/me', { token: google.session.accessToken })).status).toBe(200);
    const again = await t.server.services.auth.signInWithGoogle(await tenant(), { email, emailVerified: true, name: 'Dona da Conta' }, meta);
    expect(again.session.user.id).toBe(before.id);
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
