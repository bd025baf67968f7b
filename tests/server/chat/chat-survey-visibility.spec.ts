import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Room } from '@atendimento/schemas';
import { startRoutingServer, stopRoutingServer, type RoutingTest } from '../routing/routing-helpers';
import { push, socketAs, subscribe, visitorStarts, visitorWrites, waitForRecord } from './chat-helpers';

/**
 * Survey answers (a room's nps / csat) leave the server only for admins and holders of showNPS /
 * showCSAT (schemas maySeeResearch), over REST and the realtime hub (docs/console-operations.md).
 */
let t: RoutingTest;
beforeAll(async () => {
  t = await startRoutingServer();
  await t.patchAppConfig({ claims: { publicRegister: true, queues: true, askResearch: true } });
});
afterAll(() => stopRoutingServer(t));

describe('who receives survey answers', () => {
  it('admins and showNPS holders get nps; a plain agent never does, in lists, the room, search or live', async () => {
    const visitor = await visitorStarts(t, 'site-vendas', 'Oi');
    const roomId = visitor.roomId!;
    await push(t, t.tokens.agente, roomId);
    const asked = await t.api(`/api/rooms/${roomId}/askresearch`, { method: 'PATCH', body: { closedBy: { justify: 'Resolvido' }, researchMethod: 'nps' }, token: t.tokens.agente });
    expect(asked.status, asked.text).toBe(200);

    // Subscribed before the answer: the change reaches each socket cut for its user.
    const agentSocket = await socketAs(t, t.tokens.agente);
    const adminSocket = await socketAs(t, t.tokens.admin);
    await subscribe(agentSocket, 'room', 'rooms', { roomId });
    await subscribe(adminSocket, 'room', 'rooms', { roomId });
    await subscribe(agentSocket, 'history', 'rooms', { tab: 'chatsHistories' });

    expect((await visitorWrites(t, visitor, '9 - ótimo')).status).toBe(201);

    const adminLive = await waitForRecord<Room>(adminSocket, 'room', (r) => r.research === null, 'admin live answered room');
    expect(adminLive.nps).toMatchObject({ value: 9, reason: 'ótimo' });
    const agentLive = await waitForRecord<Room>(agentSocket, 'room', (r) => r.research === null, 'agent live answered room');
    expect(agentLive).not.toHaveProperty('nps');
    expect(agentLive).not.toHaveProperty('csat');
    const agentHistory = await waitForRecord<Room>(agentSocket, 'history', (r) => r.id === roomId && r.research === null, 'agent history row');
    expect(agentHistory).not.toHaveProperty('nps');

    const admin = (await t.api(`/api/rooms/${roomId}`, { token: t.tokens.admin })).body.data as Room;
    expect(admin.nps).toMatchObject({ value: 9 });

    const one = (await t.api(`/api/rooms/${roomId}`, { token: t.tokens.agente })).body.data as Room;
    expect(one.id).toBe(roomId);
    expect(one).not.toHaveProperty('nps');
    const list = (await t.api('/api/rooms?tab=chatsHistories', { token: t.tokens.agente })).body.data as Room[];
    const row = list.find((r) => r.id === roomId);
    expect(row).toBeTruthy();
    expect(row).not.toHaveProperty('nps');
    const byChat = (await t.api(`/api/rooms/chatid/${encodeURIComponent(admin.chatId)}`, { token: t.tokens.agente })).body.data as Room[];
    expect(byChat.length).toBeGreaterThan(0);
    for (const r of byChat) expect(r).not.toHaveProperty('nps');

    // showNPS (not showCSAT): nps yes, csat no.
    await t.server.repos.users.create('acme', { id: 'acme-nps', email: 'nps@acme.test', displayName: 'Supervisora NPS', passwordHash: null, claims: { showNPS: true } }, t.server.clock.now());
    await t.server.db('department_members').insert({ tenant_id: 'acme', department_id: 'vendas', user_id: 'acme-nps', role: 'supervisor' });
    const npsToken = await t.tokenFor('acme', 'acme-nps');
    const supervisor = await t.api(`/api/rooms/${roomId}`, { token: npsToken });
    expect(supervisor.status, supervisor.text).toBe(200);
    expect(supervisor.body.data.nps).toMatchObject({ value: 9 });
    expect(supervisor.body.data).not.toHaveProperty('csat');
    const npsSocket = await socketAs(t, npsToken);
    const snap = await subscribe(npsSocket, 'room', 'rooms', { roomId });
    expect(snap.records[0]).toMatchObject({ id: roomId, nps: { value: 9 } });
    expect(snap.records[0]).not.toHaveProperty('csat');
  });
});
