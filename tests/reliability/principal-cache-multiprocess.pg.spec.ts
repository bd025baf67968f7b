import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient, type HttpClient } from '../helpers/http-client';
import { waitFor } from '../helpers/wait-for';
import { spawnServer, type ServerProcess } from './server-process';

/**
 * The principal cache across processes (docs/auth.md "Principal cache"): two real server
 * processes on one PostgreSQL schema (BUS=pg). An agent's requests go to B, which caches their
 * principal; an admin changes the agent's rights through A. B learns it through the bus and
 * answers with the new rights well before the cache's 5 s would have run out.
 */
const databaseUrl = process.env.DATABASE_URL!;
const schema = `t_${randomBytes(6).toString('hex')}`;
const env = { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema, BUS: 'pg', JWT_SECRET: randomBytes(32).toString('hex'), DEMO_WHATSAPP: 'false' };
let a: ServerProcess;
let b: ServerProcess;
let viaA: HttpClient;
let viaB: HttpClient;

async function signIn(client: HttpClient, email: string, password: string): Promise<string> {
  const res = await client('/api/auth/login', { method: 'POST', body: { email, password } });
  expect(res.status, res.text).toBe(200);
  return res.body.data.accessToken as string;
}

beforeAll(async () => {
  a = await spawnServer(env);
  b = await spawnServer(env);
  viaA = createHttpClient(a.baseUrl, { host: a.host });
  viaB = createHttpClient(b.baseUrl, { host: b.host });
}, 180_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(`drop schema if exists ${pg.escapeIdentifier(schema)} cascade`);
  await client.end();
}, 60_000);

describe('principal cache: a change on one process reaches the other', () => {
  it('a permission granted and a user disabled through A count on B within the bus latency', async () => {
    const admin = await signIn(viaA, 'admin@exemplo.com.br', 'admin123');
    const agent = await signIn(viaB, 'agente@exemplo.com.br', 'agente123');
    expect((await viaB('/api/dashboard/reports', { token: agent })).status).toBe(403);
    expect((await viaB('/api/dashboard/reports', { token: agent })).status).toBe(403);

    const granted = await viaA('/api/agents/u-agente', { method: 'PATCH', token: admin, body: { claims: { dashboard: true } } });
    expect(granted.status, granted.text).toBe(200);
    let start = Date.now();
    await waitFor(async () => (await viaB('/api/dashboard/reports', { token: agent })).status === 200, 'B to see the new permission', 5_000);
    expect(Date.now() - start).toBeLessThan(2_500);

    const disabled = await viaA('/api/agents/u-agente', { method: 'PATCH', token: admin, body: { active: false } });
    expect(disabled.status, disabled.text).toBe(200);
    start = Date.now();
    await waitFor(async () => [401, 403].includes((await viaB('/api/auth/me', { token: agent })).status), 'B to refuse the disabled user', 5_000);
    expect(Date.now() - start).toBeLessThan(2_500);
  }, 60_000);
});
