import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerChannelAdapter, safeEqual, type ChannelAdapter, type AdapterContext, type ParsedWebhook } from '@atendimento/integrations';
import { registerChannelType, type Room } from '@atendimento/schemas';
import { startTestServer, type TestServer } from '../../helpers/test-server';
import { channelRow } from '../../helpers/rows';
import { waitFor } from '../../helpers/wait-for';

/**
 * Adding a provider touches only its adapter and one row of the channel table
 * (docs/channels.md). This test adds 'fakechat' that way, in the test itself, and nothing in
 * the server knows its name: its webhook comes in through the generic route, becomes a room
 * in the department's queue, and an agent's reply goes out through the fake adapter.
 */

interface FakeBody {
  messages: { id: string; from: string; name: string; text: string }[];
}

const SECRET = 'segredo-fakechat';
const sent: { to: string; text: string; config: AdapterContext['config'] }[] = [];

function createFakeAdapter(ctx: AdapterContext): ChannelAdapter {
  const unsupported = async (): Promise<never> => {
    throw new Error('fakechat: not supported');
  };
  return {
    kind: 'fakechat',
    supportsEdit: false,
    supportsDelete: false,
    verifyWebhook(request) {
      const presented = request.headers['x-fake-secret'];
      if (!presented) return { kind: 'rejected', status: 401, reason: 'missing secret' };
      return safeEqual(presented, ctx.config.webhookSecret ?? '') ? { kind: 'accepted' } : { kind: 'rejected', status: 403, reason: 'secret mismatch' };
    },
    parseWebhook(body): ParsedWebhook {
      const messages = ((body as FakeBody).messages ?? []).map((m) => ({
        externalId: m.id,
        timestamp: new Date().toISOString(),
        contact: { phone: m.from, userId: null, displayName: m.name },
        content: { type: 'text', text: m.text },
      }));
      return { messages, statuses: [], templateEvents: [] };
    },
    async sendText(to, text) {
      sent.push({ to, text, config: ctx.config });
      return { externalId: `fake-${sent.length}` };
    },
    sendMedia: unsupported,
    sendTemplate: unsupported,
    sendInteractive: unsupported,
    sendReaction: unsupported,
    editText: unsupported,
    deleteMessage: unsupported,
    async markRead() {},
    fetchMedia: unsupported,
    async listTemplates() {
      return { templates: [], next: null };
    },
  };
}

let t: TestServer;
let agente: string;

beforeAll(async () => {
  // The two lines a new provider needs: its row in the channel table and its adapter.
  registerChannelType('fakechat', {
    label: 'Fake', adapter: 'fakechat', whatsapp: false, window24h: false, templates: false, interactive: false,
    allQueues: true, canReply: true, canEdit: false, reactions: 'all', groups: false,
  });
  registerChannelAdapter('fakechat', createFakeAdapter);

  t = await startTestServer();
  agente = await t.tokenFor('acme', 'acme-agente');
  const iso = t.server.clock.now().toISOString();
  await t.server.db('channels').insert(
    channelRow('acme', { id: 'fake-1', type: 'fakechat', displayName: 'Fake Chat', departmentId: 'vendas', provider: { baseUrl: 'http://fakechat.invalid', webhookSecret: SECRET } }, iso),
  );
});
afterAll(() => t?.close());

const deliver = (body: FakeBody, secret: string | null = SECRET) =>
  t.api('/api/webhooks/channels/fake-1', { method: 'POST', body, headers: secret ? { 'x-fake-secret': secret } : {} });

describe('a provider added by its adapter and one table row', () => {
  it('refuses a webhook without or with the wrong secret, through the fake adapter', async () => {
    expect((await deliver({ messages: [] }, null)).status).toBe(401);
    expect((await deliver({ messages: [] }, 'outro')).status).toBe(403);
  });

  it('an inbound message becomes a room in the queue the agent sees; the reply goes out through the adapter', async () => {
    const res = await deliver({ messages: [{ id: 'fake-msg-1', from: '5511977770001', name: 'Cliente Fake', text: 'Olá pelo fakechat' }] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ messages: 1, created: 1 });

    const queue = await t.api('/api/rooms?tab=queuesChats', { token: agente });
    expect(queue.status).toBe(200);
    const room = (queue.body.data as Room[]).find((r) => r.channelId === 'fake-1');
    expect(room, JSON.stringify(queue.body.data)).toBeTruthy();
    expect(room).toMatchObject({ channel: 'fakechat', chatId: '5511977770001', lastMessage: { text: 'Olá pelo fakechat' } });
    const page = await t.api(`/api/rooms/${room!.id}/messages`, { token: agente });
    expect(page.body.data.map((m: { text: string }) => m.text)).toEqual(['Olá pelo fakechat']);

    // A delivery the provider repeats changes nothing.
    const again = await deliver({ messages: [{ id: 'fake-msg-1', from: '5511977770001', name: 'Cliente Fake', text: 'Olá pelo fakechat' }] });
    expect(again.body.data).toMatchObject({ messages: 1, created: 0 });

    expect((await t.api(`/api/rooms/${room!.id}/push`, { method: 'PATCH', body: {}, token: agente })).status).toBe(200);
    const reply = await t.api(`/api/rooms/${room!.id}/message`, { method: 'POST', body: { text: 'Resposta do agente' }, token: agente });
    expect(reply.status, reply.text).toBe(201);
    await waitFor(() => sent.length > 0, 'the fake adapter to send');
    expect(sent).toEqual([{ to: '5511977770001', text: 'Resposta do agente', config: { baseUrl: 'http://fakechat.invalid', webhookSecret: SECRET } }]);
    // The provider's id comes back onto the message, as for any provider.
    const stored = await waitFor(async () => {
      const m = (await t.api(`/api/rooms/${room!.id}/messages/${reply.body.data.id}`, { token: agente })).body.data;
      return m?.messageExtId ? m : null;
    }, 'the sent status');
    expect(stored).toMatchObject({ messageExtId: 'fake-1', status: { sent: true } });
  });
});
