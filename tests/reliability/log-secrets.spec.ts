import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient } from '../helpers/http-client';
import { spawnServer, type ServerProcess } from './server-process';

/**
 * Structured logs (docs/production.md "Logs"): a real `npm start` process at LOG_LEVEL=debug
 * with the demo tenant (its WhatsApp channel included) is driven through sign-ins (right and
 * wrong passwords), token refresh, password recovery, an API call, a WebSocket sign-in and a
 * provider webhook; then its JSON log lines are grepped for every secret it saw: the demo
 * passwords, JWT_SECRET, the tokens it issued, the channel's app secret and access token.
 * Every request line carries its request id and tenant, and the user once known.
 */
const JWT_SECRET = 'segredo-jwt-de-teste-'.padEnd(48, 'x');
let dataDir: string;
let proc: ServerProcess;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'log-secrets-'));
  proc = await spawnServer({ DATABASE_URL: '', DATA_DIR: dataDir, JWT_SECRET, LOG_LEVEL: 'debug' });
}, 120_000);

afterAll(async () => {
  await proc?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

function logLines(): Record<string, unknown>[] {
  return proc
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('logs', () => {
  it('never contain the secrets the server handled, and every request line names request, tenant and user', async () => {
    const api = createHttpClient(proc.baseUrl, { host: proc.host });
    const secrets = new Set<string>([JWT_SECRET, 'admin123', 'supervisor123', 'agente123']);
    for (const [email, password] of [['admin@exemplo.com.br', 'admin123'], ['supervisor@exemplo.com.br', 'supervisor123'], ['agente@exemplo.com.br', 'agente123']]) {
      expect((await api('/api/auth/login', { method: 'POST', body: { email, password: `${password}-errada` } })).status).toBe(401);
      secrets.add(`${password}-errada`);
      const ok = await api('/api/auth/login', { method: 'POST', body: { email, password } });
      expect(ok.status, ok.text).toBe(200);
      secrets.add(ok.body.data.accessToken);
      if (ok.cookie) secrets.add(ok.cookie);
    }
    const admin = await api('/api/auth/login', { method: 'POST', body: { email: 'admin@exemplo.com.br', password: 'admin123' } });
    const token = admin.body.data.accessToken as string;
    secrets.add(token);
    const refreshed = await api('/api/auth/refresh', { method: 'POST', cookie: admin.cookie, body: {} });
    if (refreshed.status === 200) secrets.add(refreshed.body.data.accessToken);
    await api('/api/auth/password-recovery', { method: 'POST', body: { email: 'agente@exemplo.com.br' } });
    expect((await api('/api/auth/me', { token })).status).toBe(200);
    expect((await api('/api/users', { token })).status).toBeLessThan(500);
    await api('/api/nao-existe', { token });

    const ws = new WebSocket(`${proc.baseUrl.replace('http', 'ws')}/ws`, { headers: { host: proc.host } });
    await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
    ws.send(JSON.stringify({ type: 'auth', token }));
    await new Promise((resolve) => ws.once('message', resolve));
    ws.close();

    // The demo's WhatsApp channel: its provider secrets, and a webhook signed with a wrong one.
    const db = new Database(path.join(dataDir, 'atendimento.sqlite'), { readonly: true });
    const channels = db.prepare("SELECT id, data FROM channels WHERE tenant_id = 'demo'").all() as { id: string; data: string }[];
    db.close();
    for (const channel of channels) {
      const provider = (JSON.parse(channel.data) as { provider?: Record<string, unknown> }).provider ?? {};
      for (const key of ['appSecret', 'accessToken', 'verifyToken', 'apiKey']) if (typeof provider[key] === 'string' && (provider[key] as string).length >= 8) secrets.add(provider[key] as string);
      await api(`/api/webhooks/whatsapp/${channel.id}`, { method: 'POST', body: '{"object":"whatsapp_business_account","entry":[]}', headers: { 'content-type': 'application/json', 'x-hub-signature-256': 'sha256=00' } });
    }
    await new Promise((resolve) => setTimeout(resolve, 300));

    const lines = logLines();
    const requests = lines.filter((l) => l.msg === 'request');
    expect(requests.length).toBeGreaterThan(10);
    for (const line of requests) {
      expect(line.requestId, JSON.stringify(line)).toMatch(/^[\w-]{8,64}$/);
      expect(line.tenantId, JSON.stringify(line)).toBe('demo');
    }
    expect(requests.some((l) => l.path === '/api/auth/me' && l.userId === 'u-admin')).toBe(true);

    const text = lines.map((l) => JSON.stringify(l)).join('\n');
    const leaked = [...secrets].filter((secret) => text.includes(secret));
    expect(leaked).toEqual([]);
  }, 120_000);
});
