import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@atendimento/server/logger';
import { startTestServer, type TestServer } from '../../helpers/test-server';

/**
 * docs/production.md "Logs": one `request` line per API request, and every line written while
 * serving a request (in any layer) carries its id, tenant and user. The request-id middleware
 * is on every request's path and was reshaped for speed (tests/bench B1); these are what it
 * must keep doing.
 */
type Line = Record<string, unknown>;
const lines: Line[] = [];
let t: TestServer;

beforeAll(async () => {
  const logger = createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line) as Line) });
  t = await startTestServer({ logger });
});

afterAll(async () => {
  await t?.close();
});

const requestLines = (requestId: string) => lines.filter((l) => l.requestId === requestId);

describe('request log lines', () => {
  it('keeps a sane X-Request-Id, echoes it, and logs the request with tenant and user', async () => {
    const token = await t.login('agente@acme.test');
    const me = await t.api('/api/auth/me', { token });
    const userId = me.body.data.id as string;
    const res = await t.api('/api/rooms?tab=queuesChats', { token, headers: { 'x-request-id': 'pedido-teste-0001' } });
    expect(res.status, res.text).toBe(200);
    expect(res.headers['x-request-id']).toBe('pedido-teste-0001');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const line = requestLines('pedido-teste-0001').find((l) => l.msg === 'request');
    expect(line).toMatchObject({ tenantId: 'acme', userId, method: 'GET', path: '/api/rooms', status: 200 });
    expect(typeof line!.ms).toBe('number');
  });

  it('replaces an id that is not sane with a generated one', async () => {
    const res = await t.api('/api/health', { headers: { 'x-request-id': 'x y<script>' } });
    expect(res.status).toBe(200);
    const id = String(res.headers['x-request-id']);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestLines(id).find((l) => l.msg === 'request')).toMatchObject({ tenantId: 'acme', path: '/api/health', status: 200 });
    expect(requestLines(id)[0]).not.toHaveProperty('userId');
  });

  it('gives a line written by a service while serving the request the same id and tenant', async () => {
    const res = await t.api('/api/auth/password-recovery', { method: 'POST', body: { email: 'ninguem@acme.test' }, headers: { 'x-request-id': 'pedido-teste-0002' } });
    expect(res.status, res.text).toBeLessThan(300);
    const ours = requestLines('pedido-teste-0002');
    expect(ours.find((l) => l.msg === 'auth.link_requested_unknown')).toMatchObject({ tenantId: 'acme', purpose: expect.any(String) });
    expect(ours.find((l) => l.msg === 'request')).toMatchObject({ tenantId: 'acme', method: 'POST', status: res.status });
  });

  it('logs an unknown host as a 404 without a tenant', async () => {
    const res = await t.api('/api/health', { host: 'desconhecido.test', headers: { 'x-request-id': 'pedido-teste-0003' } });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('tenant_not_found');
    const line = requestLines('pedido-teste-0003').find((l) => l.msg === 'request');
    expect(line).toMatchObject({ status: 404, path: '/api/health' });
    expect(line).not.toHaveProperty('tenantId');
  });
});
