import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages as texts, type Message, type Room } from '@atendimento/schemas';
import { push, startChatServer, stopChatServer, visitorStarts, type ChatTest } from './chat-helpers';

/** On hold (seed 001 §4 "On hold"): claim enableChatOnHold, the chosen message to the customer, auto-off on the agent's next send. */
let t: ChatTest;
const CLAIMS = { publicRegister: true, allowFollowMe: true, queues: true };
beforeAll(async () => {
  t = await startChatServer();
});
afterAll(() => stopChatServer(t));

const hold = (roomId: string, onHold: unknown, token = t.tokens.agente) => t.api(`/api/rooms/${roomId}`, { method: 'PATCH', body: { onHold }, token });

async function vendasRoom(): Promise<string> {
  const visitor = await visitorStarts(t, 'site-vendas', 'Oi');
  await push(t, t.tokens.agente, visitor.roomId!);
  return visitor.roomId!;
}

describe('on hold', () => {
  it('needs the tenant claim enableChatOnHold', async () => {
    await t.patchAppConfig({ claims: CLAIMS });
    const roomId = await vendasRoom();
    const res = await hold(roomId, { active: true, message: 'Aguarde' });
    expect(res.status).toBe(403);
    expect(res.body.errorMessage).toBe(texts.chatServer.onHoldDisabled);
  });

  it('sends the chosen message to the customer, stays on until the agent sends anything', async () => {
    await t.patchAppConfig({ claims: { ...CLAIMS, enableChatOnHold: true } });
    const roomId = await vendasRoom();
    const missing = await hold(roomId, { active: true, message: '  ' });
    expect(missing.status).toBe(400);
    expect(missing.body.errorMessage).toBe(texts.chatServer.onHoldMessageRequired);
    expect((await hold(roomId, { active: 'sim' })).status).toBe(400);

    const on = await hold(roomId, { active: true, message: 'Por favor, aguarde um instante enquanto verifico.' });
    expect(on.status, on.text).toBe(200);
    expect((on.body.data as Room).onHold).toEqual({ active: true, message: 'Por favor, aguarde um instante enquanto verifico.' });
    const list = (await t.api(`/api/rooms/${roomId}/messages`, { token: t.tokens.agente })).body.data as Message[];
    expect(list.some((m) => m.text === 'Por favor, aguarde um instante enquanto verifico.' && !m.annotation && m.author.id === 'acme-agente')).toBe(true);

    const sent = await t.api(`/api/rooms/${roomId}/message`, { method: 'POST', body: { text: 'Voltei, encontrei seu pedido.', clientId: randomUUID() }, token: t.tokens.agente });
    expect(sent.status, sent.text).toBe(201);
    const after = (await t.api(`/api/rooms/${roomId}`, { token: t.tokens.agente })).body.data as Room;
    expect(after.onHold.active).toBe(false);

    expect((await hold(roomId, { active: true, message: 'Um momento' })).status).toBe(200);
    const off = await hold(roomId, { active: false });
    expect(off.body.data.onHold).toEqual({ active: false, message: null });
  });

  it('only whoever attends the chat (or its supervisor, an admin) may put it on hold', async () => {
    await t.patchAppConfig({ claims: { ...CLAIMS, enableChatOnHold: true } });
    const roomId = await vendasRoom();
    expect((await hold(roomId, { active: true, message: 'x' }, t.tokens.suporte)).status).toBe(404);
    const outra = await t.api(`/api/rooms/${roomId}`, { method: 'PATCH', body: { onHold: { active: true, message: 'x' } }, token: await t.tokenFor('outra', 'outra-admin'), host: t.hosts.outra });
    expect(outra.status).toBe(404);
    expect((await hold(roomId, { active: true, message: 'Aguarde' }, t.tokens.supervisor)).status).toBe(200);
    expect((await hold(roomId, { active: false }, t.tokens.admin)).status).toBe(200);
  });
});
