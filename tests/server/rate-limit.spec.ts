import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@atendimento/server';
import { waitText } from '@atendimento/server/errors';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../helpers/test-server';

let t: TestServer;
const clock = new ManualClock(new Date());
beforeAll(async () => {
  t = await startTestServer({ clock, env: { LOGIN_MAX_PER_ACCOUNT: '5', LOGIN_MAX_PER_IP: '12', LOGIN_WINDOW: '900' } });
});
afterAll(() => t.close());

const attempt = (email: string, password: string) => t.api('/api/auth/login', { method: 'POST', body: { email, password } });

describe('login rate limit (R10)', () => {
  it('answers 429 with Retry-After after 5 failures on one account, even with the right password', async () => {
    for (let i = 0; i < 5; i++) expect((await attempt('agente@acme.test', 'errada')).status).toBe(401);
    const blocked = await attempt('agente@acme.test', TEST_PASSWORD);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(900);
    expect(blocked.body.error).toBe('too_many_attempts');
    // 900 s read as minutes ('Aguarde 15 minutos'), never 'Aguarde 895 segundos'.
    expect(blocked.body.errorMessage).toBe(`Muitas tentativas de acesso. Aguarde ${waitText(Number(blocked.headers['retry-after']))} e tente novamente.`);
    expect(blocked.body.errorMessage).toMatch(/Aguarde 1[45] minutos/);
    clock.advance(901_000);
    expect((await attempt('agente@acme.test', TEST_PASSWORD)).status).toBe(200);
  });

  it('limits unknown accounts exactly like real ones, so it reveals nothing', async () => {
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 6; i++) known.push((await attempt('suporte@acme.test', 'errada')).status);
    for (let i = 0; i < 6; i++) unknown.push((await attempt('fantasma@acme.test', 'errada')).status);
    expect(known).toEqual([401, 401, 401, 401, 401, 429]);
    expect(unknown).toEqual(known);
  });

  it('limits one address across many accounts', async () => {
    clock.advance(901_000);
    const statuses: number[] = [];
    for (let i = 0; i < 13; i++) statuses.push((await attempt(`pessoa${i}@acme.test`, 'errada')).status);
    expect(statuses.slice(0, 12).every((s) => s === 401)).toBe(true);
    expect(statuses[12]).toBe(429);
  });
});

describe('the wait in pt-BR', () => {
  it('seconds under a minute, whole minutes above, singular and plural', () => {
    expect(waitText(1)).toBe('1 segundo');
    expect(waitText(42)).toBe('42 segundos');
    expect(waitText(60)).toBe('1 minuto');
    expect(waitText(61)).toBe('2 minutos');
    expect(waitText(895)).toBe('15 minutos');
  });
});
