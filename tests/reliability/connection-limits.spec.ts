import { spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { waitFor } from '../helpers/wait-for';

/**
 * 21,000 connections from one address made other clients fail, and a
 * slow body could hold a socket for 10 minutes. Per-address caps for HTTP connections and
 * /ws sockets, and header / idle timeouts. The flood comes from 127.0.0.1, everyone else
 * from 127.0.0.2 (both loopback).
 *
 * CI runs a short flood (FLOOD connections, default 1,500, in this process) and asserts that
 * every other client is served. SOAK=1 runs the soak: 20,000 connections opened by a
 * child process, and health p99 ≤ 100 ms for the others.
 */
const SOAK = process.env.SOAK === '1';
const FLOOD = SOAK ? 20_000 : Number(process.env.FLOOD ?? 1_500);
const CAP = 200;

let t: TestServer;
let port: number;
// The cap's own server keeps the default timeouts, so only the cap can close the flood's idle
// connections while the test watches (with 2-second timeouts they would close anyway).
let capped: TestServer;
let capPort: number;
beforeAll(async () => {
  [t, capped] = await Promise.all([
    startTestServer({ env: { CONN_MAX_PER_IP: String(CAP), WS_MAX_PER_IP: '20', HEADERS_TIMEOUT: '2', IDLE_TIMEOUT: '2' } }),
    startTestServer({ env: { CONN_MAX_PER_IP: String(CAP) } }),
  ]);
  port = Number(new URL(t.baseUrl).port);
  capPort = Number(new URL(capped.baseUrl).port);
});
afterAll(() => Promise.all([t?.close(), capped?.close()]));

/** GET /api/health from another address; resolves with the status and the time it took. */
function health(): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port: capPort, path: '/api/health', localAddress: '127.0.0.2', headers: { host: capped.hosts.acme }, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
    });
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    req.end();
  });
}

/**
 * Opens `n` idle connections from 127.0.0.1 in this process, 100 at a time; answers how many the
 * server kept open. In batches because a burst past the kernel's accept queue leaves sockets the
 * client thinks open but the server never accepted (the kernel dropped their last ACK), which
 * would count as kept here although the server never saw them.
 */
async function flood(n: number): Promise<{ sockets: net.Socket[]; kept: () => number }> {
  const sockets: net.Socket[] = [];
  for (let start = 0; start < n; start += 100) {
    const batch: net.Socket[] = [];
    for (let i = start; i < Math.min(n, start + 100); i++) {
      const s = net.connect({ host: '127.0.0.1', port: capPort, localAddress: '127.0.0.1' });
      s.on('error', () => undefined);
      batch.push(s);
    }
    sockets.push(...batch);
    await waitFor(() => batch.every((s) => s.destroyed || s.readyState === 'open'), 'a batch of the flood to connect', 30_000);
  }
  return { sockets, kept: () => sockets.filter((s) => !s.destroyed && s.readyState === 'open').length };
}

describe('per-address connection cap', () => {
  it(`keeps serving others while one address opens ${FLOOD.toLocaleString('en')} connections`, async () => {
    let stopFlood: () => void;
    if (SOAK) {
      // 20,000 sockets do not fit in this process's file descriptors next to the server's.
      const child = spawn(process.execPath, ['-e', `
        const net = require('node:net'); let settled = 0;
        const done = () => { if (++settled === ${FLOOD}) console.log('flood-settled'); };
        for (let i = 0; i < ${FLOOD}; i++) { let once = false; const mark = () => { if (!once) { once = true; done(); } }; const s = net.connect({ host: '127.0.0.1', port: ${capPort}, localAddress: '127.0.0.1' }); s.on('error', mark); s.once('connect', mark); s.once('close', mark); }
        setInterval(() => {}, 1000);`], { stdio: ['ignore', 'pipe', 'ignore'] });
      stopFlood = () => child.kill('SIGKILL');
      // Measure once every flood connection was accepted (and those past the cap closed).
      let out = '';
      child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      // Sockets past the listen backlog retry their SYNs for a long time: measure once the flood
      // settled or after 20 s, whichever comes first (the others are served during the flood).
      await waitFor(() => out.includes('flood-settled'), 'the flood to settle', 20_000).catch(() => undefined);
    } else {
      const f = await flood(FLOOD);
      // The server closed everything past the cap as it was accepted.
      await waitFor(() => f.kept() <= CAP, 'connections past the cap to be closed', 15_000);
      stopFlood = () => f.sockets.forEach((s) => s.destroy());
    }
    try {
      const answers: { status: number; ms: number }[] = [];
      for (let i = 0; i < (SOAK ? 500 : 50); i++) answers.push(await health());
      expect(answers.filter((a) => a.status !== 200)).toEqual([]);
      if (SOAK) {
        const sorted = answers.map((a) => a.ms).sort((a, b) => a - b);
        const p99 = sorted[Math.floor(sorted.length * 0.99)]!;
        expect(p99, `health p99 ${p99.toFixed(1)} ms`).toBeLessThanOrEqual(100);
      }
    } finally {
      stopFlood();
    }
  }, 120_000);
});

describe('timeouts', () => {
  it('closes a connection that never finishes its headers, and one whose body stops', async () => {
    const closedAfter = (write: (s: net.Socket) => void) =>
      new Promise<boolean>((resolve) => {
        const s = net.connect({ host: '127.0.0.1', port, localAddress: '127.0.0.2' }, () => write(s));
        s.on('error', () => undefined);
        s.on('close', () => resolve(true));
        s.resume();
      });
    const headers = closedAfter((s) => s.write(`GET /api/health HTTP/1.1\r\nHost: ${t.hosts.acme}\r\nX-Lento: `));
    const body = closedAfter((s) => s.write(`POST /api/auth/login HTTP/1.1\r\nHost: ${t.hosts.acme}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":`));
    // Both close on their own (2 s limits here; 15 s / 30 s by default): no timed assertion.
    expect(await headers).toBe(true);
    expect(await body).toBe(true);
  }, 60_000);
});

describe('/ws sockets per address', () => {
  it('refuses the upgrade past the cap with 429 and serves other addresses', async () => {
    const upgrade = (localAddress: string) =>
      new Promise<number>((resolve) => {
        const req = http.request({ host: '127.0.0.1', port, path: '/ws', localAddress, agent: false, headers: { host: t.hosts.acme, connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' } });
        req.on('upgrade', () => resolve(101));
        req.on('response', (res) => resolve(res.statusCode ?? 0));
        req.on('error', () => resolve(0));
        req.end();
      });
    const mine: number[] = [];
    for (let i = 0; i < 25; i++) mine.push(await upgrade('127.0.0.1'));
    expect(mine.filter((s) => s === 101)).toHaveLength(20);
    expect(mine.filter((s) => s === 429)).toHaveLength(5);
    expect(await upgrade('127.0.0.2')).toBe(101);
  }, 60_000);
});
