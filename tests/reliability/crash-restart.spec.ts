import http from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '@atendimento/server/logger';
import { isRequestStreamError, processErrorHandler } from '@atendimento/server/process-guard';
import { supervise } from '../../scripts/supervise.mjs';
import { MULTIPART_BOUNDARY, MULTIPART_TYPE } from '../helpers/multipart';
import { waitFor } from '../helpers/wait-for';
import { spawnServer, type ServerProcess } from './server-process';

/**
 * One anonymous request stopped the server for every tenant and
 * `npm start` did not bring it back. Three layers: every stream error handled (here: the
 * built server, as `npm start` runs it, survives a truncated multipart body), a process-level
 * last resort that keeps serving on a request's stream error, and a supervisor that starts a
 * crashed server again.
 */
const tmp = mkdtempSync(path.join(os.tmpdir(), 'crash-restart-'));
let proc: ServerProcess | null = null;
afterAll(async () => {
  await proc?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

function request(port: number, pathname: string, method: string, headers: Record<string, string>, body?: Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname: '127.0.0.1', port, path: pathname, method, headers: { ...headers, ...(body && { 'content-length': String(body.length) }) } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the built server survives a truncated multipart body', () => {
  it('answers 400 and keeps serving', async () => {
    proc = await spawnServer({ DATABASE_URL: '', JWT_SECRET: 'crash-restart-secret-0123456789abcdef', DEMO_WHATSAPP: 'false' });
    const login = await request(proc.port, '/api/auth/login', 'POST', { host: proc.host, 'content-type': 'application/json' }, Buffer.from(JSON.stringify({ email: 'admin@exemplo.com.br', password: 'admin123' })));
    expect(login.status, login.text).toBe(200);
    const token = JSON.parse(login.text).data.accessToken as string;
    const cut = Buffer.concat([
      Buffer.from(`--${MULTIPART_BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`),
      Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64'),
      Buffer.alloc(20_000, 0x41),
    ]);
    for (let i = 0; i < 3; i++) {
      const res = await request(proc.port, '/api/upload', 'POST', { host: proc.host, authorization: `Bearer ${token}`, 'content-type': MULTIPART_TYPE }, cut);
      expect(res.status, res.text).toBe(400);
    }
    const health = await request(proc.port, '/api/health', 'GET', { host: proc.host });
    expect(health.status, proc.output()).toBe(200);
    expect(proc.output()).not.toContain('process.crashed');
  });
});

describe('process-level last resort', () => {
  it("keeps serving on a request's stream error and exits on anything else", async () => {
    const exits: number[] = [];
    const handler = processErrorHandler(createLogger('silent'), 'uncaughtException', (code) => exits.push(code));
    expect(handler(new Error('Unexpected end of form'))).toBe('kept');
    expect(handler(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))).toBe('kept');
    expect(handler(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe('exiting');
    await waitFor(() => exits.length === 1, 'the exit after logging');
    expect(exits).toEqual([1]);
    expect(isRequestStreamError('texto')).toBe(false);
  });
});

describe("npm start's supervisor", () => {
  it('starts a crashed server again, and stops with the signal it is given', async () => {
    const marker = path.join(tmp, 'started-once');
    const script = path.join(tmp, 'server.mjs');
    // Crashes the first time (like the uncaught stream error did), then stays up.
    writeFileSync(script, `import { existsSync, writeFileSync } from 'node:fs';
if (!existsSync(${JSON.stringify(marker)})) { writeFileSync(${JSON.stringify(marker)}, '1'); throw new Error('Unexpected end of form'); }
writeFileSync(${JSON.stringify(marker)}, '2');
setInterval(() => {}, 1000);`);
    const children: number[] = [];
    const lines: string[] = [];
    const running = supervise({ command: process.execPath, args: [script], stdio: 'ignore', log: (l) => lines.push(l), onChild: (c) => children.push(c.pid!) });
    await waitFor(() => children.length === 2 && existsSync(marker) && readFileSync(marker, 'utf8') === '2', 'the second start', 15_000);
    expect(lines.some((l) => l.startsWith('Servidor caiu'))).toBe(true);
    running.stop('SIGTERM');
    expect(await running.done).toBe(0);
  });

  it('gives up when the server cannot stay up, with its exit code', async () => {
    const script = path.join(tmp, 'broken.mjs');
    writeFileSync(script, 'process.exit(3);');
    const lines: string[] = [];
    const running = supervise({ command: process.execPath, args: [script], stdio: 'ignore', maxRestarts: 2, log: (l) => lines.push(l) });
    expect(await running.done).toBe(3);
    expect(lines.at(-1)).toMatch(/desistindo/);
  });
});
