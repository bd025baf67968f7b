import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages as texts, surveyQuestion, type Room } from '@atendimento/schemas';
import { startWhatsappServer, stopWhatsappServer, type WhatsappTest } from './whatsapp-helpers';
import { waitFor } from '../../helpers/wait-for';

/** An NPS survey answered on WhatsApp (local Meta provider): question out, "3" back, stored on the room. */
let t: WhatsappTest;
beforeAll(async () => {
  t = await startWhatsappServer();
  await t.patchAppConfig({ claims: { publicRegister: true, queues: true, askResearch: true, askResearchCsat: true } });
});
afterAll(() => stopWhatsappServer(t));

const textTo = (phone: string) => t.graph.sent.filter((m) => m.to === phone && m.body.type === 'text').map((m) => m.body.text?.body as string);

describe('NPS survey on WhatsApp', () => {
  it('the customer answers 3 with a comment; the survey is thanked and stored', async () => {
    const phone = '5511944440001';
    await t.graph.customerSays({ phone, name: 'Paula WhatsApp' }, { type: 'text', text: { body: 'Quero cancelar' } });
    const roomId = await waitFor(async () => (await t.server.db('rooms').where({ tenant_id: 'acme', chat_id: phone }).first('id'))?.id as string | undefined, 'room of the customer');
    expect((await t.api(`/api/rooms/${roomId}/push`, { method: 'PATCH', body: {}, token: t.tokens.agente })).status).toBe(200);
    const closed = await t.api(`/api/rooms/${roomId}/askresearch`, { method: 'PATCH', body: { closedBy: {}, researchMethod: 'nps' }, token: t.tokens.agente });
    expect(closed.status, closed.text).toBe(200);
    await waitFor(() => textTo(phone).includes(surveyQuestion({ claims: {} }, 'nps')) || undefined, 'the question on the customer phone');

    await t.graph.customerSays({ phone, name: 'Paula WhatsApp' }, { type: 'text', text: { body: '3, demorou muito' } });
    const room = await waitFor(async () => {
      const r = (await t.api(`/api/rooms/${roomId}`, { token: t.tokens.admin })).body.data as Room;
      return r.nps ? r : undefined;
    }, 'the answer stored');
    expect(room).toMatchObject({ active: false, research: null, nps: { value: 3, reason: 'demorou muito' } });
    await waitFor(() => textTo(phone).includes(texts.survey.thanks) || undefined, 'thanks on the customer phone');
    // No new chat was opened by the answer.
    expect(Number((await t.server.db('rooms').where({ tenant_id: 'acme', chat_id: phone }).count({ n: '*' }))[0]!.n)).toBe(1);
  });

  it('a CSAT (1–5) goes as a list of scores; the customer taps 4 and it is stored', async () => {
    const phone = '5511944440002';
    await t.graph.customerSays({ phone, name: 'Otávio Lista' }, { type: 'text', text: { body: 'Meu pedido chegou' } });
    const roomId = await waitFor(async () => (await t.server.db('rooms').where({ tenant_id: 'acme', chat_id: phone }).first('id'))?.id as string | undefined, 'room of the customer');
    expect((await t.api(`/api/rooms/${roomId}/push`, { method: 'PATCH', body: {}, token: t.tokens.agente })).status).toBe(200);
    const closed = await t.api(`/api/rooms/${roomId}/askresearch`, { method: 'PATCH', body: { closedBy: {}, researchMethod: 'csat' }, token: t.tokens.agente });
    expect(closed.status, closed.text).toBe(200);
    const list = await waitFor(() => t.graph.sent.find((m) => m.to === phone && m.body.type === 'interactive'), 'the list on the customer phone');
    const interactive = list.body.interactive as { type: string; body: { text: string }; action: { button: string; sections: { rows: { id: string; title: string; description?: string }[] }[] } };
    expect(interactive.type).toBe('list');
    expect(interactive.body.text).toBe(surveyQuestion({ claims: {} }, 'csat'));
    expect(interactive.action.button).toBe(texts.survey.listButton);
    expect(interactive.action.sections[0]!.rows.map((r) => r.title)).toEqual(['1', '2', '3', '4', '5']);
    expect(interactive.action.sections[0]!.rows[4]!.description).toBe('Muito satisfeito');

    await t.graph.customerSays({ phone, name: 'Otávio Lista' }, { type: 'interactive', interactive: { type: 'list_reply', list_reply: { id: 'survey:csat:4', title: '4', description: 'Satisfeito' } } });
    const room = await waitFor(async () => {
      const r = (await t.api(`/api/rooms/${roomId}`, { token: t.tokens.admin })).body.data as Room;
      return r.csat ? r : undefined;
    }, 'the answer stored');
    expect(room).toMatchObject({ active: false, research: null, csat: { value: 4 } });
    await waitFor(() => textTo(phone).includes(texts.survey.thanks) || undefined, 'thanks on the customer phone');
  });

  it('NPS 0–10 has more scores than a list holds: it goes as text', async () => {
    const phone = '5511944440003';
    await t.graph.customerSays({ phone, name: 'Nina Texto' }, { type: 'text', text: { body: 'Olá' } });
    const roomId = await waitFor(async () => (await t.server.db('rooms').where({ tenant_id: 'acme', chat_id: phone }).first('id'))?.id as string | undefined, 'room of the customer');
    expect((await t.api(`/api/rooms/${roomId}/push`, { method: 'PATCH', body: {}, token: t.tokens.agente })).status).toBe(200);
    expect((await t.api(`/api/rooms/${roomId}/askresearch`, { method: 'PATCH', body: { closedBy: {}, researchMethod: 'nps' }, token: t.tokens.agente })).status).toBe(200);
    await waitFor(() => textTo(phone).includes(surveyQuestion({ claims: {} }, 'nps')) || undefined, 'the text question');
    expect(t.graph.sent.some((m) => m.to === phone && m.body.type === 'interactive')).toBe(false);
  });
});
