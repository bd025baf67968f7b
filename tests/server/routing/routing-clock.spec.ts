import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { format, messages as texts } from '@atendimento/schemas';
import {
  addAgents, advance, customerSees, customerWrites, messagesOf, MINUTE, notesOf, patchAgent, patchDepartment, roomOf, setStatus, settleRouting, startRoutingServer, stopRoutingServer, tabOf, tokenOf,
  type RoutingTest,
} from './routing-helpers';
import { visitorWrites } from '../chat/chat-helpers';

/**
 * The contact-center clock with a manual clock (docs/routing.md "The clock"): waiting →
 * transhipment, automatic answers, the department's automatic message rules (each command,
 * repeat), inactivity, business hours, contingencies. Every step is one simulated minute in
 * which due deadlines fire.
 */
let t: RoutingTest;

beforeEach(async () => {
  t = await startRoutingServer();
  await addAgents(t, [{ id: 'ana', displayName: 'Ana' }, { id: 'bia', displayName: 'Bia' }]);
});
afterEach(() => stopRoutingServer(t));

const closeAs = (userId: string, roomId: string) => t.api(`/api/rooms/${roomId}/close`, { method: 'PATCH', body: { closedBy: { justify: 'Resolvido' } }, token: tokenOf(t, userId) });

describe('waiting → transhipment', () => {
  it("after the department's waitingTime unanswered, the chat moves to its transhipment queue with a system note; the other department sees it in Fila", async () => {
    await patchDepartment(t, 'vendas', { agents: ['acme-agente', 'ana'], agentSelectionRule: 'wait', waitingTime: 5, transhipment: 'deptosuporte' });
    const { room } = await customerWrites(t, 'site-vendas', 'Alguém aí?', 'Cliente');
    await advance(t, 4 * MINUTE);
    expect((await roomOf(t, room.id)).queues.map((q) => q.id)).toEqual(['deptovendas']);
    await advance(t, MINUTE);
    const moved = await roomOf(t, room.id);
    expect(moved).toMatchObject({ departmentId: 'suporte', inAttend: false, agents: [] });
    expect(moved.queues.map((q) => q.id)).toEqual(['deptosuporte']);
    expect(moved.queuesHistory.map((q) => q.id)).toEqual(['deptovendas', 'deptosuporte']);
    expect(await notesOf(t, room.id)).toContain(format(texts.routing.transhipped, { queue: 'Suporte', minutes: 5, source: 'do departamento Vendas' }));
    expect(await tabOf(t, 'acme-suporte', 'queuesChats')).toContain(room.id);
    expect(await tabOf(t, 'acme-agente', 'queuesChats')).not.toContain(room.id);
  });

  it('an answered chat stays; noTranshipment keeps it; a chat never goes back to a queue it passed through', async () => {
    await patchDepartment(t, 'vendas', { agents: ['acme-agente', 'ana'], agentSelectionRule: 'wait', waitingTime: 2, transhipment: 'deptosuporte' });
    await patchDepartment(t, 'suporte', { agents: ['acme-suporte'], agentSelectionRule: 'wait', waitingTime: 2, transhipment: 'deptovendas' });
    const answered = await customerWrites(t, 'site-vendas', 'Oi', 'Respondido');
    expect((await t.api(`/api/rooms/${answered.room.id}/push`, { method: 'PATCH', body: {}, token: t.tokens.agente })).status).toBe(200);
    expect((await t.api(`/api/rooms/${answered.room.id}/message`, { method: 'POST', body: { text: 'Olá!' }, token: t.tokens.agente })).status).toBe(201);
    const waiting = await customerWrites(t, 'site-vendas', 'Oi', 'Esperando');
    await advance(t, 2 * MINUTE);
    expect((await roomOf(t, answered.room.id)).queues[0]!.id).toBe('deptovendas');
    expect((await roomOf(t, waiting.room.id)).queues[0]!.id).toBe('deptosuporte');
    // In suporte for 2 more minutes: back to vendas is refused (it passed through it).
    await advance(t, 3 * MINUTE);
    expect((await roomOf(t, waiting.room.id)).queues[0]!.id).toBe('deptosuporte');

    await patchDepartment(t, 'vendas', { claims: { noTranshipment: true } });
    const kept = await customerWrites(t, 'site-vendas', 'Oi', 'Sem transbordo');
    await advance(t, 3 * MINUTE);
    expect((await roomOf(t, kept.room.id)).queues[0]!.id).toBe('deptovendas');
  });

  it("the agent's own waitingTime and transhipment apply to chats the router gave them", async () => {
    await patchDepartment(t, 'vendas', { agents: ['acme-agente', 'ana'], agentSelectionRule: 'load' });
    await patchAgent(t, 'ana', { waitingTime: 3, transhipment: 'deptosuporte' });
    await setStatus(t, 'ana', 'online');
    const { room } = await customerWrites(t, 'site-vendas', 'Oi', 'Cliente');
    expect(room.agents.map((a) => a.id)).toEqual(['ana']);
    await advance(t, 3 * MINUTE);
    const moved = await roomOf(t, room.id);
    expect(moved).toMatchObject({ departmentId: 'suporte', agents: [], inAttend: false });
    expect(await notesOf(t, room.id)).toContain(format(texts.routing.transhipped, { queue: 'Suporte', minutes: 3, source: 'do agente Ana' }));
  });
});

describe('automatic answers', () => {
  it("the department's answer when the chat enters its queue, the agent's when the router assigns it; both reach the customer, and the chat still counts as unanswered", async () => {
    await patchDepartment(t, 'vendas', { agents: ['acme-agente', 'ana'], agentSelectionRule: 'load', automaticAnswer: 'Recebemos sua mensagem!' });
    await patchAgent(t, 'ana', { automaticAnswer: 'Oi, aqui é a Ana. Já vou te atender.' });
    await setStatus(t, 'ana', 'online');
    const { room, session } = await customerWrites(t, 'site-vendas', 'Quero comprar', 'Cliente');
    expect(await customerSees(t, session)).toEqual(['Quero comprar', 'Recebemos sua mensagem!', 'Oi, aqui é a Ana. Já vou te atender.']);
    const notes = await notesOf(t, room.id);
    expect(notes).toContain(format(texts.routing.automaticAnswer, { source: 'do departamento Vendas' }));
    expect(notes).toContain(format(texts.routing.automaticAnswer, { source: 'do agente Ana' }));
    const after = await roomOf(t, room.id);
    expect(after.messagesCount).toEqual({ agentMessage: 0, contactMessage: 1 });
    // The card still shows what the customer asked, not the automatic answers.
    expect(after.lastMessage).toMatchObject({ text: 'Quero comprar', unread: true, author: { type: 'client' } });
  });
});

describe('automatic department message rules', () => {
  it('sendMessage after N minutes of customer silence, repeated when repeat; a customer message restarts the count', async () => {
    await patchDepartment(t, 'vendas', { queueMessages: [{ command: 'sendMessage', arg: 'Ainda está aí?', timeInMinutes: 3, repeat: true }] });
    const { session, room } = await customerWrites(t, 'site-vendas', 'Oi', 'Cliente');
    await advance(t, 2 * MINUTE);
    expect(await customerSees(t, session)).toEqual(['Oi']);
    await advance(t, MINUTE);
    expect(await customerSees(t, session)).toEqual(['Oi', 'Ainda está aí?']);
    await advance(t, 3 * MINUTE);
    expect(await customerSees(t, session)).toEqual(['Oi', 'Ainda está aí?', 'Ainda está aí?']);
    expect((await visitorWrites(t, session, 'Estou sim')).status).toBe(201);
    await settleRouting(t);
    await advance(t, 2 * MINUTE);
    expect(await customerSees(t, session)).toEqual(['Oi', 'Ainda está aí?', 'Ainda está aí?', 'Estou sim']);
    await advance(t, MINUTE);
    expect(await customerSees(t, session)).toEqual(['Oi', 'Ainda está aí?', 'Ainda está aí?', 'Estou sim', 'Ainda está aí?']);
    const messages = await t.api(`/api/rooms/${room.id}/messages?limit=200`, { token: t.tokens.admin });
    expect(messages.body.data.filter((m: { author: { type: string } }) => m.author.type === 'cron')).toHaveLength(3);
    expect((await notesOf(t, room.id)).filter((n) => n === format(texts.routing.ruleSent, { department: 'Vendas', minutes: 3 }))).toHaveLength(2);
  });

  it('a rule speaks only to a customer waiting in the queue: an attended chat gets no queue message', async () => {
    await patchDepartment(t, 'vendas', { queueMessages: [{ command: 'sendMessage', arg: 'Seu atendimento continua na fila.', timeInMinutes: 3, repeat: true }] });
    const { session, room } = await customerWrites(t, 'site-vendas', 'Oi', 'Cliente');
    expect((await t.api(`/api/rooms/${room.id}/push`, { method: 'PATCH', body: {}, token: t.tokens.agente })).status).toBe(200);
    expect((await t.api(`/api/rooms/${room.id}/message`, { method: 'POST', body: { text: 'Olá! Sou a Ana.' }, token: t.tokens.agente })).status).toBe(201);
    await advance(t, 10 * MINUTE);
    expect(await customerSees(t, session)).toEqual(['Oi', 'Olá! Sou a Ana.']);
    expect((await messagesOf(t, room.id)).filter((m) => m.author.type === 'cron')).toEqual([]);
  });

  it('without repeat a rule fires once per silence; closeChat closes with the system justification', async () => {
    await patchDepartment(t, 'vendas', {
      queueMessages: [{ command: 'sendMessage', arg: 'Podemos ajudar?', timeInMinutes: 2 }, { command: 'closeChat', timeInMinutes: 10 }],
    });
    const { session, room } = await customerWrites(t, 'site-vendas', 'Oi', 'Cliente');
    await advance(t, 9 * MINUTE);
    expect(await customerSees(t, session)).toEqual(['Oi', 'Podemos ajudar?']);
    expect((await roomOf(t, room.id)).active).toBe(true);
    await advance(t, MINUTE);
    const closed = await roomOf(t, room.id);
    expect(closed).toMatchObject({ active: false, agents: [], closedBy: { id: 'system', justify: texts.routing.closeRule } });
    expect(await customerSees(t, session)).toEqual(['Oi', 'Podemos ajudar?', texts.chatServer.closedNotice]);
    expect(await notesOf(t, room.id)).toContain(format(texts.routing.ruleClosed, { department: 'Vendas', minutes: 10 }));
    expect(await t.server.services.scheduler.deadlines.count('acme')).toBe(0);
  });

  it('the rules dialog list is validated with the seed texts', async () => {
    const res = await t.api('/api/departaments/vendas', { method: 'PATCH', body: { queueMessages: [{ command: 'sendMessage', timeInMinutes: 0, arg: '' }] }, token: t.tokens.admin });
    expect(res.status).toBe(400);
    expect(res.body.errorMessage).toContain(texts.validation.ruleMinutes);
    expect(res.body.errorMessage).toContain(texts.validation.ruleText);
  });
});

describe('inactivity', () => {
  it("the department's inactiveTime closes a silent chat; an agent's message restarts it; the agent's own inactiveTime wins once they attend", async () => {
    await patchDepartment(t, 'vendas', { agents: ['acme-agente', 'ana'], inactiveTime: '00:10' });
    const quiet = await customerWrites(t, 'site-vendas', 'Oi', 'Silencioso');
    const talking = await customerWrites(t, 'site-vendas', 'Oi', 'Conversando');
    expect((await t.api(`/api/rooms/${talking.room.id}/push`, { method: 'PATCH', body: {}, token: tokenOf(t, 'ana') })).status).toBe(200);
    await advance(t, 6 * MINUTE);
    expect((await t.api(`/api/rooms/${talking.room.id}/message`, { method: 'POST', body: { text: 'Estou verificando' }, token: tokenOf(t, 'ana') })).status).toBe(201);
    await advance(t, 4 * MINUTE);
    const closed = await roomOf(t, quiet.room.id);
    expect(closed).toMatchObject({ active: false, closedBy: { id: 'system', justify: texts.routing.closeInactive } });
    expect(await notesOf(t, quiet.room.id)).toContain(format(texts.routing.inactiveClosed, { time: '00:10', source: 'do departamento Vendas' }));
    expect(await customerSees(t, quiet.session)).toEqual(['Oi', texts.chatServer.closedNotice]);
    expect((await roomOf(t, talking.room.id)).active).toBe(true);
    await advance(t, 6 * MINUTE);
    expect((await roomOf(t, talking.room.id)).active).toBe(false);

    await patchAgent(t, 'ana', { inactiveTime: '00:03' });
    const short = await customerWrites(t, 'site-vendas', 'Oi', 'Com a Ana');
    expect((await t.api(`/api/rooms/${short.room.id}/push`, { method: 'PATCH', body: {}, token: tokenOf(t, 'ana') })).status).toBe(200);
    await advance(t, 3 * MINUTE);
    expect(await roomOf(t, short.room.id)).toMatchObject({ active: false, closedBy: { justify: texts.routing.closeInactive } });
    expect(await notesOf(t, short.room.id)).toContain(format(texts.routing.inactiveClosed, { time: '00:03', source: 'do agente Ana' }));
  });

  it('a chat silent for longer than the period is not closed the moment an agent takes it: the period counts from the take', async () => {
    // Silent for an hour while no rule was set (the department's inactiveTime came later).
    const old = await customerWrites(t, 'site-vendas', 'Oi, ainda aí?', 'Antigo');
    await advance(t, 60 * MINUTE);
    await patchDepartment(t, 'vendas', { agents: ['acme-agente', 'ana'], inactiveTime: '00:10' });
    expect((await t.api(`/api/rooms/${old.room.id}/push`, { method: 'PATCH', body: {}, token: tokenOf(t, 'ana') })).status).toBe(200);
    await advance(t, 2 * MINUTE);
    expect((await roomOf(t, old.room.id)).active).toBe(true);
    expect(await customerSees(t, old.session)).toEqual(['Oi, ainda aí?']);
    // Still silent: closed ten minutes after the take.
    await advance(t, 8 * MINUTE);
    expect(await roomOf(t, old.room.id)).toMatchObject({ active: false, closedBy: { justify: texts.routing.closeInactive } });
  });
});

describe('business hours', () => {
  const office = {
    monday: { enable: true, startAt1: '08:00', endAt1: '09:30', startAt2: '10:00', endAt2: '18:00' },
    tuesday: { enable: true, startAt1: '08:00', endAt1: '18:00' },
  };

  it('outside hours the customer gets the out-of-hours message once, the chat waits, and the opening routes it at once', async () => {
    // 09:40 in São Paulo: between the two slots.
    t.clock.advance(40 * MINUTE);
    await patchDepartment(t, 'vendas', { agents: ['acme-agente', 'ana'], agentSelectionRule: 'load', daysWork: office, outOfHoursMessage: 'Voltamos às 10h.' });
    await setStatus(t, 'ana', 'online');
    const { room, session } = await customerWrites(t, 'site-vendas', 'Oi', 'Cliente');
    expect(room).toMatchObject({ inAttend: false, agents: [] });
    expect((await visitorWrites(t, session, 'Alô?')).status).toBe(201);
    await settleRouting(t);
    expect(await customerSees(t, session)).toEqual(['Oi', 'Voltamos às 10h.', 'Alô?']);
    expect(await notesOf(t, room.id)).toContain(format(texts.routing.outOfHours, { department: 'Vendas', opening: '05/01/2026 10:00' }));
    await advance(t, 19 * MINUTE);
    expect((await roomOf(t, room.id)).agents).toEqual([]);
    await advance(t, MINUTE);
    expect((await roomOf(t, room.id)).agents.map((a) => a.id)).toEqual(['ana']);
  });

  it("'Encerrar chat' out of hours closes after the message; the tenant's time zone decides what 'hours' are", async () => {
    await patchDepartment(t, 'vendas', { daysWork: office, outOfHoursAction: 'close' });
    // 09:00 in São Paulo is open; the same instant is 21:00 in Tokyo, closed.
    const open = await customerWrites(t, 'site-vendas', 'Oi', 'Em horário');
    expect((await roomOf(t, open.room.id)).active).toBe(true);
    await t.patchAppConfig({ timeZone: 'Asia/Tokyo' });
    t.server.services.routing.config.invalidate('acme');
    const late = await customerWrites(t, 'site-vendas', 'Oi', 'Fora de hora');
    expect(await roomOf(t, late.room.id)).toMatchObject({ active: false, closedBy: { justify: texts.routing.closeOutOfHours } });
    expect(await customerSees(t, late.session)).toEqual(['Oi', texts.routing.outOfHoursDefault, texts.chatServer.closedNotice]);
  });
});

describe('contingencies', () => {
  async function contingency(body: Record<string, unknown>): Promise<string> {
    const res = await t.api('/api/contingecies', {
      method: 'POST', token: t.tokens.admin,
      body: { active: true, startDate: '2026-01-05', startHour: '08:00', endDate: '2026-01-05', endHour: '10:00', timezoneOffset: -3, ...body },
    });
    expect(res.status, res.text).toBe(201);
    await settleRouting(t);
    return res.body.id ?? res.body.data?.id;
  }

  it('inside its window a contingency answers new chats with its message and tags, once; it is marked finished when the window ends', async () => {
    await t.server.db('tags').insert({ id: 'feriado', tenant_id: 'acme', name: 'Feriado', active: true, data: JSON.stringify({ id: 'feriado', name: 'Feriado', active: true }), created_at: t.clock.now().toISOString(), updated_at: t.clock.now().toISOString(), deleted_at: null });
    const id = await contingency({ defaultMessage: 'Hoje é feriado: respondemos amanhã.', tags: ['feriado'], departamentId: 'vendas' });
    const { room, session } = await customerWrites(t, 'site-vendas', 'Oi', 'Cliente');
    expect((await visitorWrites(t, session, 'Alguém?')).status).toBe(201);
    await settleRouting(t);
    expect(await customerSees(t, session)).toEqual(['Oi', 'Hoje é feriado: respondemos amanhã.', 'Alguém?']);
    expect(await roomOf(t, room.id)).toMatchObject({ active: true, tags: ['feriado'], tagsNames: ['Feriado'] });
    expect(await notesOf(t, room.id)).toContain(format(texts.routing.contingency, { end: '05/01/2026 10:00', extra: '; tags: Feriado' }));
    // Another department is not concerned.
    const other = await customerWrites(t, 'site-suporte', 'Oi', 'Suporte');
    expect(await customerSees(t, other.session)).toEqual(['Oi']);

    await advance(t, 59 * MINUTE);
    expect(Boolean((await t.api(`/api/contingecies/${id}`, { token: t.tokens.admin })).body.finished)).toBe(false);
    await advance(t, MINUTE);
    expect((await t.api(`/api/contingecies/${id}`, { token: t.tokens.admin })).body.finished).toBe(true);
    const after = await customerWrites(t, 'site-vendas', 'Oi de novo', 'Depois');
    expect(await customerSees(t, after.session)).toEqual(['Oi de novo']);
  });

  it('closeChat closes; newChatsOnly spares chats already open; inAttend reaches chats in attendance', async () => {
    const before = await customerWrites(t, 'site-vendas', 'Oi', 'Já estava');
    const attended = await customerWrites(t, 'site-vendas', 'Oi', 'Em atendimento');
    expect((await t.api(`/api/rooms/${attended.room.id}/push`, { method: 'PATCH', body: {}, token: t.tokens.agente })).status).toBe(200);
    await contingency({ defaultMessage: 'Sistema fora do ar.', newChatsOnly: true });
    expect((await visitorWrites(t, before.session, 'E aí?')).status).toBe(201);
    await settleRouting(t);
    expect(await customerSees(t, before.session)).toEqual(['Oi', 'E aí?']);

    await contingency({ defaultMessage: 'Atendimento suspenso.', closeChat: true, departamentId: 'vendas', inAttend: true });
    const fresh = await customerWrites(t, 'site-vendas', 'Oi', 'Novo');
    expect(await roomOf(t, fresh.room.id)).toMatchObject({ active: false, closedBy: { justify: texts.routing.closeContingency } });
    expect(await customerSees(t, fresh.session)).toEqual(['Oi', 'Atendimento suspenso.', texts.chatServer.closedNotice]);
    expect((await visitorWrites(t, attended.session, 'Oi?')).status).toBe(201);
    await settleRouting(t);
    expect((await roomOf(t, attended.room.id)).active).toBe(false);
  });
});

describe('restarts', () => {
  it('deadlines live in the database: a new server process on the same data fires them', async () => {
    await patchDepartment(t, 'vendas', { inactiveTime: '00:05' });
    const { room } = await customerWrites(t, 'site-vendas', 'Oi', 'Cliente');
    const rows = await t.server.services.scheduler.deadlines.list('acme');
    expect(rows.map((d) => d.kind)).toEqual(['inactivity']);
    expect(rows[0]!.dueAt).toBe(new Date(t.clock.now().getTime() + 5 * MINUTE).toISOString());
    // Stop the scheduler (a process gone), move the clock past the deadline, start it again.
    await t.server.services.scheduler.stop();
    t.clock.advance(6 * MINUTE);
    t.server.services.scheduler.start(60_000);
    await t.server.services.scheduler.tick();
    expect((await roomOf(t, room.id)).active).toBe(false);
    void closeAs;
  });
});
