import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** What the metrics read when Prometheus scrapes (cheap in-memory figures, plus the queue counts). */
export interface MetricSources {
  sockets(): { connections: number; authenticated: number };
  changeFeed(): { undelivered: number };
  scheduler(): { lagMs: number; lastScanAt: Date | null };
  pool(): { used: number; free: number; pending: number; max: number };
  /** The only figure read from the database at scrape time (three counts; docs/production.md). */
  queues(): Promise<{ waitingChats: number; campaignMessages: number; dueDeadlines: number }>;
  now(): Date;
}

/**
 * Prometheus metrics (prom-client) for GET /metrics (docs/production.md "Monitoring").
 * Route labels are the router's patterns (`/api/rooms/:id`), never raw paths, so the number
 * of series stays bounded whatever URLs clients send.
 */
export function createMetrics(sources: MetricSources) {
  const registry = new Registry();
  // process_* and nodejs_*: CPU, resident memory, heap, event-loop delay (nodejs_eventloop_lag_*), GC.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });

  const requests = new Counter({
    name: 'atendimento_http_requests_total',
    help: 'HTTP requests by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'atendimento_http_request_duration_seconds',
    help: 'HTTP request latency by method and route pattern.',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const ingest = new Counter({
    name: 'atendimento_ingest_requests_total',
    help: 'Provider webhooks received, by provider, channel id and answer status.',
    labelNames: ['provider', 'channel', 'status'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'atendimento_ws_open_sockets',
    help: 'Open /ws sockets (state=open: all, authenticated: past the auth frame).',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const s = sources.sockets();
      this.set({ state: 'open' }, s.connections);
      this.set({ state: 'authenticated' }, s.authenticated);
    },
  });
  new Gauge({
    name: 'atendimento_change_feed_undelivered_events',
    help: 'Change-log events this process knows were committed but has not yet handed to the hub (change-feed lag).',
    registers: [registry],
    collect() {
      this.set(sources.changeFeed().undelivered);
    },
  });
  new Gauge({
    name: 'atendimento_scheduler_lag_seconds',
    help: 'How late the oldest due deadline was at the last scheduler scan.',
    registers: [registry],
    collect() {
      this.set(sources.scheduler().lagMs / 1000);
    },
  });
  new Gauge({
    name: 'atendimento_scheduler_last_scan_age_seconds',
    help: 'Seconds since the scheduler last scanned for due deadlines (grows when it is stuck).',
    registers: [registry],
    collect() {
      const at = sources.scheduler().lastScanAt;
      this.set(at ? Math.max(0, (sources.now().getTime() - at.getTime()) / 1000) : 0);
    },
  });
  new Gauge({
    name: 'atendimento_db_pool_connections',
    help: 'Database pool connections by state (used, free, pending acquires, max).',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const p = sources.pool();
      for (const state of ['used', 'free', 'pending', 'max'] as const) this.set({ state }, p[state]);
    },
  });
  new Gauge({
    name: 'atendimento_queue_size',
    help: 'Work waiting, by queue: chats waiting for an agent, campaign messages not sent yet, scheduler deadlines past due.',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      const q = await sources.queues();
      this.set({ queue: 'waiting_chats' }, q.waitingChats);
      this.set({ queue: 'campaign_messages' }, q.campaignMessages);
      this.set({ queue: 'due_deadlines' }, q.dueDeadlines);
    },
  });

  return {
    contentType: registry.contentType,
    /** One finished HTTP request. `route` is the matched pattern, or a fixed word when none matched. */
    observeRequest(method: string, route: string, status: number, seconds: number): void {
      requests.inc({ method, route, status: String(status) });
      duration.observe({ method, route }, seconds);
    },
    observeIngest(provider: string, channel: string, status: number): void {
      ingest.inc({ provider, channel, status: String(status) });
    },
    text: () => registry.metrics(),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
