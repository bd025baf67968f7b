import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@atendimento/schemas';
import { push, startChatServer, stopChatServer, visitorStarts, visitorWrites, type ChatTest } from '../chat/chat-helpers';

/** Chat summaries (docs/summaries.md): find by number, e-mail the extractive summary to the caller. */
let t: ChatTest;
let roomId: string;
let roomInc: number;

beforeAll(async () => {
  t = await startChatServer();
  await t.patchAppConfig({ claims: { publicRegister: true, allowFollowMe: true, queues: true, sumarizeRoom: true } });
  const visitor = await visitorStarts(t, 'site-vendas', 'Olá, quero saber o prazo de entrega para Curitiba', 'Marina Cliente');
  roomId = visitor.roomId!;
  await push(t, t.tokens.agente, roomId);
  const send = (text: string) => t.api(`/api/rooms/${roomId}/message`, { method: 'POST', body: { text }, token: t.tokens.agente });
  expect((await send('Bom dia! Vou verificar para você.')).status).toBe(201);
  expect((await visitorWrites(t, visitor, 'Vocês entregam no sábado?')).status).toBeLessThan(300);
  expect((await send('Entregamos em Curitiba em até 3 dias úteis, inclusive aos sábados pela manhã, sem custo adicional.')).status).toBe(201);
  expect((await send('Posso ajudar em algo mais?')).status).toBe(201);
  const closed = await t.api(`/api/rooms/${roomId}/close`, { method: 'PATCH', body: { closedBy: { justify: 'Resolvido' } }, token: t.tokens.agente });
  expect(closed.status, closed.text).toBe(200);
  roomInc = closed.body.data.roomInc;
}, 60_000);
afterAll(() => stopChatServer(t));

describe('summaries', () => {
  it('finds a chat by its number for someone who may open it', async () => {
    const res = await t.api(`/api/sumaries/${roomInc}`, { token: t.tokens.agente });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ id: roomId, roomInc, contact: 'Marina Cliente', active: false });
    expect(res.body.data.closedAt).toBeTruthy();
    expect((await t.api(`/api/sumaries/${roomInc}`, { token: t.tokens.suporte })).status).toBe(404);
    expect((await t.api('/api/sumaries/999999', { token: t.tokens.agente })).status).toBe(404);
    expect((await t.api('/api/sumaries/abc', { token: t.tokens.agente })).status).toBe(400);
  });

  it("e-mails the caller a readable summary: participants, timeline, the customer's request, key answers, outcome", async () => {
    const res = await t.api(`/api/rooms/sumarize/${roomId}`, { method: 'POST', body: { targetEmail: 'agente@acme.test' }, token: t.tokens.agente });
    expect(res.status, res.text).toBe(200);
    const mail = await t.smtp.waitFor('agente@acme.test');
    expect(mail.subject).toBe(`Resumo do chat ${roomInc} - Marina Cliente`);
    const text = mail.text;
    expect(text).toContain('Participantes');
    expect(text).toContain('Agente: Agente Acme');
    expect(text).toContain('Primeira mensagem: "Olá, quero saber o prazo de entrega para Curitiba"');
    expect(text).toContain('Pergunta: "Vocês entregam no sábado?"');
    expect(text).toContain('Entregamos em Curitiba em até 3 dias úteis');
    expect(text).toContain('justificativa: Resolvido');
    expect(text).toContain('Situação: encerrado (Resolvido)');
  });

  it('sends only to the caller, only chats they may open, only with the tenant claim', async () => {
    const other = await t.api(`/api/rooms/sumarize/${roomId}`, { method: 'POST', body: { targetEmail: 'alguem@fora.test' }, token: t.tokens.agente });
    expect(other.status).toBe(400);
    expect(other.body.fields[0].message).toBe(messages.summary.onlyOwnEmail);
    expect((await t.api(`/api/rooms/sumarize/${roomId}`, { method: 'POST', body: {}, token: t.tokens.suporte })).status).toBe(404);
    const outsider = await t.tokenFor('outra', 'outra-admin');
    expect((await t.api(`/api/rooms/sumarize/${roomId}`, { method: 'POST', body: {}, token: outsider })).status).toBe(401);
    await t.patchAppConfig({ claims: { publicRegister: true, allowFollowMe: true, queues: true } });
    expect((await t.api(`/api/sumaries/${roomInc}`, { token: t.tokens.admin })).status).toBe(403);
  });
});
