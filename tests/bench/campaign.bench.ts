import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServer, loadConfig } from '@atendimento/server';
import { createLogger } from '@atendimento/server/logger';
import { defaultAppConfig } from '@atendimento/server/services/tenants/default-app-config';
import { startMetaGraphServer } from '@atendimento/integrations/providers/meta-graph-server';
import { percentile, type BenchLine } from './report';

const META = { appSecret: 'segredo-b15', accessToken: 'token-b15', phoneNumberId: 'PN-B15', businessAccountId: 'WABA-B15', verifyToken: 'v' };

/**
 * One campaign of `messages` rows through the real queue to the local Graph server (statuses
 * off: the send path alone). Answers the arrival times at the provider and the process CPU.
 */
async function run(messages: number, rate: number): Promise<{ at: number[]; cpuMs: number }> {
  const graph = await startMetaGraphServer({ ...META, autoStatuses: false, templates: [] });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-b15-'));
  const config = loadConfig(
    { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', DATABASE_URL: '', PROVIDER_TRUSTED_HOSTS: new URL(graph.baseUrl).host },
    { port: 0, host: '127.0.0.1', defaultTenant: 'acme', staticDir: null, databaseUrl: null, campaignRatePerSecond: rate },
  );
  const server = await createServer({ config, logger: createLogger('silent'), mailer: { send: async () => {}, close: () => {} }, startMail: false, startCampaigns: false });
  try {
    const db = server.db;
    const iso = new Date().toISOString();
    await server.repos.tenants.create({ id: 'acme', name: 'Acme', active: true, appConfig: defaultAppConfig('acme', 'Acme') }, [], new Date());
    await db('channels').insert({ id: 'wa-b15', tenant_id: 'acme', type: 'meta', display_name: 'B15', active: true, created_at: iso, updated_at: iso, deleted_at: null,
      data: JSON.stringify({ id: 'wa-b15', type: 'meta', displayName: 'B15', active: true, provider: { baseUrl: graph.baseUrl, apiVersion: 'v21.0', ...META } }) });
    await db('whatsapp_templates').insert({ tenant_id: 'acme', channel_id: 'wa-b15', name: 'aviso', language: 'pt_BR', provider_id: '1', status: 'APPROVED', category: 'UTILITY', origin: 'meta', namespace: null,
      components: JSON.stringify([{ type: 'BODY', text: 'Olá {{1}}' }]), reason: null, synced_at: iso, updated_at: iso });
    await db('campaigns').insert({ tenant_id: 'acme', id: 'b15', name: 'B15', channel_id: 'wa-b15', paused: false, proccessed: false, campaign: true, total: messages,
      data: JSON.stringify({ template: { name: 'aviso', language: 'pt_BR', params: ['nome'] } }), created_at: iso, updated_at: iso });
    const rows = Array.from({ length: messages }, (_, i) => ({
      tenant_id: 'acme', campaign_id: 'b15', row_no: i + 2, id: `b15-${i}`, channel_id: 'wa-b15', chat_id: `5511${40_000_000 + i}`, display_name: null,
      params: JSON.stringify([`C${i}`]), text: `Olá C${i}`, state: 'queued', next_at: iso, attempts: 0, status_rank: 0, failed: false, interacted: false, clicked: false, updated_at: iso,
    }));
    for (let i = 0; i < rows.length; i += 500) await db('campaign_messages').insert(rows.slice(i, i + 500));
    const cpu = process.cpuUsage();
    server.services.campaigns.queue.start(50);
    const until = Date.now() + 600_000;
    while (graph.sent.length < messages && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    const used = process.cpuUsage(cpu);
    await server.services.campaigns.queue.stop();
    return { at: graph.sent.map((m) => m.at).sort((a, b) => a - b), cpuMs: (used.user + used.system) / 1000 };
  } finally {
    await server.close();
    await graph.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * B15 (docs/bench.md): campaign throughput. a) at the configured 80 msg/s, the rate held: sends
 * counted in 1 s windows sliding by 100 ms (after the first second), p99 of |count − 80| / 80;
 * b) with the limit lifted, messages per second from the first send to the last, and the
 * process CPU per message (server and the local provider share the process).
 */
export async function campaignBench(seconds: number): Promise<BenchLine[]> {
  const rate = 80;
  const paced = await run(rate * Math.max(4, seconds), rate);
  const errors: number[] = [];
  const first = paced.at[0]!;
  const last = paced.at.at(-1)!;
  for (let from = first + 1000; from + 1000 <= last; from += 100) {
    const n = paced.at.filter((t) => t >= from && t < from + 1000).length;
    errors.push(Math.abs(n - rate) / rate);
  }
  errors.sort((a, b) => a - b);
  const p99 = errors.length ? percentile(errors, 99) * 100 : 0;
  const heldRate = ((paced.at.length - 1) / ((last - first) / 1000));

  const free = await run(Number(process.env.B15_MESSAGES ?? 3000), 100_000);
  const span = (free.at.at(-1)! - free.at[0]!) / 1000;
  const throughput = (free.at.length - 1) / span;
  return [
    { id: 'B15a', name: 'campaign pacing at 80 msg/s: p99 error of 1 s windows', value: p99, unit: '%', baselineName: 'configured rate', baseline: rate, ratio: heldRate / rate, target: '≤ 10 %', met: p99 <= 10, note: `held ${heldRate.toFixed(1)} msg/s over ${paced.at.length} sends, ${errors.length} windows` },
    { id: 'B15b', name: 'campaign throughput, limit lifted', value: throughput, unit: 'msg/s', target: '≥ 1,000 msg/s', met: throughput >= 1000, note: `${free.at.length} sends in ${span.toFixed(1)} s` },
    { id: 'B15c', name: 'CPU per message (server + local provider, one process)', value: free.cpuMs / free.at.length, unit: 'ms', note: `paced run: ${(paced.cpuMs / paced.at.length).toFixed(2)} ms/msg` },
  ];
}
