import net from 'node:net';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@atendimento/schemas';
import { spawnServer, type ServerProcess } from './server-process';

/**
 * Graceful stop (docs/production.md "Upgrades"): SIGTERM to a real server process while a
 * request is still being uploaded and a /ws client is connected. The upload finishes and gets
 * its answer, the socket gets a `goingAway { retryInMs }` frame (a small jittered retry hint)
 * and then 1001 with the pt-BR reason (the client reconnects elsewhere after the hint and
 * resumes by cursor), new connections are refused, the process exits 0 and drops its
 * data/run mark (so `npm run restore` may run).
 */
let dataDir: string;
let proc: ServerProcess;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'graceful-stop-'));
  proc = await spawnServer({ DATABASE_URL: '', DATA_DIR: dataDir, DEMO_WHATSAPP: 'false', SHUTDOWN_GRACE_MS: '8000' });
}, 120_000);

afterAll(async () => {
  await proc?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('graceful stop', () => {
  it('finishes the in-flight request, sends a retry hint and 1001 to sockets, refuses new connections, exits cleanly', async () => {
    expect(readdirSync(path.join(dataDir, 'run'))).toEqual([`server-${proc.pid}.json`]);
    const ws = new WebSocket(`ws://127.0.0.1:${proc.port}/ws`, { headers: { host: proc.host } });
    await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
    // What the socket saw, in order: frames, then the close.
    const seen: string[] = [];
    ws.on('message', (data) => seen.push(data.toString()));
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      ws.once('close', (code, reason) => (seen.push('close'), resolve({ code, reason: reason.toString() }))),
    );

    // An upload in flight: headers and half of the body sent before the signal.
    const body = JSON.stringify({ email: 'ninguem@exemplo.com.br', password: 'x'.repeat(4000) });
    const socket = net.connect(proc.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let answer = '';
    socket.on('data', (d: Buffer) => (answer += d.toString()));
    const ended = new Promise((resolve) => socket.once('close', resolve));
    socket.write(`POST /api/auth/login HTTP/1.1\r\nHost: ${proc.host}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`);
    socket.write(body.slice(0, 2000));
    await new Promise((r) => setTimeout(r, 200));

    process.kill(proc.pid, 'SIGTERM');
    expect(await closed).toEqual({ code: 1001, reason: messages.realtime.goingAway });
    // The retry hint came just before the close: small and jittered (docs/realtime.md).
    expect(seen).toHaveLength(2);
    expect(seen[1]).toBe('close');
    const hint = JSON.parse(seen[0]!) as { type: string; retryInMs: number };
    expect(hint.type).toBe('goingAway');
    expect(Number.isInteger(hint.retryInMs)).toBe(true);
    expect(hint.retryInMs).toBeGreaterThanOrEqual(250);
    expect(hint.retryInMs).toBeLessThan(2_250);
    // The listening socket is closed: a new connection is refused.
    const refused = await new Promise<string>((resolve) => {
      const probe = net.connect(proc.port, '127.0.0.1');
      probe.once('connect', () => (probe.destroy(), resolve('connected')));
      probe.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');

    socket.write(body.slice(2000));
    await ended;
    // Answered (wrong credentials), not cut: the request ran to the end.
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(answer).toMatch(/connection: close/i);

    for (let i = 0; i < 100 && existsSync(path.join(dataDir, 'run', `server-${proc.pid}.json`)); i++) await new Promise((r) => setTimeout(r, 100));
    expect(readdirSync(path.join(dataDir, 'run'))).toEqual([]);
  }, 60_000);
});
