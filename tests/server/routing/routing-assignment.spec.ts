import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { format, messages as texts } from '@atendimento/schemas';
import { parseJson, toJson } from '@atendimento/server/db/knex';
import {
  addAgents, advance, customerWrites, MINUTE, notesOf, patchDepartment, roomOf, setStatus, settleRouting, startRoutingServer, stopRoutingServer, tabOf, tokenOf,
  type RoutingTest,
} from './routing-helpers';

/**
 * Assignment (docs/routing.md): each agentSelectionRule, caps, only online agents, draining at
 * once when an agent comes online or closes a chat, offline/away return, atomic claims.
 * Department vendas gets agents ana, bia and caio (acme's fixture agent stays in it too, offline).
 */
let t: RoutingTest;
const VENDAS = ['acme-agente', 'ana', 'bia', 'caio'];

beforeEach(async () => {
  t = await startRoutingServer();
  await addAgents(t, [{ id: 'ana', displayName: 'Ana' }, { id: 'bia', displayName: 'Bia' }, { id: 'caio', displayName: 'Caio' }]);
});
afterEach(() => stopRoutingServer(t));

async function agentOf(roomId: string): Promise<string | null> {
  const room = await roomOf(t, roomId);
  return room.agents.length === 1 ? room.agents[0]!.id : room.agents.length === 0 ? null : 'many';
}

describe("'Menor carga' (load)", () => {
  it('gives each chat to the online agent with the fewest open chats, ties to the longest idle; the chat lands in Meus with a system note', async () => {
    await patchDepartment(t, 'vendas', { agents: VENDAS, orderedAgents: ['caio', 'bia', 'ana', 'acme-agente'], agentSelectionRule: 'load' });
    for (const id of ['ana', 'bia', 'caio']) await setStatus(t, id, 'online');

    // Nobody has chats and nobody received one yet: the predefined order breaks the tie.
    const first = await customerWrites(t, 'site-vendas', 'Quero um orçamento', 'Cliente 1');
    expect(first.room).toMatchObject({ inAttend: true, agents: [{ id: 'caio', displayName: 'Caio' }] });
    expect(await tabOf(t, 'caio', 'userChats')).toEqual([first.room.id]);
    expect(await tabOf(t, 'caio', 'queuesChats')).not.toContain(first.room.id);
    expect(await notesOf(t, first.room.id)).toContain(format(texts.routing.assigned, { agent: 'Caio', rule: 'Menor carga', department: 'Vendas' }));

    await advance(t, MINUTE);
    const second = await customerWrites(t, 'site-vendas', 'Oi', 'Cliente 2');
    await advance(t, MINUTE);
    const third = await customerWrites(t, 'site-vendas', 'Olá', 'Cliente 3');
    expect([await agentOf(second.room.id), await agentOf(third.room.id)]).toEqual(['bia', 'ana']);

    // Everyone has one: the longest idle (caio, a chat 2 minutes ago) gets the fourth.
    await advance(t, MINUTE);
    const fourth = await customerWrites(t, 'site-vendas', 'Bom dia', 'Cliente 4');
    expect(await agentOf(fourth.room.id)).toBe('caio');

    // Bia closes hers: she now has the fewest.
    const closed = await t.api(`/api/rooms/${second.room.id}/close`, { method: 'PATCH', body: { closedBy: { justify: 'Resolvido' } }, token: tokenOf(t, 'bia') });
    expect(closed.status, closed.text).toBe(200);
    const fifth = await customerWrites(t, 'site-vendas', 'Boa tarde', 'Cliente 5');
    expect(await agentOf(fifth.room.id)).toBe('bia');
  });

  it('never gives more than roomsPerAgent; the rest waits in Fila, and a closed chat drains the queue to that agent at once', async () => {
    await patchDepartment(t, 'vendas', { agents: VENDAS, agentSelectionRule: 'load', roomsPerAgent: 1 });
    await setStatus(t, 'ana', 'online');
    await setStatus(t, 'bia', 'online');
    const rooms = [];
    for (let i = 0; i < 4; i++) rooms.push((await customerWrites(t, 'site-vendas', `Olá ${i}`, `Cliente ${i}`)).room);
    const owners = await Promise.all(rooms.map((r) => agentOf(r.id)));
    expect(owners.slice(0, 2).sort()).toEqual(['ana', 'bia']);
    expect(owners.slice(2)).toEqual([null, null]);
    expect(await tabOf(t, 'ana', 'queuesChats')).toEqual(expect.arrayContaining([rooms[2]!.id, rooms[3]!.id]));

    // At the cap, ana's own "Atender" is refused too (docs/routing.md: the cap applies to takes).
    const take = await t.api(`/api/rooms/${rooms[2]!.id}/push`, { method: 'PATCH', body: {}, token: tokenOf(t, 'ana') });
    expect(take.status).toBe(409);
    expect(take.body.errorMessage).toBe(format(texts.routing.capReached, { n: 1 }));
    // A supervisor may still push an agent above the cap (a deliberate decision).
    const pushed = await t.api(`/api/rooms/${rooms[3]!.id}/push`, { method: 'PATCH', body: { agents: ['caio'] }, token: t.tokens.supervisor });
    expect(pushed.status, pushed.text).toBe(200);

    // Ana closes her chat: the oldest queued chat goes to her at once, without a tick.
    const anaRoom = rooms[owners.indexOf('ana')]!;
    expect((await t.api(`/api/rooms/${anaRoom.id}/close`, { method: 'PATCH', body: { closedBy: { justify: 'Resolvido' } }, token: tokenOf(t, 'ana') })).status).toBe(200);
    await settleRouting(t);
    expect(await agentOf(rooms[2]!.id)).toBe('ana');
  });

  it('only online agents receive chats; an agent coming online drains the queue toward them at once', async () => {
    await patchDepartment(t, 'vendas', { agents: VENDAS, agentSelectionRule: 'load', roomsPerAgent: 2 });
    await setStatus(t, 'ana', 'online');
    const rooms = [];
    for (let i = 0; i < 4; i++) rooms.push((await customerWrites(t, 'site-vendas', `Olá ${i}`, `Cliente ${i}`)).room);
    expect(await Promise.all(rooms.map((r) => agentOf(r.id)))).toEqual(['ana', 'ana', null, null]);

    await setStatus(t, 'bia', 'online');
    expect(await Promise.all(rooms.map((r) => agentOf(r.id)))).toEqual(['ana', 'ana', 'bia', 'bia']);
  });

  it("an agent going 'ausente' or offline gets back the chats the router gave them and they did not answer; they go to another agent by the rule", async () => {
    await patchDepartment(t, 'vendas', { agents: VENDAS, agentSelectionRule: 'load' });
    await setStatus(t, 'ana', 'online');
    const a = await customerWrites(t, 'site-vendas', 'Primeiro', 'Cliente A');
    const b = await customerWrites(t, 'site-vendas', 'Segundo', 'Cliente B');
    expect([await agentOf(a.room.id), await agentOf(b.room.id)]).toEqual(['ana', 'ana']);
    // Ana answers b: that one stays with her.
    expect((await t.api(`/api/rooms/${b.room.id}/message`, { method: 'POST', body: { text: 'Olá, já vejo!' }, token: tokenOf(t, 'ana') })).status).toBe(201);

    await setStatus(t, 'ana', 'ausente');
    expect(await agentOf(a.room.id)).toBeNull();
    expect(await agentOf(b.room.id)).toBe('ana');
    expect(await notesOf(t, a.room.id)).toContain(format(texts.routing.returned, { queue: 'Vendas', agent: 'Ana', status: 'ausente' }));

    // Bia comes online: the returned chat goes to her.
    await setStatus(t, 'bia', 'online');
    expect(await agentOf(a.room.id)).toBe('bia');

    // Bia's heartbeat stops: once the presence sweep sees her offline, the chat returns again.
    t.online.delete('bia');
    await advance(t, 2 * MINUTE);
    await t.server.services.presence.sweep();
    await settleRouting(t);
    expect(await agentOf(a.room.id)).toBeNull();
    expect(await notesOf(t, a.room.id)).toContain(format(texts.routing.returned, { queue: 'Vendas', agent: 'Bia', status: 'offline' }));
  });
});

describe("'Ordem predefinida' (predefinedOrder)", () => {
  it('fills the first agent of orderedAgents up to the cap, then the next', async () => {
    await patchDepartment(t, 'vendas', { agents: VENDAS, orderedAgents: ['caio', 'ana', 'bia', 'acme-agente'], agentSelectionRule: 'predefinedOrder', roomsPerAgent: 2 });
    for (const id of ['ana', 'bia', 'caio']) await setStatus(t, id, 'online');
    const owners = [];
    for (let i = 0; i < 6; i++) owners.push(await agentOf((await customerWrites(t, 'site-vendas', `Olá ${i}`, `Cliente ${i}`)).room.id));
    expect(owners).toEqual(['caio', 'caio', 'ana', 'ana', 'bia', 'bia']);
    const seventh = await customerWrites(t, 'site-vendas', 'Mais um', 'Cliente 7');
    expect(seventh.room.inAttend).toBe(false);
  });
});

describe("'Aguardar em fila' (wait) and claims", () => {
  it('wait leaves chats in Fila; two agents taking the same chat at once: exactly one wins, the other gets a 409', async () => {
    await patchDepartment(t, 'vendas', { agents: VENDAS, agentSelectionRule: 'wait' });
    for (const id of ['ana', 'bia']) await setStatus(t, id, 'online');
    const { room } = await customerWrites(t, 'site-vendas', 'Alguém?', 'Cliente');
    expect(room.inAttend).toBe(false);
    expect(await tabOf(t, 'ana', 'queuesChats')).toContain(room.id);

    const results = await Promise.all(['ana', 'bia'].map((id) => t.api(`/api/rooms/${room.id}/push`, { method: 'PATCH', body: {}, token: tokenOf(t, id) })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body.errorMessage).toBe(texts.routing.takenByOther);
    const after = await roomOf(t, room.id);
    expect(after.agents).toHaveLength(1);
    // The supervisor may still join an attended chat.
    expect((await t.api(`/api/rooms/${room.id}/push`, { method: 'PATCH', body: {}, token: t.tokens.supervisor })).status).toBe(200);
  });

  it('the router and an agent on the same chat: the agent taking a chat the router already gave gets the 409', async () => {
    await patchDepartment(t, 'vendas', { agents: VENDAS, agentSelectionRule: 'load' });
    await setStatus(t, 'ana', 'online');
    const { room } = await customerWrites(t, 'site-vendas', 'Olá', 'Cliente');
    expect(room.agents.map((a) => a.id)).toEqual(['ana']);
    const late = await t.api(`/api/rooms/${room.id}/push`, { method: 'PATCH', body: {}, token: tokenOf(t, 'acme-agente') });
    expect(late.status).toBe(409);
    expect(late.body.errorMessage).toBe(texts.routing.takenByOther);
  });

  it('agentPriority sends the chat to the contact own agent when online (keepOnDepartment: only if in the department)', async () => {
    await patchDepartment(t, 'vendas', { agents: VENDAS, agentSelectionRule: 'load', claims: { agentPriority: true, keepOnDepartment: true } });
    for (const id of ['ana', 'bia']) await setStatus(t, id, 'online');
    const first = await customerWrites(t, 'site-vendas', 'Olá', 'Cliente fiel');
    const owner = await agentOf(first.room.id);
    // The contact's wallet: the other agent.
    const other = owner === 'ana' ? 'bia' : 'ana';
    const contact = await t.server.db('contacts').where({ tenant_id: 'acme', id: first.room.author.id }).first();
    await t.server.db('contacts').where({ tenant_id: 'acme', id: first.room.author.id }).update({ data: toJson({ ...parseJson<object>(contact.data, {}), agents: [other] }) });
    expect((await t.api(`/api/rooms/${first.room.id}/close`, { method: 'PATCH', body: { closedBy: { justify: 'Resolvido' } }, token: tokenOf(t, owner!) })).status).toBe(200);
    // The same visitor writes again: a new chat, to their own agent although both have 0 open chats.
    const again = await t.api(`/api/webchat/site-vendas/session`, { method: 'POST', body: { visitorKey: first.session.visitorKey, text: 'Voltei', clientId: 'volta-1' } });
    expect(again.status, again.text).toBe(200);
    await settleRouting(t);
    expect(await agentOf(again.body.data.roomId)).toBe(other);
  });
});

describe('a pass with nobody to take a chat ends before the queue (docs/routing.md "Nobody to take it")', () => {
  it('with every agent offline or at the cap, a new chat does not make the router read and sort the queue; an agent coming online does', async () => {
    await patchDepartment(t, 'vendas', { agents: VENDAS, agentSelectionRule: 'load', roomsPerAgent: 1 });
    let queueReads = 0;
    const onQuery = (q: { sql: string }) => {
      if (q.sql.includes('queued_order')) queueReads++;
    };
    t.server.db.on('query', onQuery);
    try {
      const waiting = [];
      for (let i = 0; i < 3; i++) waiting.push((await customerWrites(t, 'site-vendas', `Olá ${i}`, `Cliente ${i}`)).room);
      expect(waiting.map((r) => r.inAttend)).toEqual([false, false, false]);
      expect(queueReads).toBe(0);

      // Ana comes online: the queue is read and its oldest chat is hers.
      await setStatus(t, 'ana', 'online');
      await settleRouting(t);
      expect(queueReads).toBeGreaterThan(0);
      expect((await roomOf(t, waiting[0]!.id)).agents.map((a) => a.id)).toEqual(['ana']);

      // Ana is at her cap and nobody else is online: the next chat waits without a queue read.
      queueReads = 0;
      const next = await customerWrites(t, 'site-vendas', 'Mais um', 'Cliente 4');
      expect(next.room.inAttend).toBe(false);
      expect(queueReads).toBe(0);
    } finally {
      t.server.db.off('query', onQuery);
    }
  });
});

