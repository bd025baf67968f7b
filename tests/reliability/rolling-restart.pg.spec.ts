import { randomBytes } from 'node:crypto';
import pg from 'pg';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRealtimeClient, type RealtimeClient, type WebSocketLike } from '@atendimento/schemas';
import { createHttpClient } from '../helpers/http-client';
import { waitFor } from '../helpers/wait-for';
import { spawnServer, type ServerProcess } from './server-process';

/**
 * Rolling restart (docs/production.md "Upgrades"): two real server processes on one
 * PostgreSQL schema (BUS=pg) behind a test "proxy" (requests and sockets go to a live process;
 * 503 and refused connections are retried on the other, as nginx's proxy_next_upstream does).
 * While tags are created through both, one process is stopped with SIGTERM (graceful stop)
 * and started again. Typed realtime clients, half of them on the restarted process, get 1001,
 * reconnect through the proxy and resume by cursor: every acknowledged tag reaches every
 * client exactly once (0 lost, 0 duplicated), none is lost or doubled in the database.
 */
const databaseUrl = process.env.DATABASE_URL!;
const schema = `t_${randomBytes(6).toString('hex')}`;
const jwtSecret = randomBytes(32).toString('hex');
const env = { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema, BUS: 'pg', JWT_SECRET: jwtSecret, SECRETS_KEY: randomBytes(32).toString('base64'), SHUTDOWN_GRACE_MS: '5000' };
const CLIENTS = 10;
const PREFIX = `rr-${randomBytes(3).toString('hex')}`;

/** The two upstreams; `null` while one is restarting. */
const upstreams: (ServerProcess | null)[] = [null, null];
const clients: RealtimeClient[] = [];
let next = 0;

function pick(): ServerProcess {
  for (let i = 0; i < upstreams.length; i++) {
    const p = upstreams[(next + i) % upstreams.length];
    if (p) {
      next = (next + i + 1) % upstreams.length;
      return p;
    }
  }
  throw new Error('no upstream');
}

afterAll(async () => {
  for (const c of clients) c.close();
  await Promise.all(upstreams.map((p) => p?.stop()));
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(`drop schema if exists ${pg.escapeIdentifier(schema)} cascade`);
  await client.end();
}, 60_000);

beforeAll(async () => {
  upstreams[0] = await spawnServer(env);
  upstreams[1] = await spawnServer(env);
}, 180_000);

/** A request through the "proxy": retried on the other process when refused or answered 503 (never processed). */
async function viaProxy(path: string, init: { method: string; token?: string; body?: unknown }): Promise<{ status: number; body: any }> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const p = pick();
    try {
      const res = await createHttpClient(p.baseUrl, { host: p.host })(path, init);
      if (res.status !== 503) return { status: res.status, body: res.body };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ECONNREFUSED') throw err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`viaProxy ${path}: no process answered`);
}

/** Sockets through the "proxy": each connection attempt goes to a live process, first one for the first half of the clients. */
function proxiedSocket(prefer: number): new (url: string) => WebSocketLike {
  return class extends WebSocket {
    constructor(_url: string) {
      const p = upstreams[prefer] ?? pick();
      super(`${p.baseUrl.replace('http', 'ws')}/ws`, { headers: { host: p.host }, perMessageDeflate: false });
    }
  } as unknown as new (url: string) => WebSocketLike;
}

describe('rolling restart of one of two PostgreSQL processes', () => {
  it('loses and duplicates no acknowledged write, in the database or at any client', { timeout: 240_000 }, async () => {
    const login = await viaProxy('/api/auth/login', { method: 'POST', body: { email: 'admin@exemplo.com.br', password: 'admin123' } });
    expect(login.status).toBe(200);
    const token = login.body.data.accessToken as string;

    const seen: { ids: string[]; snapshots: number; resumes: number }[] = [];
    for (let i = 0; i < CLIENTS; i++) {
      const state = { ids: [] as string[], snapshots: 0, resumes: 0 };
      seen.push(state);
      const client = createRealtimeClient({ url: 'ws://proxy/ws', WebSocket: proxiedSocket(i % 2), getToken: () => token, backoff: { initialMs: 200, maxMs: 1000 } });
      clients.push(client);
      const sub = client.subscribe<{ id: string; name: string }>('tags', { filter: { field: 'name', op: 'like', value: PREFIX }, limit: 1000 });
      sub.onUpdate((u) => {
        if (u.kind === 'snapshot') {
          state.snapshots++;
          state.ids.push(...u.frame.records.map((r) => String(r.id)));
        } else if (u.kind === 'changes') {
          if (u.frame.resumed) state.resumes++;
          state.ids.push(...u.frame.added.map((r) => String(r.id)));
        }
      });
      client.connect();
      await waitFor(() => sub.state === 'live', `client ${i} live`, 30_000);
    }

    // Writers: tags created one after another through the proxy until stopped.
    const acked: string[] = [];
    let stop = false;
    let n = 0;
    const writers = Array.from({ length: 3 }, async () => {
      while (!stop) {
        const name = `${PREFIX}-${String(n++).padStart(4, '0')}`;
        const res = await viaProxy('/api/tags', { method: 'POST', token, body: { name } });
        expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
        acked.push(String(res.body.id));
        await new Promise((r) => setTimeout(r, 50));
      }
    });

    await waitFor(() => acked.length >= 20, '20 tags before the restart', 60_000);
    // Graceful stop of process 0 while the writes go on, then a new process 0 on the same database.
    const old = upstreams[0]!;
    upstreams[0] = null;
    await old.stop();
    const ackedDuringRestart = acked.length;
    upstreams[0] = await spawnServer(env);
    await waitFor(() => acked.length >= ackedDuringRestart + 20, '20 tags after the restart', 60_000);
    stop = true;
    await Promise.all(writers);

    // Database: every acknowledged tag exactly once.
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const { rows } = await db.query(`select id from ${pg.escapeIdentifier(schema)}.tags where name like $1 and deleted_at is null`, [`${PREFIX}-%`]);
    await db.end();
    const stored = rows.map((r: { id: string }) => String(r.id));
    expect(new Set(stored).size).toBe(stored.length);
    expect(stored.sort()).toEqual([...acked].sort());

    // Clients: every acknowledged tag once, half of them having lived through the restart.
    await waitFor(() => seen.every((s) => new Set(s.ids).size >= acked.length), 'every client to catch up', 60_000);
    for (const [i, s] of seen.entries()) {
      const dupes = s.ids.filter((id, at) => s.ids.indexOf(id) !== at);
      expect(dupes, `client ${i} duplicates`).toEqual([]);
      expect([...s.ids].sort(), `client ${i}`).toEqual([...acked].sort());
      expect(s.snapshots, `client ${i} resumed instead of a fresh snapshot`).toBe(1);
      // The clients of the restarted process came back through a resume by cursor.
      if (i % 2 === 0) expect(s.resumes, `client ${i} resumes`).toBeGreaterThanOrEqual(1);
    }
  });
});
