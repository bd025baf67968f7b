import argon2 from 'argon2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARGON2_PARAMS } from '@atendimento/server/services/auth/password';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../helpers/test-server';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('password hashing (R9)', () => {
  it('stores argon2id with m=19456 KiB, t=2, p=1', async () => {
    await t.api('/api/users', { method: 'POST', body: { displayName: 'Hash', email: 'hash@acme.test', password: 'segredo1', confirmPassword: 'segredo1' } });
    const user = await t.server.repos.users.findByEmail('acme', 'hash@acme.test');
    expect(user?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(ARGON2_PARAMS).toMatchObject({ memoryCost: 19456, timeCost: 2, parallelism: 1 });
  });

  it('upgrades a weaker stored hash at the next successful sign-in', async () => {
    const weak = await argon2.hash(TEST_PASSWORD, { type: argon2.argon2i, memoryCost: 4096, timeCost: 1, parallelism: 1 });
    await t.server.repos.users.update('acme', 'acme-suporte', { passwordHash: weak }, new Date());
    const res = await t.api('/api/auth/login', { method: 'POST', body: { email: 'suporte@acme.test', password: TEST_PASSWORD } });
    expect(res.status).toBe(200);
    const user = await t.server.repos.users.findById('acme', 'acme-suporte');
    expect(user?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(await argon2.verify(user!.passwordHash!, TEST_PASSWORD)).toBe(true);
  });
});
