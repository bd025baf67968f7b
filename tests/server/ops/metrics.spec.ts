import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { startTestServer, type TestServer } from '../../helpers/test-server';
import { startChatServer, stopChatServer, visitorStarts, type ChatTest } from '../chat/chat-helpers';

/**
 * GET /metrics (Prometheus text format, parsed here with a Prometheus text parser) and
 * GET /api/health/{live,ready} (docs/production.md "Monitoring" and "Health").
 */
interface Family {
  name: string;
  type: string;
  metrics: { value?: string; labels?: Record<string, string>; buckets?: Record<string, string>; count?: string }[];
}

let t: ChatTest;
let guarded: TestServer;

beforeAll(async () => {
  [t, guarded] = await Promise.all([startChatServer(), startTestServer({ env: { METRICS_TOKEN: 'token-de-metricas-123' } })]);
});

afterAll(async () => {
  await Promise.all([stopChatServer(t), guarded?.close()]);
});

let raw = '';

async function scrape(server: TestServer, headers: Record<string, string> = {}): Promise<Family[]> {
  const res = await server.api('/metrics', { headers });
  expect(res.status, res.text).toBe(200);
  expect(String(res.headers['content-type'])).toMatch(/^text\/plain; version=0\.0\.4/);
  raw = res.text;
  return parsePrometheusTextFormat(res.text) as Family[];
}

const family = (families: Family[], name: string) => {
  const found = families.find((f) => f.name === name);
  if (!found) throw new Error(`metric ${name} missing; have ${families.map((f) => f.name).join(', ')}`);
  return found;
};

describe('GET /metrics', () => {
  it('counts the work waiting: chats in the queues, campaign messages to send, deadlines past due', async () => {
    const sizes = async () => Object.fromEntries(family(await scrape(t), 'atendimento_queue_size').metrics.map((m) => [m.labels!.queue, Number(m.value)]));
    const before = await sizes();
    expect(Object.keys(before).sort()).toEqual(['campaign_messages', 'due_deadlines', 'waiting_chats']);
    // Nobody of vendas is online: the visitor's chat waits in the department's queue.
    await visitorStarts(t, 'site-vendas', 'Alguém pode me ajudar?');
    expect((await sizes()).waiting_chats).toBe(before.waiting_chats! + 1);
  });

  it('exposes requests, latencies, ingest, sockets, change-feed and scheduler lag, pool, event loop and memory', async () => {
    expect((await t.api('/api/health')).status).toBe(200);
    expect((await t.api('/api/auth/login', { method: 'POST', body: { email: 'admin@acme.test', password: 'errada-123456' } })).status).toBe(401);
    const hook = await t.api('/api/webhooks/whatsapp/canal-inexistente', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(hook.status).toBeGreaterThanOrEqual(400);
    const ws = new WebSocket(`${t.baseUrl.replace('http', 'ws')}/ws`, { headers: { host: t.hosts.acme } });
    await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
    try {
      const families = await scrape(t);
      const requests = family(families, 'atendimento_http_requests_total');
      expect(requests.type).toBe('COUNTER');
      expect(requests.metrics).toEqual(expect.arrayContaining([
        expect.objectContaining({ labels: { method: 'GET', route: '/api/health', status: '200' } }),
        expect.objectContaining({ labels: { method: 'POST', route: '/api/auth/login', status: '401' } }),
      ]));
      const latency = family(families, 'atendimento_http_request_duration_seconds');
      expect(latency.type).toBe('HISTOGRAM');
      // (the parser folds a labelled histogram's series into one bucket map; the raw lines name the route)
      expect(Object.keys(latency.metrics[0]!.buckets ?? {})).toContain('+Inf');
      expect(raw).toMatch(/^atendimento_http_request_duration_seconds_count\{method="GET",route="\/api\/health"\} 1$/m);
      const ingest = family(families, 'atendimento_ingest_requests_total');
      expect(ingest.metrics.some((m) => m.labels?.provider === 'whatsapp' && m.labels?.status === String(hook.status))).toBe(true);
      expect(family(families, 'atendimento_ws_open_sockets').metrics.find((m) => m.labels?.state === 'open')?.value).toBe('1');
      expect(Number(family(families, 'atendimento_change_feed_undelivered_events').metrics[0]!.value)).toBeGreaterThanOrEqual(0);
      expect(Number(family(families, 'atendimento_scheduler_lag_seconds').metrics[0]!.value)).toBeGreaterThanOrEqual(0);
      family(families, 'atendimento_scheduler_last_scan_age_seconds');
      const pool = family(families, 'atendimento_db_pool_connections');
      expect(Number(pool.metrics.find((m) => m.labels?.state === 'max')?.value)).toBeGreaterThan(0);
      for (const name of ['nodejs_eventloop_lag_seconds', 'nodejs_eventloop_lag_p99_seconds', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes']) {
        expect(Number(family(families, name).metrics[0]!.value), name).toBeGreaterThanOrEqual(0);
      }
      // Raw paths never become labels: unknown URLs share one series.
      await t.api('/api/nada/123');
      await t.api('/api/nada/456');
      const again = family(await scrape(t), 'atendimento_http_requests_total');
      expect(again.metrics.filter((m) => m.labels?.route?.includes('/api/nada'))).toEqual([]);
      expect(again.metrics.some((m) => m.labels?.route === 'unmatched')).toBe(true);
    } finally {
      ws.close();
    }
  });

  it('refuses callers that came through a proxy, and needs the token when METRICS_TOKEN is set', async () => {
    const proxied = await t.api('/metrics', { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(proxied.status).toBe(403);
    expect(proxied.body).toEqual({ error: 'metrics_forbidden', errorMessage: expect.stringContaining('métricas') });

    const noToken = await guarded.api('/metrics');
    expect(noToken.status).toBe(401);
    expect(noToken.body.error).toBe('metrics_forbidden');
    expect((await guarded.api('/metrics', { headers: { authorization: 'Bearer outro-token-qualquer' } })).status).toBe(401);
    // A user's access token is not the metrics token either.
    const admin = await guarded.login('admin@acme.test');
    expect((await guarded.api('/metrics', { token: admin })).status).toBe(401);
    family(await scrape(guarded, { authorization: 'Bearer token-de-metricas-123', 'x-forwarded-for': '203.0.113.9' }), 'atendimento_http_requests_total');
  });
});

describe('health', () => {
  it('live and ready answer for the process, on any host; /api/health reports both for the tenant', async () => {
    const live = await t.api('/api/health/live', { host: 'desconhecido.example' });
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ data: { live: true } });
    const ready = await t.api('/api/health/ready', { host: '10.0.0.5' });
    expect(ready.status).toBe(200);
    expect(ready.body.data).toEqual({ live: true, ready: true, checks: { database: true, migrations: true, bus: true, accepting: true } });
    const tenant = await t.api('/api/health');
    expect(tenant.body.data).toMatchObject({ ok: true, tenantId: 'acme', live: true, ready: true });
  });
});
