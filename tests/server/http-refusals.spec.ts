import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { format, publicMessages } from '@atendimento/schemas';
import { startTestServer, type TestServer } from '../helpers/test-server';

/**
 * Requests refused before any route runs still answer the JSON error every refusal has
 * (`{ error, errorMessage }` in Portuguese): a method a path does not take (@koa/router's 405
 * and 501), and what Node's HTTP parser refuses (oversized headers, an unknown method).
 */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

/** One request through node:http (fetch refuses TRACE), with the tenant's Host. */
function request(method: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const url = new URL(path, t.baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: { host: t.hosts.acme, ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Raw bytes on a socket, for what node:http's client will not send; the whole answer back. */
function raw(text: string): Promise<string> {
  const { port } = new URL(t.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.end(text));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('refusals before a route runs', () => {
  it('a method the path does not take: 405 in JSON with the Allow header, also for a method the router does not know (TRACE)', async () => {
    const put = await request('PUT', '/api/auth/login');
    expect(put.status).toBe(405);
    expect(put.headers.allow).toContain('POST');
    expect(JSON.parse(put.body)).toEqual({ error: 'method_not_allowed', errorMessage: format(publicMessages.errors.methodNotAllowed, { method: 'PUT', allowed: put.headers.allow! }) });
    const trace = await request('TRACE', '/api/rooms');
    expect(trace.status).toBe(405);
    expect(JSON.parse(trace.body).error).toBe('method_not_allowed');
    expect(trace.headers.allow).toContain('GET');
  });

  it("headers over Node's 16 kB limit: 431 in JSON", async () => {
    const res = await request('GET', '/api/rooms', { authorization: `Bearer ${'x'.repeat(20_000)}` });
    expect(res.status).toBe(431);
    expect(JSON.parse(res.body)).toEqual({ error: 'headers_too_large', errorMessage: publicMessages.errors.headersTooLarge });
  });

  it('a method Node does not know: 400 in JSON, and the connection closes', async () => {
    const answer = await raw(`FOO /api/rooms HTTP/1.1\r\nHost: ${t.hosts.acme}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toMatch(/\r\nConnection: close\r\n/i);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({ error: 'bad_request', errorMessage: publicMessages.errors.badRequest });
  });

  it('a JSON body with a NUL in any text (or key): 400 in Portuguese before the route writes it; the same text without it passes', async () => {
    const admin = await t.tokenFor('acme', 'acme-admin');
    for (const body of [{ name: 'a\u0000b' }, { name: 'ok', [`chave\u0000`]: 1 }, { name: 'ok', nested: [{ deep: ['x\u0000'] }] }]) {
      const res = await t.api('/api/tags', { method: 'POST', token: admin, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual({ error: 'nul_character', errorMessage: publicMessages.errors.nulChar });
    }
    // A backslash and the letters u0000 typed as text are not a NUL.
    const typed = await t.api('/api/tags', { method: 'POST', token: admin, body: { name: 'barra \\u0000 digitada' } });
    expect(typed.status, typed.text).toBe(201);
  });
});
