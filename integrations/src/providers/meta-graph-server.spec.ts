import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChannelAdapter, type ChannelAdapter } from '../channels/index';
import { startMetaGraphServer, type MetaGraphServer } from './meta-graph-server';

let graph: MetaGraphServer;
let adapter: ChannelAdapter;
let receiver: http.Server;
const received: { headers: http.IncomingHttpHeaders; raw: Buffer }[] = [];

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, raw: Buffer.concat(chunks) });
      res.end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  graph = await startMetaGraphServer({
    appSecret: 'app-secret', accessToken: 'tok', phoneNumberId: 'PN', businessAccountId: 'WABA', statusDelayMs: 5,
    webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhook`,
  });
  adapter = createChannelAdapter('meta', { fetch, logger: { info() {}, warn() {}, error() {} }, config: { baseUrl: graph.baseUrl, apiVersion: 'v21.0', phoneNumberId: 'PN', accessToken: 'tok', businessAccountId: 'WABA', appSecret: 'app-secret' } });
});
afterAll(async () => {
  await graph.close();
  await new Promise<void>((r) => receiver.close(() => r()));
});

const until = async (check: () => boolean, ms = 3000) => {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error('timeout');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('local Meta Graph server', () => {
  it('accepts a send and delivers signed statuses sent → delivered → read that the adapter verifies', async () => {
    received.length = 0;
    const { externalId } = await adapter.sendText('5511987654321', 'Olá!');
    await until(() => received.length === 3);
    const statuses = received.map((r) => {
      expect(adapter.verifyWebhook({ method: 'POST', headers: r.headers as Record<string, string>, query: {}, rawBody: r.raw })).toEqual({ kind: 'accepted' });
      return adapter.parseWebhook(JSON.parse(r.raw.toString('utf8'))).statuses[0]!;
    });
    expect(statuses.map((s) => s.status)).toEqual(['sent', 'delivered', 'read']);
    expect(new Set(statuses.map((s) => s.externalId))).toEqual(new Set([externalId]));
  });

  it('refuses malformed bodies with the Graph error shape and injects errors on demand', async () => {
    await expect(adapter.sendText('not-a-phone', 'x')).rejects.toMatchObject({ code: 100, retryable: false });
    graph.failNext(131047, 'Re-engagement message');
    await expect(adapter.sendText('5511987654321', 'x')).rejects.toMatchObject({ code: 131047, titlePtBR: 'Janela de 24 horas expirada: envie um template' });
  });

  it('serves media by id with the token and pages through templates', async () => {
    const id = graph.addMedia(Buffer.from([0xff, 0xd8, 0xff, 0xe0]), 'image/jpeg');
    const file = await adapter.fetchMedia({ mediaId: id });
    expect(file.mimeType).toBe('image/jpeg');
    expect([...file.bytes]).toEqual([0xff, 0xd8, 0xff, 0xe0]);
    const names: string[] = [];
    // Start from a small page size so the adapter has to follow paging.next.
    let next: string | null | undefined = `${graph.baseUrl}/v21.0/WABA/message_templates?limit=10`;
    let pages = 0;
    do {
      const page = await adapter.listTemplates(next ?? undefined);
      names.push(...page.templates.map((t) => t.name));
      next = page.next;
      pages++;
    } while (next);
    expect(names).toHaveLength(36);
    expect(pages).toBe(4);
    expect(new Set(names).size).toBe(36);
  });
});
