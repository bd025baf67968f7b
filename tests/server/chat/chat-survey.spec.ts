import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages as texts, surveyQuestion, type Message, type Room } from '@atendimento/schemas';
import { advance, startRoutingServer, stopRoutingServer, type RoutingTest } from '../routing/routing-helpers';
import { push, socketAs, subscribe, visitorStarts, visitorWrites } from './chat-helpers';

/**
 * Close with an NPS / CSAT survey (docs/console-operations.md "Surveys") on the web chat: the
 * question, the answer stored on the room, one re-ask, giving up, expiry on the clock, claims.
 */
let t: RoutingTest;
const CLAIMS = { publicRegister: true, queues: true };
beforeAll(async () => {
  t = await startRoutingServer();
});
afterAll(() => stopRoutingServer(t));

async function surveyed(method: 'nps' | 'csat', token = t.tokens.agente) {
  const visitor = await visitorStarts(t, 'site-vendas', 'Oi');
  await push(t, t.tokens.agente, visitor.roomId!);
  const res = await t.api(`/api/rooms/${visitor.roomId}/askresearch`, { method: 'PATCH', body: { closedBy: { justify: 'Resolvido' }, researchMethod: method }, token });
  return { visitor, res };
}
const roomOf = async (roomId: string) => (await t.api(`/api/rooms/${roomId}`, { token: t.tokens.admin })).body.data as Room;
const textsOf = async (roomId: string) => ((await t.api(`/api/rooms/${roomId}/messages?limit=50`, { token: t.tokens.admin })).body.data as Message[]).map((m) => m.text);

describe('surveys at closing', () => {
  it('need the tenant claim of the method, and a method', async () => {
    await t.patchAppConfig({ claims: CLAIMS });
    const { res } = await surveyed('nps');
    expect(res.status).toBe(403);
    expect(res.body.errorMessage).toBe(texts.survey.disabled);
    await t.patchAppConfig({ claims: { ...CLAIMS, askResearch: true } });
    expect((await surveyed('csat')).res.status).toBe(403);
    const visitor = await visitorStarts(t, 'site-vendas', 'Oi');
    await push(t, t.tokens.agente, visitor.roomId!);
    const noMethod = await t.api(`/api/rooms/${visitor.roomId}/askresearch`, { method: 'PATCH', body: { closedBy: { justify: 'Resolvido' } }, token: t.tokens.agente });
    expect(noMethod.status).toBe(400);
    await t.patchAppConfig({ claims: { ...CLAIMS, askResearch: true, disableAskResearch: true } });
    expect((await surveyed('nps')).res.status).toBe(403);
    expect((await surveyed('nps', t.tokens.admin)).res.status).toBe(200);
  });

  it('NPS: the question reaches the visitor, "9 - ótimo" is stored with its comment and thanked', async () => {
    await t.patchAppConfig({ claims: { ...CLAIMS, askResearch: true } });
    const { visitor, res } = await surveyed('nps');
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ active: false, research: { method: 'nps', asks: 1 } });
    expect(await textsOf(visitor.roomId!)).toContain(surveyQuestion({ claims: {} }, 'nps'));
    const answer = await visitorWrites(t, visitor, '9 - ótimo atendimento');
    expect(answer.status, answer.text).toBe(201);
    const room = await roomOf(visitor.roomId!);
    expect(room.research).toBeNull();
    expect(room.nps).toMatchObject({ value: 9, reason: 'ótimo atendimento' });
    expect(room.nps!.answerdAt).toEqual(expect.any(String));
    expect(room.active).toBe(false);
    expect(await textsOf(visitor.roomId!)).toContain(texts.survey.thanks);
    // Answered: the next message is a new chat, not a second answer.
    expect((await visitorWrites(t, visitor, '10')).status).toBe(409);
  });

  it('a visitor who reloads while the survey waits gets the closed chat back and answers it; later a reload starts afresh', async () => {
    await t.patchAppConfig({ claims: { ...CLAIMS, askResearchCsat: true } });
    const { visitor } = await surveyed('csat');
    // 40 minutes later (past the goodbye's half hour, the survey still waiting) the page reloads: the session keeps the chat.
    await advance(t, 40 * 60_000);
    const reload = await t.api('/api/webchat/site-vendas/session', { method: 'POST', body: { visitorKey: visitor.visitorKey } });
    expect(reload.status, reload.text).toBe(200);
    expect(reload.body.data).toMatchObject({ roomId: visitor.roomId, accessToken: expect.any(String) });
    // Its token reads the closed chat, the question included (what the widget shows).
    const socket = await socketAs(t, reload.body.data.accessToken);
    const snapshot = await subscribe(socket, 'msgs', 'messages', { roomId: visitor.roomId, limit: 50 });
    expect(snapshot.records.map((m) => (m as { text?: string }).text)).toContain(surveyQuestion({ claims: {} }, 'csat'));
    expect((await visitorWrites(t, reload.body.data, '5')).status).toBe(201);
    expect((await roomOf(visitor.roomId!)).csat).toMatchObject({ value: 5 });
    // Answered and closed for over half an hour: a reload shows the start form (no room).
    await advance(t, 31 * 60_000);
    const later = await t.api('/api/webchat/site-vendas/session', { method: 'POST', body: { visitorKey: visitor.visitorKey } });
    expect(later.body.data).toMatchObject({ roomId: null, accessToken: null });
  });

  it('a text or out-of-range answer is asked again once, then given up politely', async () => {
    await t.patchAppConfig({ claims: { ...CLAIMS, askResearchCsat: true } });
    const { visitor } = await surveyed('csat');
    expect((await visitorWrites(t, visitor, 'foi bom')).status).toBe(201);
    expect((await roomOf(visitor.roomId!)).research).toMatchObject({ asks: 2 });
    expect(await textsOf(visitor.roomId!)).toContain('Não entendi sua resposta. Por favor, responda apenas com um número de 1 a 5.');
    expect((await visitorWrites(t, visitor, '7')).status).toBe(201);
    const room = await roomOf(visitor.roomId!);
    expect(room.research).toBeNull();
    expect(room.csat).toBeNull();
    expect(await textsOf(visitor.roomId!)).toContain(texts.survey.giveUp);
  });

  it('npsFive: the scale is 1 to 5', async () => {
    await t.patchAppConfig({ claims: { ...CLAIMS, askResearch: true, npsFive: true } });
    const { visitor } = await surveyed('nps');
    await visitorWrites(t, visitor, '0');
    expect((await roomOf(visitor.roomId!)).research).toMatchObject({ asks: 2 });
    await visitorWrites(t, visitor, '5');
    expect((await roomOf(visitor.roomId!)).nps).toMatchObject({ value: 5, reason: null });
  });

  it('an unanswered survey expires after a day on the clock', async () => {
    await t.patchAppConfig({ claims: { ...CLAIMS, askResearch: true } });
    const { visitor } = await surveyed('nps');
    await advance(t, 23 * 3_600_000);
    expect((await roomOf(visitor.roomId!)).research).not.toBeNull();
    await advance(t, 2 * 3_600_000);
    expect((await roomOf(visitor.roomId!)).research).toBeNull();
    expect((await visitorWrites(t, visitor, '8', randomUUID())).status).toBe(409);
  });
});
