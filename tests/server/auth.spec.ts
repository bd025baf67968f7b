import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, SESSION_HINT_COOKIE } from '@atendimento/schemas';
import { ManualClock } from '@atendimento/server';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../helpers/test-server';

let t: TestServer;
const clock = new ManualClock(new Date());
beforeAll(async () => {
  t = await startTestServer({ clock });
});
afterAll(() => t.close());

const login = (email: string, password = TEST_PASSWORD, host?: string) =>
  t.api('/api/auth/login', { method: 'POST', body: { email, password }, host });

function linkFrom(text: string): { token: string; mode: string | null } {
  const match = /\/finishSignUp\?token=([\w-]+)(&mode=(\w+))?/.exec(text);
  if (!match) throw new Error(`no link in mail: ${text}`);
  return { token: match[1]!, mode: match[3] ?? null };
}

describe('sign-in', () => {
  it('signs in, sets an httpOnly refresh cookie and the token opens /api/auth/me', async () => {
    const res = await login('  Agente@Acme.test ');
    expect(res.status).toBe(200);
    expect(res.body.data.user).toMatchObject({ id: 'acme-agente', email: 'agente@acme.test', type: 'agent', departments: ['vendas'] });
    expect(res.body.data.user.passwordHash).toBeUndefined();
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/rt=.+; path=\/api\/auth;.*httponly/i);
    expect(setCookie).toMatch(/samesite=strict/i);
    // The page's hint that a session exists: readable (not httpOnly), no secret in it.
    const hint = (res.headers['set-cookie'] as string[]).find((c) => c.startsWith(`${SESSION_HINT_COOKIE}=`))!;
    expect(hint).toMatch(/^atendimento_sessao=1; path=\/;/);
    expect(hint).not.toMatch(/httponly/i);
    // Signing out clears both.
    const out = await t.api('/api/auth/logout', { method: 'POST', token: res.body.data.accessToken, cookie: res.cookie });
    expect(String(out.headers['set-cookie'])).toMatch(/atendimento_sessao=;.*expires=Thu, 01 Jan 1970/i);
    const again = await login('agente@acme.test');
    const me = await t.api('/api/auth/me', { token: again.body.data.accessToken });
    expect(me.status).toBe(200);
    expect(me.body.data.displayName).toBe('Agente Acme');
  });

  it('gives the same answer for an unknown user and a wrong password', async () => {
    const unknown = await login('ninguem@acme.test');
    const wrong = await login('admin@acme.test', 'senha-errada');
    for (const res of [unknown, wrong]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'invalid_credentials', errorMessage: messages.auth.invalidCredentials });
    }
  });

  it("answers 'Usuário desabilitado!' for an inactive user with the right password only", async () => {
    const res = await login('inativo@acme.test');
    expect(res.status).toBe(403);
    expect(res.body.errorMessage).toBe(messages.auth.userDisabled);
    const wrong = await login('inativo@acme.test', 'outra-senha');
    expect(wrong.body.errorMessage).toBe(messages.auth.invalidCredentials);
  });

  it('validates the e-mail and password before anything else', async () => {
    expect((await login('nao-e-email')).body).toEqual({ error: 'invalid_email', errorMessage: messages.auth.invalidEmail });
    expect((await t.api('/api/auth/login', { method: 'POST', body: { password: 'x' } })).body.errorMessage).toBe(messages.validation.emailRequired);
    expect((await login('admin@acme.test', '')).body.errorMessage).toBe(messages.validation.passwordRequired);
  });

  it("does not accept one tenant's user on another tenant's host", async () => {
    const res = await login('admin@outra.test', TEST_PASSWORD, t.hosts.acme);
    expect(res.status).toBe(401);
  });
});

describe('refresh tokens', () => {
  it('rotates on every use and revokes the family when an old token is reused', async () => {
    const first = await login('supervisor@acme.test');
    const r1 = await t.api('/api/auth/refresh', { method: 'POST', cookie: first.cookie });
    expect(r1.status).toBe(200);
    expect(r1.cookie).toBeTruthy();
    expect(r1.cookie).not.toBe(first.cookie);
    const r2 = await t.api('/api/auth/refresh', { method: 'POST', cookie: r1.cookie });
    expect(r2.status).toBe(200);

    // An attacker replays the first (already used) token: the whole session dies.
    const replay = await t.api('/api/auth/refresh', { method: 'POST', cookie: first.cookie });
    expect(replay.status).toBe(401);
    expect(replay.body.error).toBe('refresh_token_reused');
    expect((await t.api('/api/auth/refresh', { method: 'POST', cookie: r2.cookie })).status).toBe(401);
    expect((await t.api('/api/auth/me', { token: r2.body.data.accessToken })).status).toBe(401);
  });

  it('refuses a missing or unknown refresh token', async () => {
    expect((await t.api('/api/auth/refresh', { method: 'POST' })).status).toBe(401);
    expect((await t.api('/api/auth/refresh', { method: 'POST', cookie: 'x'.repeat(43) })).status).toBe(401);
  });

  it('sign-out ends the session: the access and refresh tokens stop working', async () => {
    const res = await login('agente@acme.test');
    const token = res.body.data.accessToken;
    const out = await t.api('/api/auth/logout', { method: 'POST', token, cookie: res.cookie });
    expect(out.status).toBe(204);
    expect((await t.api('/api/auth/me', { token })).status).toBe(401);
    expect((await t.api('/api/auth/refresh', { method: 'POST', cookie: res.cookie })).status).toBe(401);
  });

  it('an expired access token is refused with session_expired wording', async () => {
    const res = await login('agente@acme.test');
    clock.advance(16 * 60_000);
    const me = await t.api('/api/auth/me', { token: res.body.data.accessToken });
    expect(me.status).toBe(401);
    expect(me.body).toEqual({ error: 'token_expired', errorMessage: messages.auth.sessionExpired });
    // The refresh cookie still gives a new access token.
    const refreshed = await t.api('/api/auth/refresh', { method: 'POST', cookie: res.cookie });
    expect(refreshed.status).toBe(200);
    expect((await t.api('/api/auth/me', { token: refreshed.body.data.accessToken })).status).toBe(200);
  });
});

describe('sign-up (POST /api/users)', () => {
  it('creates an active agent and signs them in when publicRegister is on', async () => {
    const res = await t.api('/api/users', { method: 'POST', body: { displayName: 'Nova Pessoa', email: 'nova@acme.test', password: 'segredo1', confirmPassword: 'segredo1' } });
    expect(res.status).toBe(201);
    expect(res.body.data.user).toMatchObject({ displayName: 'Nova Pessoa', type: 'agent', active: true });
    expect(res.cookie).toBeTruthy();
    expect((await login('nova@acme.test', 'segredo1')).status).toBe(200);
  });

  it('uses the seed messages for each invalid field', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ email: 'x@acme.test', password: 'segredo1', confirmPassword: 'segredo1' }, messages.validation.displayNameRequired],
      [{ displayName: 'A', email: 'x@acme.test', password: '123', confirmPassword: '123' }, messages.validation.passwordMin],
      [{ displayName: 'A', email: 'x@acme.test', password: 'segredo1' }, messages.validation.confirmRequired],
      [{ displayName: 'A', email: 'x@acme.test', password: 'segredo1', confirmPassword: 'segredo2' }, messages.validation.passwordsDiffer],
    ];
    for (const [body, message] of cases) {
      const res = await t.api('/api/users', { method: 'POST', body });
      expect(res.status).toBe(400);
      expect(res.body.fields.map((f: { message: string }) => f.message)).toContain(message);
    }
  });

  it('refuses an e-mail that would look like another account: a NUL, a right-to-left override, full-width letters', async () => {
    for (const email of ['admin@acme.test\u0000', 'x@mail.com\u202e', 'ａｄｍｉｎ@acme.test', 'ad\u200bmin@acme.test']) {
      const res = await t.api('/api/users', { method: 'POST', body: { displayName: 'Sósia', email, password: 'segredo1', confirmPassword: 'segredo1' } });
      expect(res.status, JSON.stringify(email)).toBe(400);
      expect(res.body.errorMessage).toBeTruthy();
    }
    // An address with accents is a real one (RFC 6531) and stays accepted.
    const accented = await t.api('/api/users', { method: 'POST', body: { displayName: 'José', email: 'josé@acme.test', password: 'segredo1', confirmPassword: 'segredo1' } });
    expect(accented.status, accented.text).toBe(201);
  });

  it('refuses a taken e-mail and a tenant without publicRegister', async () => {
    const taken = await t.api('/api/users', { method: 'POST', body: { displayName: 'X', email: 'admin@acme.test', password: 'segredo1', confirmPassword: 'segredo1' } });
    expect(taken.status).toBe(409);
    const closed = await t.api('/api/users', { method: 'POST', host: t.hosts.outra, body: { displayName: 'X', email: 'x@outra.test', password: 'segredo1', confirmPassword: 'segredo1' } });
    expect(closed.status).toBe(403);
    expect(closed.body.error).toBe('register_disabled');
  });
});

describe('e-mailed links', () => {
  it('signs in with a one-time link read from the real SMTP server', async () => {
    const res = await t.api('/api/auth/email-link', { method: 'POST', body: { email: 'suporte@acme.test' } });
    expect(res.status).toBe(200);
    const mail = await t.smtp.waitFor('suporte@acme.test');
    const { token } = linkFrom(mail.text);
    const done = await t.api('/api/auth/email-link/complete', { method: 'POST', body: { token, email: 'suporte@acme.test' } });
    expect(done.status).toBe(200);
    expect(done.body.data.user.id).toBe('acme-suporte');

    const again = await t.api('/api/auth/email-link/complete', { method: 'POST', body: { token, email: 'suporte@acme.test' } });
    expect(again.status).toBe(400);
    expect(again.body.errorMessage).toBe(messages.auth.linkExpiredOrUsed);
  });

  it('refuses an expired link, a wrong e-mail and a made-up token', async () => {
    t.smtp.inbox.length = 0;
    await t.api('/api/auth/email-link', { method: 'POST', body: { email: 'admin@acme.test' } });
    const { token } = linkFrom((await t.smtp.waitFor('admin@acme.test')).text);
    const wrongEmail = await t.api('/api/auth/email-link/complete', { method: 'POST', body: { token, email: 'agente@acme.test' } });
    expect(wrongEmail.body.errorMessage).toBe(messages.auth.linkInvalid);
    const madeUp = await t.api('/api/auth/email-link/complete', { method: 'POST', body: { token: 'a'.repeat(43), email: 'admin@acme.test' } });
    expect(madeUp.body.errorMessage).toBe(messages.auth.linkInvalid);
    clock.advance(61 * 60_000);
    const expired = await t.api('/api/auth/email-link/complete', { method: 'POST', body: { token, email: 'admin@acme.test' } });
    expect(expired.status).toBe(400);
    expect(expired.body).toMatchObject({ error: 'link_expired', errorMessage: messages.auth.linkExpiredOrUsed });
  });

  it('answers the same for unknown e-mails and sends nothing', async () => {
    const before = t.smtp.inbox.length;
    const res = await t.api('/api/auth/password-recovery', { method: 'POST', body: { email: 'ninguem@acme.test' } });
    expect(res.status).toBe(200);
    expect(res.body.data.message).toBe(messages.auth.recoverySent);
    // A marker: a link to a known account, sent after the unknown one through the same mailer.
    // Once it is caught, a mail for the unknown address would have been caught before it.
    await t.api('/api/auth/email-link', { method: 'POST', body: { email: 'supervisor@acme.test' } });
    const marker = await t.smtp.waitFor('supervisor@acme.test');
    expect(t.smtp.inbox.slice(before)).toEqual([marker]);
  });

  it('password recovery signs in with updatePass so the app opens /profile', async () => {
    await t.api('/api/auth/password-recovery', { method: 'POST', body: { email: 'agente@acme.test' } });
    const mail = await t.smtp.waitFor('agente@acme.test');
    const { token, mode } = linkFrom(mail.text);
    expect(mode).toBe('resetPassword');
    const done = await t.api('/api/auth/email-link/complete', { method: 'POST', body: { token, email: 'agente@acme.test' } });
    expect(done.body.data.user.updatePass).toBe(true);
    // The profile says why: a recovery, not a first access.
    expect(done.body.data.user.updatePassReason).toBe('recovery');
    const changed = await t.api('/api/profile', { method: 'PATCH', token: done.body.data.accessToken, body: { password: 'nova-senha-1', confirmPassword: 'nova-senha-1' } });
    expect(changed.status).toBe(200);
    expect(changed.body.data.updatePass).toBe(false);
    expect(changed.body.data.updatePassReason).toBeNull();
    expect((await login('agente@acme.test', 'nova-senha-1')).status).toBe(200);
    expect((await login('agente@acme.test', TEST_PASSWORD)).status).toBe(401);
    // No longer a recovery: the password it now has is asked for.
    const back = await t.api('/api/profile', { method: 'PATCH', token: done.body.data.accessToken, body: { password: TEST_PASSWORD, confirmPassword: TEST_PASSWORD, currentPassword: 'nova-senha-1' } });
    expect(back.status, back.text).toBe(200);
  });

  it("a tenant's e-mailed link points at that tenant's host (the default tenant's at PUBLIC_URL), and completes there", async () => {
    await t.api('/api/auth/password-recovery', { method: 'POST', host: t.hosts.outra, body: { email: 'admin@outra.test' } });
    const mail = await t.smtp.waitFor('admin@outra.test');
    const href = /(https?:\/\/[^\s"<>]+\/finishSignUp\?[^\s"<>]+)/.exec(mail.text)![1]!;
    expect(new URL(href).hostname).toBe('outra.test');
    const { token } = linkFrom(mail.text);
    const done = await t.api('/api/auth/email-link/complete', { method: 'POST', host: t.hosts.outra, body: { token, email: 'admin@outra.test' } });
    expect(done.status, done.text).toBe(200);
    await t.api('/api/auth/email-link', { method: 'POST', body: { email: 'supervisor@acme.test' } });
    const acme = await t.smtp.waitFor('supervisor@acme.test');
    expect(new URL(/(https?:\/\/[^\s"<>]+\/finishSignUp\?[^\s"<>]+)/.exec(acme.text)![1]!).origin).toBe(t.server.config.publicUrl);
  });

  it('an unverified sign-up cannot be taken over: completing a link drops that password', async () => {
    // Someone registers the victim's address with a password they know...
    const squat = await t.api('/api/users', { method: 'POST', body: { displayName: 'Invasor', email: 'vitima@acme.test', password: 'invasor1', confirmPassword: 'invasor1' } });
    expect(squat.status).toBe(201);
    // ...the real owner later signs in through the e-mailed link.
    await t.api('/api/auth/email-link', { method: 'POST', body: { email: 'vitima@acme.test' } });
    const { token } = linkFrom((await t.smtp.waitFor('vitima@acme.test')).text);
    const owner = await t.api('/api/auth/email-link/complete', { method: 'POST', body: { token, email: 'vitima@acme.test' } });
    expect(owner.status).toBe(200);
    expect(owner.body.data.user.updatePass).toBe(true);
    // Not silent: the profile tells the owner the sign-up password was discarded.
    expect(owner.body.data.user.updatePassReason).toBe('emailConfirmed');
    // The squatter's password and session no longer work.
    expect((await login('vitima@acme.test', 'invasor1')).status).toBe(401);
    expect((await t.api('/api/auth/me', { token: squat.body.data.accessToken })).status).toBe(401);
  });
});

describe('profile', () => {
  it('checks the password confirmation and keeps other fields', async () => {
    const token = await t.login('suporte@acme.test');
    const differ = await t.api('/api/profile', { method: 'PATCH', token, body: { password: 'Girassol-Azul-1', confirmPassword: 'Girassol-Azul-2' } });
    expect(differ.status).toBe(400);
    expect(differ.body.fields[0].message).toBe(messages.validation.passwordsDiffer);
    const renamed = await t.api('/api/profile', { method: 'PATCH', token, body: { displayName: 'Suporte Renomeado' } });
    expect(renamed.body.data).toMatchObject({ displayName: 'Suporte Renomeado', email: 'suporte@acme.test' });
  });

  it('refuses what the profile does not take: a body that is not an object, a field it does not know, a picture of another tenant', async () => {
    const token = await t.login('suporte@acme.test');
    const array = await t.api('/api/profile', { method: 'PATCH', token, body: [{ displayName: 'X' }] });
    expect(array.status).toBe(400);
    expect(array.body).toEqual({ error: 'invalid_body', errorMessage: messages.errors.badJson });
    const claims = await t.api('/api/profile', { method: 'PATCH', token, body: { displayName: 'Suporte', claims: { admin: true }, email: 'outro@acme.test' } });
    expect(claims.status).toBe(400);
    expect(claims.body.fields.map((f: { field: string }) => f.field)).toEqual(['claims', 'email']);
    const foreign = await t.api('/api/profile', { method: 'PATCH', token, body: { photoUrl: '/api/files/outra/abc.jpg' } });
    expect(foreign.status).toBe(400);
    const own = await t.api('/api/profile', { method: 'PATCH', token, body: { photoUrl: '/api/files/acme/abc.jpg' } });
    expect(own.status, own.text).toBe(200);
  });

  it('a password the account has is asked for before it changes: a leaked access token alone cannot take the account over', async () => {
    const token = await t.login('suporte@acme.test');
    const next = 'Tartaruga verde nada devagar';
    const missing = await t.api('/api/profile', { method: 'PATCH', token, body: { password: next, confirmPassword: next } });
    expect(missing.status).toBe(400);
    expect(missing.body.fields).toEqual([{ field: 'currentPassword', message: messages.validation.currentPasswordRequired }]);
    const wrong = await t.api('/api/profile', { method: 'PATCH', token, body: { password: next, confirmPassword: next, currentPassword: 'chute-qualquer' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.fields).toEqual([{ field: 'currentPassword', message: messages.validation.currentPasswordWrong }]);
    // Nothing changed: the old password still signs in, the new one does not.
    expect((await login('suporte@acme.test', TEST_PASSWORD)).status).toBe(200);
    expect((await login('suporte@acme.test', next)).status).toBe(401);
    const right = await t.api('/api/profile', { method: 'PATCH', token, body: { password: next, confirmPassword: next, currentPassword: TEST_PASSWORD } });
    expect(right.status, right.text).toBe(200);
    expect(right.body.data.hasPassword).toBe(true);
    expect((await login('suporte@acme.test', next)).status).toBe(200);
    // Back to the suite's password (this session stays signed in across its own change).
    expect((await t.api('/api/profile', { method: 'PATCH', token, body: { password: TEST_PASSWORD, confirmPassword: TEST_PASSWORD, currentPassword: next } })).status).toBe(200);
  });

  it('accepts WhatsApp only when allowFollowMe is on for tenant and user', async () => {
    const allowed = await t.api('/api/profile', { method: 'PATCH', token: await t.login('agente@acme.test'), body: { whatsapp: '+55 (11) 98765.4321' } });
    expect(allowed.status).toBe(200);
    expect(allowed.body.data.whatsapp).toBe('5511987654321');
    const denied = await t.api('/api/profile', { method: 'PATCH', token: await t.login('suporte@acme.test'), body: { whatsapp: '+55 (11) 98765.4321' } });
    expect(denied.status).toBe(403);
  });

  it("toggles 'Siga-me' (followMe) only when allowFollowMe is on for tenant and user", async () => {
    const token = await t.login('agente@acme.test');
    const on = await t.api('/api/profile', { method: 'PATCH', token, body: { followMe: true } });
    expect(on.status).toBe(200);
    expect(on.body.data.claims.followMe).toBe(true);
    expect(on.body.data.claims.allowFollowMe).toBe(true);
    const off = await t.api('/api/profile', { method: 'PATCH', token, body: { followMe: false } });
    expect(off.body.data.claims.followMe).toBe(false);
    const bad = await t.api('/api/profile', { method: 'PATCH', token, body: { followMe: 'sim' } });
    expect(bad.status).toBe(400);
    const denied = await t.api('/api/profile', { method: 'PATCH', token: await t.login('suporte@acme.test'), body: { followMe: true } });
    expect(denied.status).toBe(403);
  });

  it('stores a JPEG avatar and serves it only on its tenant host', async () => {
    const token = await t.login('admin@acme.test');
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 0xff, 0xd9]);
    const res = await t.api('/api/profile/photo', { method: 'POST', token, body: { data: jpeg.toString('base64'), mimeType: 'image/jpeg' } });
    expect(res.status).toBe(200);
    const url: string = res.body.data.photoUrl;
    expect(url).toMatch(/^\/api\/files\/acme\/[\w-]+\.jpg$/);
    const file = await t.api(url);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('image/jpeg');
    expect((await t.api(url, { host: t.hosts.outra })).status).toBe(404);
    const html = await t.api('/api/profile/photo', { method: 'POST', token, body: { data: Buffer.from('<svg onload=alert(1)>').toString('base64'), mimeType: 'image/jpeg' } });
    expect(html.status).toBe(400);
  });
});
