import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_CODES } from '@atendimento/schemas';
import { busNamespace } from '@atendimento/server/services/changes/create-bus';
import { createHttpClient } from '../helpers/http-client';
import { RawSocket } from '../server/realtime/realtime-helpers';
import { spawnServer, type ServerProcess } from './server-process';

/**
 * Many processes: two real server processes on one PostgreSQL schema; a write
 * through the API of one reaches a /ws subscriber of the other over the change bus, for
 * BUS=pg (LISTEN/NOTIFY) and BUS=redis (pub/sub). Runs in `npm run test:pg` (*.pg.spec.ts
 * needs DATABASE_URL; vitest.config.ts leaves it out of the SQLite run).
 */

const databaseUrl = process.env.DATABASE_URL!;
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const schema = `t_${randomBytes(6).toString('hex')}`;
const jwtSecret = randomBytes(32).toString('hex');
const namespace = busNamespace({ bus: 'pg', redisUrl, databaseUrl, databaseSchema: schema, sqliteFile: '' });
const sockets: RawSocket[] = [];

afterAll(async () => {
  for (const s of sockets) s.close();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(`drop schema if exists ${pg.escapeIdentifier(schema)} cascade`);
  await client.end();
});

async function login(proc: ServerProcess, email: string, password: string): Promise<string> {
  const res = await createHttpClient(proc.baseUrl, { host: proc.host })('/api/auth/login', { method: 'POST', body: { email, password } });
  if (res.status !== 200) throw new Error(`login(${email}) on ${proc.baseUrl}: ${res.status} ${res.text}\n${proc.output()}`);
  return res.body.data.accessToken as string;
}

async function setStatus(proc: ServerProcess, token: string, status: string): Promise<void> {
  const res = await createHttpClient(proc.baseUrl, { host: proc.host })('/api/users/u-agente/status', { method: 'POST', token, body: { status } });
  expect(res.status, res.text).toBe(200);
  expect(res.body).toEqual({ data: { status } });
}

/** An admin's socket on `proc`, subscribed to the agent's status records and presence. */
async function watcher(proc: ServerProcess, token: string): Promise<RawSocket> {
  const s = new RawSocket(proc.baseUrl, proc.host);
  sockets.push(s);
  await s.auth(token);
  s.send({ type: 'subscribe', id: 'status', collection: 'status', query: { filter: { field: 'userId', op: '==', value: 'u-agente' }, limit: 5 } });
  s.send({ type: 'subscribe', id: 'presence', collection: 'presence', query: { filter: { field: 'id', op: '==', value: 'u-agente' } } });
  await s.frame('snapshot', (f) => f.id === 'status');
  await s.frame('snapshot', (f) => f.id === 'presence');
  return s;
}

/** Waits for the status record `status` (added) and the agent's presence showing it. */
async function sees(s: RawSocket, status: string): Promise<void> {
  await s.frame('changes', (f) => f.id === 'status' && f.added.some((r) => r.status === status && r.userId === 'u-agente'), 15_000);
  await s.frame('changes', (f) => f.id === 'presence' && f.modified.some((r) => r.id === 'u-agente' && r.status === status), 15_000);
}

/** How many connections listen for this schema's notes on the bus (one per process). */
async function listeners(bus: 'pg' | 'redis'): Promise<number> {
  if (bus === 'pg') {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const { rows } = await client.query('select count(*)::int as n from pg_stat_activity where query = $1', [`LISTEN ${pg.escapeIdentifier(`atendimento_changes_${namespace}`)}`]);
    await client.end();
    return rows[0].n as number;
  }
  const redis = new Redis(redisUrl);
  const [, n] = (await redis.pubsub('NUMSUB', `atendimento:changes:${namespace}`)) as [string, number];
  redis.disconnect();
  return Number(n);
}

describe.each(['pg', 'redis'] as const)('two server processes with BUS=%s', (bus) => {
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    const env = { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema, BUS: bus, REDIS_URL: redisUrl, JWT_SECRET: jwtSecret };
    // One after the other: the first one migrates and seeds the demo tenant.
    a = await spawnServer(env);
    b = await spawnServer(env);
  }, 180_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  }, 30_000);

  it('delivers a write made through one process to a subscriber of the other, both ways', { timeout: 60_000 }, async () => {
    expect(a.pid).not.toBe(b.pid);
    expect(await listeners(bus)).toBe(2);
    const admin = await login(a, 'admin@exemplo.com.br', 'admin123');
    const agent = await login(b, 'agente@exemplo.com.br', 'agente123');
    const onA = await watcher(a, admin);
    const onB = await watcher(b, admin);

    // Written through A's API: B's subscriber hears it over the bus (and A's own one too).
    await setStatus(a, agent, 'ausente');
    await sees(onB, 'ausente');
    await sees(onA, 'ausente');

    // And the other way round.
    await setStatus(b, agent, 'online');
    await sees(onA, 'online');
    await sees(onB, 'online');

    // Each process delivered each change once, in order.
    for (const s of [onA, onB]) {
      await s.sync();
      const statusFrames = s.frames.filter((f) => f.type === 'changes' && f.id === 'status');
      expect(statusFrames.flatMap((f) => (f.type === 'changes' ? f.added.map((r) => r.status) : []))).toEqual(['ausente', 'online']);
      const cursors = statusFrames.map((f) => (f.type === 'changes' ? f.cursor : 0));
      expect(cursors).toEqual([...cursors].sort((x, y) => x - y));
    }
  });

  it("a sign-out through one process closes that session's socket on the other at once", { timeout: 60_000 }, async () => {
    const api = createHttpClient(a.baseUrl, { host: a.host });
    const signIn = await api('/api/auth/login', { method: 'POST', body: { email: 'supervisor@exemplo.com.br', password: 'supervisor123' } });
    expect(signIn.status, signIn.text).toBe(200);
    const token = signIn.body.data.accessToken as string;
    const other = await login(a, 'supervisor@exemplo.com.br', 'supervisor123');
    const onB = new RawSocket(b.baseUrl, b.host);
    const keep = new RawSocket(b.baseUrl, b.host);
    sockets.push(onB, keep);
    await onB.auth(token);
    await keep.auth(other);
    expect((await api('/api/auth/logout', { method: 'POST', token, cookie: signIn.cookie })).status).toBeLessThan(300);
    // Well inside the access token's 15 min: the note crossed the bus.
    expect((await onB.closedWith(10_000)).code).toBe(CLOSE_CODES.unauthorized);
    expect(keep.closed).toBeNull();
  });
});
