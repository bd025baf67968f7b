import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages as texts } from '@atendimento/schemas';
import { passwordProblem } from '@atendimento/schemas/password-policy';
import { ManualClock } from '@atendimento/server';
import { createLogger } from '@atendimento/server/logger';
import { createAuth } from '@atendimento/server/services/auth/index';
import { createRateLimiter } from '@atendimento/server/services/auth/rate-limiter';
import type { Mailer } from '@atendimento/server/services/mail/mailer';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../helpers/test-server';
import { waitFor } from '../helpers/wait-for';

/**
 * Found before: '123456', 'password' and 'aaaaaa' were accepted; sign-up had no limit
 * per address; password recovery waited for the SMTP server only when the address existed
 * (timing told accounts apart); successful sign-ins counted toward the per-address limit (an
 * office behind one NAT was locked out at shift start) and the limiter scanned its whole map.
 */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ env: { SIGNUP_MAX_PER_IP: '4', LOGIN_MAX_PER_IP: '5' } });
});
afterAll(() => t?.close());

const signUp = (email: string, password: string) => t.api('/api/users', { method: 'POST', body: { displayName: 'Pessoa', email, password, confirmPassword: password } });

describe('password policy', () => {
  it('refuses short, common, repeated and sequential passwords in pt-BR, on sign-up and when an admin sets one', async () => {
    for (const [password, message] of [
      ['12345', texts.validation.passwordMin],
      ['123456', texts.validation.passwordMin8],
      ['password', texts.validation.passwordWeak],
      ['aaaaaaaa', texts.validation.passwordWeak],
      ['12345678', texts.validation.passwordWeak],
      ['Senha123', texts.validation.passwordWeak],
      ['qwertyuiop', texts.validation.passwordWeak],
    ] as const) {
      expect(passwordProblem(password), password).toBe(message);
    }
    expect(passwordProblem('pessoa.silva-2026', { email: 'pessoa.silva@acme.test' })).toBe(texts.validation.passwordWeak);
    expect(passwordProblem('Girassol azul de março')).toBeNull();

    const weak = await signUp('fraca@acme.test', 'password');
    expect(weak.status).toBe(400);
    expect(weak.body.fields).toEqual([{ field: 'password', message: texts.validation.passwordWeak }]);
    const admin = await t.tokenFor('acme', 'acme-admin');
    const set = await t.api('/api/agents/acme-suporte', { method: 'PATCH', token: admin, body: { password: 'aaaaaaaa' } });
    expect(set.status).toBe(400);
    expect(set.body.fields).toEqual([{ field: 'password', message: texts.validation.passwordWeak }]);
  });
});

describe('password recovery', () => {
  it('answers before the mail is sent, so a known address takes as long as an unknown one', async () => {
    // A mail server that never answers: the request must not wait for it.
    let sends = 0;
    const stuck: Mailer = { send: () => ((sends += 1), new Promise(() => undefined)), close: () => undefined } as unknown as Mailer;
    const auth = createAuth({ db: t.server.db, users: t.server.repos.users, config: t.server.config, mailer: stuck, clock: t.server.clock, logger: createLogger('silent'), blobs: t.server.services.blobs });
    const tenant = (await t.server.repos.tenants.findById('acme'))!;
    await auth.service.requestLink(tenant, { email: 'supervisor@acme.test' }, 'reset', { ip: '10.0.0.1', userAgent: null });
    await auth.service.requestLink(tenant, { email: 'nao-existe@acme.test' }, 'reset', { ip: '10.0.0.1', userAgent: null });
    // Sent after answering: on PostgreSQL the send starts a moment later. Only the known address gets one.
    await waitFor(() => sends >= 1, 'the recovery mail to be handed to the mailer');
    expect(sends).toBe(1);
    // Over HTTP the answer is the same for both.
    const known = await t.api('/api/auth/password-recovery', { method: 'POST', body: { email: 'agente@acme.test' } });
    const unknown = await t.api('/api/auth/password-recovery', { method: 'POST', body: { email: 'ninguem@acme.test' } });
    expect(known.status).toBe(unknown.status);
    expect(known.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
    await t.smtp.waitFor('agente@acme.test');
  });
});

describe('sign-up per address', () => {
  it('is limited (429 with the wait in pt-BR), counting refused e-mails too', async () => {
    // One attempt was used above (validation failures before the limit do not count).
    const answers: number[] = [];
    for (let i = 0; i < 4; i++) answers.push((await signUp(`pessoa${i}@acme.test`, 'Girassol-Azul-2026')).status);
    expect(answers).toEqual([201, 201, 201, 201]);
    const fifth = await signUp('admin@acme.test', 'Girassol-Azul-2026');
    expect(fifth.status).toBe(429);
    expect(fifth.body.errorMessage).toMatch(/^Muitas tentativas de acesso\. Aguarde /);
  });
});

describe('sign-in limiter', () => {
  it('counts only failures per address: an office behind one NAT signs in all day', async () => {
    for (let i = 0; i < 12; i++) {
      const res = await t.api('/api/auth/login', { method: 'POST', body: { email: i % 2 ? 'agente@acme.test' : 'supervisor@acme.test', password: TEST_PASSWORD } });
      expect(res.status, `sign-in ${i}`).toBe(200);
    }
    const wrong = [];
    for (let i = 0; i < 5; i++) wrong.push((await t.api('/api/auth/login', { method: 'POST', body: { email: `ninguem${i}@acme.test`, password: 'errada-123' } })).status);
    expect(wrong).toEqual([401, 401, 401, 401, 401]);
    expect((await t.api('/api/auth/login', { method: 'POST', body: { email: 'agente@acme.test', password: TEST_PASSWORD } })).status).toBe(429);
  });

  it('keeps a bounded store, O(1) per attempt: the oldest keys leave first', () => {
    const clock = new ManualClock(new Date('2026-01-01T00:00:00Z'));
    const limiter = createRateLimiter(clock, { max: 3, windowSeconds: 60, maxKeys: 1_000 });
    for (let i = 0; i < 150_000; i++) limiter.hit(`acme:pessoa${i}@acme.test`);
    expect(limiter.size()).toBe(1_000);
    for (let i = 0; i < 3; i++) limiter.hit('acme:alvo@acme.test');
    expect(limiter.retryAfter('acme:alvo@acme.test')).toBe(60);
    // Checking never adds a key.
    limiter.retryAfter('acme:nunca-visto@acme.test');
    expect(limiter.size()).toBe(1_000);
    clock.advance(60_000);
    expect(limiter.retryAfter('acme:alvo@acme.test')).toBe(0);
  });
});
