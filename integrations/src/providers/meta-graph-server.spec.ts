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
    appSecret: 'app-secret', accessToken: 'tok', phoneNumberId: 'PN', businessAccountId: 'WABA', statusDelayMs: 5, customerPage: true,
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

  it('a delivery failure is sent → failed with the error, and no receipt follows it', async () => {
    received.length = 0;
    graph.failNextDelivery(131026, 'Message undeliverable');
    const { externalId } = await adapter.sendText('5511987654321', 'Vai falhar');
    await until(() => received.length === 2, 10_000);
    // The next send's three receipts prove nothing else was coming for the failed one.
    const next = await adapter.sendText('5511987654321', 'Esta chega');
    await until(() => received.length === 5, 10_000);
    const statuses = received.map((r) => adapter.parseWebhook(JSON.parse(r.raw.toString('utf8'))).statuses[0]!);
    expect(statuses.filter((s) => s.externalId === externalId).map((s) => s.status)).toEqual(['sent', 'failed']);
    expect(statuses[1]!.errors).toEqual([{ code: 131026, title: 'Message undeliverable', titleptBR: 'Mensagem não entregue: número sem WhatsApp ou versão desatualizada' }]);
    expect(statuses.filter((s) => s.externalId === next.externalId).map((s) => s.status)).toEqual(['sent', 'delivered', 'read']);
  });
});

describe('the scripted customer (/cliente)', () => {
  const send = async (input: Record<string, unknown>) => {
    const res = await fetch(`${graph.baseUrl}/cliente/enviar`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ phone: '5511900001111', name: 'Cliente', ...input }) });
    return { status: res.status, body: await res.json() };
  };
  /** The message of the webhook carrying `id` (status webhooks of earlier sends may arrive in between). */
  const webhookOf = (id: string) => received.map((r) => adapter.parseWebhook(JSON.parse(r.raw.toString('utf8'))).messages[0]).find((m) => m?.externalId === id);

  it('lists the conversation as one timeline in order, customer and company messages interleaved', async () => {
    received.length = 0;
    await send({ text: 'Primeira do cliente' });
    await adapter.sendText('5511900001111', 'Resposta da empresa');
    await send({ text: 'Segunda do cliente' });
    const res = await fetch(`${graph.baseUrl}/cliente/mensagens?phone=5511900001111`);
    const { data } = await res.json();
    expect(data.map((m: { from: string; text: string }) => `${m.from}: ${m.text}`)).toEqual(['cliente: Primeira do cliente', 'empresa: Resposta da empresa', 'cliente: Segunda do cliente']);
  });

  it.each([
    ['order', 'order'], ['location', 'location'], ['contacts', 'contacts'], ['flow', 'interactive'], ['unsupported', 'unsupported'],
    ['edit', 'edit'], ['revoke', 'revoke'], ['reaction', 'reaction'],
  ])('sends a signed %s webhook the adapter parses', async (kind, type) => {
    const base = await send({ text: 'Texto base' });
    await until(() => Boolean(webhookOf(base.body.id)), 10_000);
    const answer = await send({ kind, text: kind === 'edit' ? 'Texto corrigido' : '' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    await until(() => Boolean(webhookOf(answer.body.id)), 10_000);
    expect(webhookOf(answer.body.id)!.content.type).toBe(type);
    if (kind === 'edit' || kind === 'revoke' || kind === 'reaction') expect(JSON.stringify(webhookOf(answer.body.id)!.content.raw)).toContain(base.body.id);
  });

  it('changes number: a system webhook without contacts, and the page follows the new phone', async () => {
    const answer = await send({ kind: 'changeNumber', newPhone: '5511900002222' });
    expect(answer).toMatchObject({ status: 202, body: { phone: '5511900002222' } });
    await until(() => Boolean(webhookOf(answer.body.id)), 10_000);
    expect(webhookOf(answer.body.id)).toMatchObject({ contact: { phone: '5511900001111' }, content: { type: 'system', system: { type: 'user_changed_number', newPhone: '5511900002222' } } });
    expect((await send({ kind: 'changeNumber', newPhone: 'x' })).status).toBe(400);
    // The page keeps the whole conversation: the new number's timeline starts with the old one's.
    const { data } = await (await fetch(`${graph.baseUrl}/cliente/mensagens?phone=5511900002222`)).json();
    expect(data[0]).toMatchObject({ from: 'cliente', text: 'Primeira do cliente' });
    expect(data.at(-1)).toMatchObject({ from: 'cliente', text: 'Trocou de número para 5511900002222' });
  });
});
