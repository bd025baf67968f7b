import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@atendimento/schemas';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../helpers/test-server';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('tenant resolution', () => {
  it('maps localhost and 127.0.0.1 to the default tenant', async () => {
    const port = new URL(t.baseUrl).port;
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`]) {
      const res = await t.api('/api/health', { host });
      expect(res.status).toBe(200);
      expect(res.body.data.tenantId).toBe('acme');
    }
  });

  it('resolves a tenant by host name, ignoring case and port', async () => {
    const res = await t.api('/api/health', { host: 'OUTRA.test:1234' });
    expect(res.body.data.tenantId).toBe('outra');
  });

  it('answers 404 with a pt-BR message for an unknown host', async () => {
    const res = await t.api('/api/health', { host: 'desconhecido.test' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'tenant_not_found', errorMessage: messages.tenant.notFound });
  });

  it('answers 403 on every route of an inactive tenant, sign-in included', async () => {
    for (const [method, path] of [
      ['GET', '/api/master/tenants/inativa/appConfig'],
      ['GET', '/api/health'],
      ['POST', '/api/auth/login'],
      ['GET', '/api/auth/me'],
      ['GET', '/api/rota-que-nao-existe'],
    ] as const) {
      const res = await t.api(path, { method, host: t.hosts.inativa, body: method === 'POST' ? { email: 'admin@inativa.test', password: TEST_PASSWORD } : undefined });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body).toEqual({ error: 'tenant_inactive', errorMessage: messages.tenant.blockedDetail });
    }
  });
});

describe('GET /api/master/tenants/{tenantId}/appConfig', () => {
  it('answers { data: config } so the client reads data.data', async () => {
    const res = await t.api('/api/master/tenants/acme/appConfig');
    expect(res.status).toBe(200);
    const config = res.body.data;
    expect(config.tenantId).toBe('acme');
    expect(config.claims.publicRegister).toBe(true);
    expect(config.toastNotification.position).toBe('top-right');
    expect(config.statusList.map((s: { text: string }) => s.text)).toEqual(['online', 'ausente', 'offline']);
    expect(config.closeJustify.nextMaxDate).toBe(5000);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it("accepts 'current' for the host's tenant", async () => {
    const res = await t.api('/api/master/tenants/current/appConfig', { host: t.hosts.outra });
    expect(res.body.data.tenantId).toBe('outra');
  });

  it("does not reveal another tenant's configuration", async () => {
    const res = await t.api('/api/master/tenants/outra/appConfig', { host: t.hosts.acme });
    expect(res.status).toBe(404);
  });
});

describe('error answers', () => {
  it('answers malformed JSON with 400 and a pt-BR message, no stack trace', async () => {
    const res = await t.api('/api/auth/login', { method: 'POST', body: '{"email": ', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'bad_request', errorMessage: messages.errors.badJson });
  });

  it('answers unknown API routes with a JSON 404', async () => {
    const res = await t.api('/api/nao-existe');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('route_not_found');
  });

  it('answers a body over the limit with 413', async () => {
    const res = await t.api('/api/auth/login', { method: 'POST', body: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(3 * 1024 * 1024) }) });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('payload_too_large');
  });

  it('sends a request id, nosniff, and a Content-Security-Policy on pages and files', async () => {
    const res = await t.api('/api/health', { headers: { 'x-request-id': 'req-12345678' } });
    expect(res.headers['x-request-id']).toBe('req-12345678');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const page = await t.api('/login');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
    const file = await t.api('/api/files/acme/nao-existe.svg');
    expect(file.headers['content-security-policy']).toContain('sandbox');
  });
});
