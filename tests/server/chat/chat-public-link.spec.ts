import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages as texts } from '@atendimento/schemas';
import { push, startChatServer, stopChatServer, visitorStarts, type ChatTest } from './chat-helpers';

/** 'Copiar link do chat' (docs/console-operations.md "Public link"): GET /api/rooms/:id/publicLink for attendants only. */
let t: ChatTest;
beforeAll(async () => {
  t = await startChatServer();
  await t.patchAppConfig({ claims: { publicRegister: true } });
});
afterAll(() => stopChatServer(t));

const link = (roomId: string, token?: string, host?: string) => t.api(`/api/rooms/${roomId}/publicLink`, { token, ...(host && { host }) });

describe('public link of a chat', () => {
  it('the attendant, the supervisor and an admin get /chat/:token, which opens the read-only public chat', async () => {
    const visitor = await visitorStarts(t, 'site-vendas', 'Pode me mandar o link?');
    const roomId = visitor.roomId!;
    await push(t, t.tokens.agente, roomId);
    const res = await link(roomId, t.tokens.agente);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.path).toMatch(/^\/chat\/[^/]+$/);
    for (const token of [t.tokens.supervisor, t.tokens.admin]) expect((await link(roomId, token)).body.data.path).toBe(res.body.data.path);
    const token = decodeURIComponent(res.body.data.path.slice('/chat/'.length));
    const anon = await t.api('/api/auth/anonymous', { method: 'POST', body: { roomToken: token } });
    expect(anon.status, anon.text).toBeLessThan(300);
  });

  it('refused to who does not attend it, other departments, strangers, other tenants and visitors; internal chats have none', async () => {
    const queued = await visitorStarts(t, 'site-vendas', 'Oi');
    const notYet = await link(queued.roomId!, t.tokens.agente);
    expect(notYet.status).toBe(403);
    expect(notYet.body.errorMessage).toBe(texts.chatServer.enterFirst);
    await push(t, t.tokens.agente, queued.roomId!);
    expect((await link(queued.roomId!, t.tokens.suporte)).status).toBe(404);
    const signup = await t.api('/api/users', { method: 'POST', body: { displayName: 'Estranho', email: `estranho-${randomUUID()}@acme.test`, password: 'segredo1', confirmPassword: 'segredo1' } });
    expect((await link(queued.roomId!, signup.body.data.accessToken)).status).toBe(404);
    expect((await link(queued.roomId!, await t.tokenFor('outra', 'outra-admin'), t.hosts.outra)).status).toBe(404);
    expect((await link(queued.roomId!)).status).toBe(401);
    const internal = await t.api('/api/internalChats', { method: 'POST', body: { agents: ['acme-suporte'] }, token: t.tokens.agente });
    expect((await link(internal.body.data.id, t.tokens.agente)).status).toBe(400);
  });
});
