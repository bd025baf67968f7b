import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages as texts, type Room } from '@atendimento/schemas';
import { startChatServer, stopChatServer, type ChatTest } from './chat-helpers';

/**
 * 'Orçamentos' (seed 001 §8): the quotes portal of a chat's contact, filtered by its ERP client's
 * code and store; without a linked client, the seed's message; each kind of user tried.
 */
let t: ChatTest;
let counter = 0;
beforeAll(async () => {
  t = await startChatServer();
  await t.patchAppConfig({ claims: { publicRegister: true }, quotesUrl: 'https://portal.example/orcamentos?origem=chat' });
});
afterAll(() => stopChatServer(t));

async function contactRoom(): Promise<Room> {
  counter += 1;
  const res = await t.api('/api/rooms', { method: 'POST', body: { contact: { displayName: `Cliente ${counter}`, phone: `55119876600${String(counter).padStart(2, '0')}` } }, token: t.tokens.agente });
  expect(res.status, res.text).toBe(201);
  return res.body.data as Room;
}

async function linkClients(room: Room, clients: string[]): Promise<void> {
  const res = await t.api(`/api/contacts/${room.author.id}`, { method: 'PATCH', body: { clients }, token: t.tokens.admin });
  expect(res.status, res.text).toBe(200);
}

const quotes = (roomId: string, token: string, host?: string) => t.api(`/api/rooms/${roomId}/quotes`, { token, host });

describe("'Orçamentos'", () => {
  it("frames the portal filtered by the contact's first client: code and store", async () => {
    const room = await contactRoom();
    await linkClients(room, ['00012301', '00045602']);
    const res = await quotes(room.id, t.tokens.agente);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toEqual({ url: 'https://portal.example/orcamentos?origem=chat&cliente=000123&loja=01', client: { A1_COD: '000123', A1_LOJA: '01' } });

    await t.patchAppConfig({ quotesUrl: 'https://portal.example/c/{cliente}/loja/{loja}' });
    try {
      expect((await quotes(room.id, t.tokens.agente)).body.data.url).toBe('https://portal.example/c/000123/loja/01');
    } finally {
      await t.patchAppConfig({ quotesUrl: 'https://portal.example/orcamentos?origem=chat' });
    }
  });

  it("says 'Associe o Contato a um cliente para fazer um orçamento' when no client is linked, and when the portal is not set up", async () => {
    const room = await contactRoom();
    const none = await quotes(room.id, t.tokens.agente);
    expect([none.status, none.body]).toEqual([409, { error: 'no_client', errorMessage: 'Associe o Contato a um cliente para fazer um orçamento' }]);

    await t.patchAppConfig({ quotesUrl: null });
    try {
      const off = await quotes(room.id, t.tokens.agente);
      expect([off.status, off.body]).toEqual([409, { error: 'quotes_not_configured', errorMessage: texts.contact.quotesNotConfigured }]);
    } finally {
      await t.patchAppConfig({ quotesUrl: 'https://portal.example/orcamentos?origem=chat' });
    }
  });

  it("lets the tenant's pages frame its portal's origin, and no other tenant's", async () => {
    const csp = async (host?: string) => String((await t.api('/login', { host })).headers['content-security-policy']);
    expect(await csp()).toMatch(/frame-src 'self' blob: https:\/\/portal\.example;/);
    expect(await csp(t.hosts.outra)).toMatch(/frame-src 'self' blob:;/);
  });

  it('answers 404 to who cannot see the chat, a stranger and another tenant', async () => {
    const room = await contactRoom();
    await linkClients(room, ['00012301']);
    expect((await quotes(room.id, t.tokens.suporte)).status).toBe(404);
    expect((await quotes(room.id, t.tokens.supervisor)).status).toBe(200);
    const signup = await t.api('/api/users', { method: 'POST', body: { displayName: 'Estranho', email: `estranho-q-${Date.now()}@acme.test`, password: 'segredo1', confirmPassword: 'segredo1' } });
    expect(signup.status, signup.text).toBe(201);
    expect((await quotes(room.id, signup.body.data.accessToken)).status).toBe(404);
    expect((await quotes(room.id, await t.tokenFor('outra', 'outra-admin'), t.hosts.outra)).status).toBe(404);
  });
});
