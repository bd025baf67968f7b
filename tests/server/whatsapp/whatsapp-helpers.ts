import http from 'node:http';
import { afterAll, beforeAll } from 'vitest';
import type { Channel } from '@atendimento/schemas';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { hubSignature } from '@atendimento/integrations';
import { fixturesDir } from '@atendimento/integrations/fixtures';
import { startMetaGraphServer, type MetaGraphServer } from '@atendimento/integrations/providers/meta-graph-server';
import { startZApiServer, type ZApiServer } from '@atendimento/integrations/providers/zapi-server';
import type { Clock } from '@atendimento/server';
import type { Logger } from '@atendimento/server/logger';
import { startTestServer, type TestServer } from '../../helpers/test-server';
import { channelRow } from '../../helpers/rows';

export const fixtureFiles = (dir: 'whatsapp' | 'zapi') => readdirSync(fixturesDir(dir)).filter((f) => f.endsWith('.json')).sort();
export const fixture = (dir: 'whatsapp' | 'zapi', file: string) => readFileSync(path.join(fixturesDir(dir), file));

export const META = { appSecret: 'segredo-do-app-meta', verifyToken: 'token-de-verificacao', accessToken: 'token-graph', phoneNumberId: 'PN1', businessAccountId: 'WABA1' };
export const D360 = { apiKey: 'chave-360', webhookSecret: 'segredo-360', webhookSecretHeader: 'x-atendimento-secret' };
export const ZAPI = { instanceId: 'INST1', instanceToken: 'TOKINST', clientToken: 'CLIENTTOK', webhookSecret: 'segredo-zapi-na-url' };

/** 130 templates: more than one page of the Graph API's 100 (paging is exercised). */
export const TEMPLATES = Array.from({ length: 130 }, (_, i) => ({
  name: i === 0 ? 'boas_vindas' : `aviso_${i}`, language: i % 10 === 9 ? 'en_US' : 'pt_BR', status: i % 7 === 6 ? 'REJECTED' : 'APPROVED', category: 'UTILITY',
  components: [{ type: 'BODY', text: `Olá {{1}}, aviso ${i}.` }],
}));

export interface WhatsappTest extends TestServer {
  graph: MetaGraphServer;
  /** The Graph-shaped server playing 360dialog (waba-v2: /messages, D360-API-KEY, secret-header webhooks). */
  d360: MetaGraphServer;
  zapi: ZApiServer;
  tokens: { admin: string; agente: string; suporte: string };
  /** Adds a channel of acme with provider settings in data.provider. */
  addChannel(id: string, type: 'meta' | 'dialog360' | 'zApi', provider: Record<string, unknown>, departmentId?: string): Promise<void>;
  /** POSTs exact bytes to a path (Host: acme). */
  post(pathname: string, raw: Buffer, headers?: Record<string, string>, agent?: http.Agent): Promise<{ status: number; text: string; body: any }>;
  /** POSTs bytes signed with the Meta app secret to /api/webhooks/whatsapp/{channelId}. */
  postMeta(channelId: string, raw: Buffer, agent?: http.Agent): Promise<{ status: number; text: string; body: any }>;
}

/**
 * The real server with acme's WhatsApp channels wired to local provider servers:
 * 'wa-meta' (Meta, department vendas), 'wa-360' (360dialog, vendas, secret header) and
 * 'wa-zapi' (Z-API, suporte, secret in the URL). Loopback providers are reachable only
 * because PROVIDER_TRUSTED_HOSTS names them.
 */
export async function startWhatsappServer(options: { statusDelayMs?: number; autoStatuses?: boolean; clock?: Clock; logger?: Logger; server?: NonNullable<Parameters<typeof startTestServer>[0]>['server'] } = {}): Promise<WhatsappTest> {
  const graph = await startMetaGraphServer({ ...META, statusDelayMs: options.statusDelayMs ?? 5, autoStatuses: options.autoStatuses, templates: TEMPLATES });
  const zapi = await startZApiServer({ ...ZAPI, statusDelayMs: options.statusDelayMs ?? 5, autoStatuses: options.autoStatuses });
  const d360 = await startMetaGraphServer({
    templates: TEMPLATES.slice(0, 3),
    appSecret: 'nao-usado', accessToken: 'nao-usado', phoneNumberId: 'PN360', dialog360ApiKey: D360.apiKey,
    webhookHeaders: { [D360.webhookSecretHeader]: D360.webhookSecret }, statusDelayMs: options.statusDelayMs ?? 5, autoStatuses: options.autoStatuses,
  });
  const trusted = [graph.baseUrl, zapi.baseUrl, d360.baseUrl].map((u) => new URL(u).host).join(',');
  const t = await startTestServer({ env: { PROVIDER_TRUSTED_HOSTS: trusted }, ...(options.clock && { clock: options.clock }), ...(options.logger && { logger: options.logger }), ...(options.server && { server: options.server }) });
  const port = new URL(t.baseUrl).port;

  async function addChannel(id: string, type: string, provider: Record<string, unknown>, departmentId = 'vendas') {
    const iso = t.server.clock.now().toISOString();
    await t.server.db('channels').insert(channelRow('acme', { id, type, displayName: `WhatsApp ${id}`, color: '#25D366', departmentId, phoneNumber: '5511999990000', provider }, iso));
  }
  await addChannel('wa-meta', 'meta', { baseUrl: graph.baseUrl, apiVersion: 'v21.0', ...META });
  await addChannel('wa-360', 'dialog360', { baseUrl: d360.baseUrl, ...D360 });
  await addChannel('wa-zapi', 'zApi', { baseUrl: zapi.baseUrl, ...ZAPI }, 'suporte');
  graph.setWebhookUrl(`http://127.0.0.1:${port}/api/webhooks/whatsapp/wa-meta`);
  d360.setWebhookUrl(`http://127.0.0.1:${port}/api/webhooks/whatsapp/wa-360`);
  zapi.setWebhookUrl(`http://127.0.0.1:${port}/api/webhooks/whatsapp/wa-zapi/${ZAPI.webhookSecret}`);

  const post: WhatsappTest['post'] = (pathname, raw, headers = {}, agent) =>
    new Promise((resolve, reject) => {
      const req = http.request(
        { hostname: '127.0.0.1', port, path: pathname, method: 'POST', agent, headers: { host: t.hosts.acme, 'content-type': 'application/json', 'content-length': String(raw.length), ...headers } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let body: any = text;
            try {
              body = JSON.parse(text);
            } catch {
              /* text answers (challenge) */
            }
            resolve({ status: res.statusCode ?? 0, text, body });
          });
        },
      );
      req.on('error', reject);
      req.end(raw);
    });

  const tokens = { admin: await t.tokenFor('acme', 'acme-admin'), agente: await t.tokenFor('acme', 'acme-agente'), suporte: await t.tokenFor('acme', 'acme-suporte') };
  const close = t.close;
  return Object.assign(t, {
    graph,
    d360,
    zapi,
    tokens,
    addChannel,
    post,
    postMeta: (channelId: string, raw: Buffer, agent?: http.Agent) => post(`/api/webhooks/whatsapp/${channelId}`, raw, { 'x-hub-signature-256': hubSignature(META.appSecret, raw) }, agent),
    async close() {
      await close();
      await graph.close();
      await d360.close();
      await zapi.close();
    },
  });
}

export async function stopWhatsappServer(t: WhatsappTest | undefined): Promise<void> {
  if (t) await t.close();
}

/**
 * A WhatsApp test server for the spec file that calls it (started in `beforeAll`, stopped in
 * `afterAll`) and acme's Meta channel 'wa-meta', for specs that drive ingest directly.
 */
export function useWhatsappServer(options: Parameters<typeof startWhatsappServer>[0] = { autoStatuses: false }): { t: WhatsappTest; channel: Channel } {
  const suite = {} as { t: WhatsappTest; channel: Channel };
  beforeAll(async () => {
    suite.t = await startWhatsappServer(options);
    suite.channel = (await suite.t.server.services.chat.deps.directory.channel('acme', 'wa-meta'))!;
  });
  afterAll(() => stopWhatsappServer(suite.t));
  return suite;
}

/** Rows of `messages` for a channel and external id (what exactly-once is about). */
export async function messageRows(t: WhatsappTest, channelId: string, externalId?: string) {
  const q = t.server.db('messages').where({ tenant_id: 'acme', channel_id: channelId });
  if (externalId) q.andWhere('external_id', externalId);
  return q.select('id', 'external_id', 'room_id', 'type', 'status', 'data');
}

/** change_log events for one record. */
export async function changeEvents(t: WhatsappTest, collection: string, recordId: string): Promise<number> {
  const rows = await t.server.db('change_log').where({ tenant_id: 'acme', collection, record_id: recordId }).count({ n: '*' });
  return Number(rows[0]!.n);
}

