import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { messages as texts, type Message, type Room } from '@atendimento/schemas';
import { createTransferRepository } from '@atendimento/server/db/repositories/transfer-repository';
import { push, received, socketAs, subscribe, visitorStarts, waitForRecord, settle } from './chat-helpers';
import { patchDepartment, setStatus, settleRouting, startRoutingServer, stopRoutingServer, type RoutingTest } from '../routing/routing-helpers';

/**
 * Transfers (docs/transfers.md): to agents and to queues, the dialog's rules on the server,
 * the record the dashboard reads, live for both agents, and a transfer racing a close.
 */
let t: RoutingTest;
beforeAll(async () => {
  t = await startRoutingServer();
});
afterAll(() => stopRoutingServer(t));

const DEFAULTS = { transferJustify: [] as string[], claims: { publicRegister: true, allowFollowMe: true, queues: true } };

beforeEach(async () => {
  await t.patchAppConfig(DEFAULTS);
  t.clock.advance(1_000);
  for (const id of ['acme-agente', 'acme-suporte', 'acme-supervisor']) await setStatus(t, id, 'online');
});

/** A web-chat room of vendas taken by agente@. */
async function vendasRoomOfAgente(): Promise<string> {
  const visitor = await visitorStarts(t, 'site-vendas', 'Quero um orçamento');
  await push(t, t.tokens.agente, visitor.roomId!);
  return visitor.roomId!;
}

/** The manual clock stands still: a status chosen later must carry a later time. */
async function goesOffline(userId: string): Promise<void> {
  t.clock.advance(1_000);
  await setStatus(t, userId, 'offline');
}

const transfer = (roomId: string, body: unknown, token = t.tokens.agente) => t.api(`/api/rooms/${roomId}/transfer`, { method: 'PATCH', body, token });
const moveQueues = (roomId: string, body: unknown, token = t.tokens.agente) => t.api(`/api/rooms/${roomId}/queues`, { method: 'PATCH', body, token });
const records = (roomId: string) => createTransferRepository(t.server.db).ofRoom(t.server.db, 'acme', roomId);

async function notes(roomId: string, token = t.tokens.admin): Promise<Message[]> {
  const res = await t.api(`/api/rooms/${roomId}/messages?limit=50`, { token });
  expect(res.status, res.text).toBe(200);
  return (res.body.data as Message[]).filter((m) => m.annotation && m.author.type === 'system');
}

describe('transfer to agents', () => {
  it('moves the chat live from agente to suporte, leaves a note and a record', async () => {
    const roomId = await vendasRoomOfAgente();
    const a = await socketAs(t, t.tokens.agente);
    const b = await socketAs(t, t.tokens.suporte);
    await subscribe(a, 'mine-a', 'rooms', { tab: 'userChats' });
    await subscribe(b, 'mine-b', 'rooms', { tab: 'userChats' });
    expect(received(b, 'mine-b').has(roomId)).toBe(false);

    const res = await transfer(roomId, { agents: ['acme-suporte'], remainInChat: false, transferJustify: { obs: 'cliente de suporte' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.meta.message).toBe(texts.chat.transferDone);
    const room = res.body.data as Room;
    expect(room.agents.map((x) => x.id)).toEqual(['acme-suporte']);
    expect(room.agentsHistory.map((x) => x.id)).toEqual(['acme-agente', 'acme-suporte']);
    expect(room.transferAgent).toMatchObject({ transferTo: ['acme-suporte'], transferFrom: 'acme-agente', transferObs: 'cliente de suporte' });

    await waitForRecord<Room>(b, 'mine-b', (r) => r.id === roomId, 'the room arriving in suporte Meus');
    await settle(t);
    const gone = a.frames.some((f) => f.type === 'changes' && f.id === 'mine-a' && f.removed.includes(roomId));
    expect(gone).toBe(true);

    const [record] = await records(roomId);
    expect(record).toMatchObject({ fromUserId: 'acme-agente', toUserId: 'acme-suporte', fromDepartmentId: 'vendas', toDepartmentId: 'vendas', observation: 'cliente de suporte', createdBy: 'acme-agente' });
    const [note] = await notes(roomId);
    expect(note!.text).toContain('Suporte Acme');
    expect(note!.text).toContain('cliente de suporte');
  });

  it('keeps the caller in the chat by default (remainInChat unset = true) and honours the tenant claim', async () => {
    const roomId = await vendasRoomOfAgente();
    const stay = await transfer(roomId, { agents: ['acme-suporte'] });
    expect(stay.status, stay.text).toBe(200);
    expect(stay.body.data.agents.map((x: { id: string }) => x.id).sort()).toEqual(['acme-agente', 'acme-suporte']);

    await t.patchAppConfig({ claims: { ...DEFAULTS.claims, remainInChat: false } });
    const other = await vendasRoomOfAgente();
    const leave = await transfer(other, { agents: ['acme-suporte'] });
    expect(leave.status, leave.text).toBe(200);
    expect(leave.body.data.agents.map((x: { id: string }) => x.id)).toEqual(['acme-suporte']);
  });

  it("answers the dialog's pt-BR messages: no agent, no justification, offline, self, inactive", async () => {
    const roomId = await vendasRoomOfAgente();
    const none = await transfer(roomId, { agents: [] });
    expect(none.status).toBe(400);
    expect(none.body.errorMessage).toBe(texts.chat.chooseAgents);

    await t.patchAppConfig({ transferJustify: ['Fora do escopo', 'Cliente pediu'] });
    const noJustify = await transfer(roomId, { agents: ['acme-suporte'] });
    expect(noJustify.status).toBe(400);
    expect(noJustify.body.errorMessage).toBe(texts.chat.chooseTransferJustify);
    const unknown = await transfer(roomId, { agents: ['acme-suporte'], transferJustify: { justify: 'Outra' } });
    expect(unknown.body.errorMessage).toBe(texts.chat.chooseTransferJustify);
    const queueNoJustify = await moveQueues(roomId, { queues: ['deptosuporte'] });
    expect(queueNoJustify.body.errorMessage).toBe(texts.chat.chooseTransferJustify);

    const justified = { transferJustify: { justify: 'Fora do escopo' } };
    expect((await transfer(roomId, { agents: ['acme-agente'], ...justified })).body.errorMessage).toBe(texts.transfer.notSelf);
    // A chat that does not exist (or the caller cannot see) is 404 first, whatever the body.
    expect((await transfer('sala-inexistente', { agents: ['acme-agente'], ...justified })).status).toBe(404);
    expect((await transfer(roomId, { agents: ['acme-inativo'], ...justified })).body.errorMessage).toBe(texts.chatServer.agentNotFound);
    expect((await transfer(roomId, { agents: ['outra-admin'], ...justified })).body.errorMessage).toBe(texts.chatServer.agentNotFound);

    await goesOffline('acme-suporte');
    const offline = await transfer(roomId, { agents: ['acme-suporte'], ...justified });
    expect(offline.status).toBe(400);
    expect(offline.body.errorMessage).toBe('O agente Suporte Acme está offline: escolha um agente online.');
    const targets = await t.api(`/api/rooms/${roomId}/transferTargets`, { token: t.tokens.agente });
    const listed = targets.body.data.agents.find((x: { id: string }) => x.id === 'acme-suporte');
    expect(listed).toMatchObject({ online: false, selectable: false });
    expect(targets.body.data.agents.some((x: { id: string }) => x.id === 'acme-agente' || x.id === 'acme-inativo')).toBe(false);

    await t.patchAppConfig({ claims: { ...DEFAULTS.claims, enableAbsentTransfer: true } });
    const absent = await transfer(roomId, { agents: ['acme-suporte'], ...justified });
    expect(absent.status, absent.text).toBe(200);
    const [record] = await records(roomId);
    expect(record!.justification).toBe('Fora do escopo');
  });

  it('refuses bad bodies with 400, never 500', async () => {
    const roomId = await vendasRoomOfAgente();
    for (const body of [{}, { agents: 'acme-suporte' }, { agents: [1] }, { agents: ['acme-suporte'], extra: true }, { agents: ['acme-suporte'], transferJustify: { justify: 'x'.repeat(500) } }]) {
      const res = await transfer(roomId, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errorMessage).toBeTruthy();
    }
    const bad = await moveQueues(roomId, { queues: ['nao-existe'] });
    expect(bad.status).toBe(400);
    expect(bad.body.errorMessage).toBe(texts.transfer.queueNotFound);
  });

  it('who may transfer: the attending agent, a supervisor of the department, an admin; nobody else', async () => {
    const roomId = await vendasRoomOfAgente();
    const body = { agents: ['acme-supervisor'], remainInChat: true };
    // suporte@ does not see a vendas chat attended by someone else.
    expect((await transfer(roomId, body, t.tokens.suporte)).status).toBe(404);
    expect((await t.api(`/api/rooms/${roomId}/transferTargets`, { token: t.tokens.suporte })).status).toBe(404);
    // Another tenant's admin and a visitor-less stranger: not found.
    const outra = await t.api(`/api/rooms/${roomId}/transfer`, { method: 'PATCH', body, token: await t.tokenFor('outra', 'outra-admin'), host: t.hosts.outra });
    expect(outra.status).toBe(404);
    const signup = await t.api('/api/users', { method: 'POST', body: { displayName: 'Estranho', email: `estranho-${Date.now()}@acme.test`, password: 'segredo1', confirmPassword: 'segredo1' } });
    expect(signup.status, signup.text).toBe(201);
    expect((await transfer(roomId, body, signup.body.data.accessToken)).status).toBe(404);
    expect((await t.api(`/api/rooms/${roomId}/transfer`, { method: 'PATCH', body })).status).toBe(401);
    // The supervisor of vendas and the admin may.
    expect((await transfer(roomId, { agents: ['acme-suporte'] }, t.tokens.supervisor)).status).toBe(200);
    expect((await transfer(roomId, { agents: ['acme-supervisor'] }, t.tokens.admin)).status).toBe(200);
  });

  it('disableChooseTransfer / disableChooseQueue bind agents, not admins', async () => {
    await t.patchAppConfig({ claims: { ...DEFAULTS.claims, disableChooseTransfer: true, disableChooseQueue: true } });
    const roomId = await vendasRoomOfAgente();
    const agents = await transfer(roomId, { agents: ['acme-suporte'] });
    expect(agents.status).toBe(403);
    expect(agents.body.errorMessage).toBe(texts.transfer.transferDisabled);
    const queues = await moveQueues(roomId, { queues: ['deptosuporte'] });
    expect(queues.status).toBe(403);
    expect(queues.body.errorMessage).toBe(texts.transfer.queuesDisabled);
    const targets = await t.api(`/api/rooms/${roomId}/transferTargets`, { token: t.tokens.agente });
    expect(targets.body.data).toMatchObject({ canTransfer: false, canMoveQueues: false });
    expect((await transfer(roomId, { agents: ['acme-suporte'] }, t.tokens.admin)).status).toBe(200);
  });
});

describe('move to queues', () => {
  it('empties the agents, queues the chat in suporte and routing gives it to the online agent', async () => {
    await patchDepartment(t, 'suporte', { agentSelectionRule: 'load' });
    const roomId = await vendasRoomOfAgente();
    const b = await socketAs(t, t.tokens.suporte);
    await subscribe(b, 'mine-q', 'rooms', { tab: 'userChats' });
    const res = await moveQueues(roomId, { queues: ['deptosuporte'], transferJustify: { obs: 'é suporte' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.meta.message).toBe(texts.chat.queuesUpdated);
    expect(res.body.data).toMatchObject({ agents: [], inAttend: false, departmentId: 'suporte', queues: [{ id: 'deptosuporte' }] });
    await settleRouting(t);
    const arrived = await waitForRecord<Room>(b, 'mine-q', (r) => r.id === roomId, 'routing giving the moved chat to suporte');
    expect(arrived.agents.map((x) => x.id)).toEqual(['acme-suporte']);
    const [record] = await records(roomId);
    expect(record).toMatchObject({ fromUserId: 'acme-agente', toUserId: null, fromDepartmentId: 'vendas', toDepartmentId: 'suporte', observation: 'é suporte' });
    expect((await notes(roomId)).some((n) => n.text?.includes('fila Suporte'))).toBe(true);
    await patchDepartment(t, 'suporte', { agentSelectionRule: 'wait' });
  });

  it('a queue with nobody online is refused unless allowOfflineTransfer; the listing marks it', async () => {
    const roomId = await vendasRoomOfAgente();
    await goesOffline('acme-suporte');
    const refused = await moveQueues(roomId, { queues: ['deptosuporte'] });
    expect(refused.status).toBe(400);
    expect(refused.body.errorMessage).toBe('A fila Suporte não tem agentes online.');
    const targets = await t.api(`/api/rooms/${roomId}/transferTargets`, { token: t.tokens.agente });
    expect(targets.body.data.queues.find((q: { id: string }) => q.id === 'deptosuporte')).toMatchObject({ onlineAgents: 0, selectable: false });
    await t.patchAppConfig({ claims: { ...DEFAULTS.claims, allowOfflineTransfer: true } });
    const moved = await moveQueues(roomId, { queues: ['deptosuporte'] });
    expect(moved.status, moved.text).toBe(200);
    // Waiting in suporte's Fila: suporte sees it there.
    const fila = await t.api(`/api/rooms?tab=queuesChats`, { token: t.tokens.suporte });
    expect(fila.body.data.map((r: Room) => r.id)).toContain(roomId);
  });
});

describe('a transfer racing a close', () => {
  it('ends in one consistent state whoever wins', async () => {
    for (let i = 0; i < 4; i++) {
      const roomId = await vendasRoomOfAgente();
      const [moved, closed] = await Promise.all([
        moveQueues(roomId, { queues: ['deptosuporte'] }),
        t.api(`/api/rooms/${roomId}/close`, { method: 'PATCH', body: { closedBy: { justify: 'Resolvido' } }, token: t.tokens.agente }),
      ]);
      const room = (await t.api(`/api/rooms/${roomId}`, { token: t.tokens.admin })).body.data as Room;
      const rows = await records(roomId);
      expect([moved.status, closed.status].filter((s) => s === 200), `${moved.text} ${closed.text}`).toHaveLength(1);
      if (closed.status === 200) {
        expect(moved.status, moved.text).toBe(409);
        expect(room).toMatchObject({ active: false, agents: [], departmentId: 'vendas' });
        expect(rows).toHaveLength(0);
      } else {
        expect([403, 404]).toContain(closed.status);
        expect(room).toMatchObject({ active: true, agents: [], departmentId: 'suporte' });
        expect(rows).toHaveLength(1);
      }
    }
  });
});
