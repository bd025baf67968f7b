import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages as texts, type Room } from '@atendimento/schemas';
import { getRoom, socketAs, startChatServer, stopChatServer, subscribe, visitorStarts, type ChatTest } from './chat-helpers';

/**
 * Visibility claims of the chat lists applied by the server (seed 001 §6): showChatsWithTags with
 * tenant claim filterChatsByTags, survey-score filters only for who reads the answers, and the
 * contact list's hideBlockedContacts / hideInactiveContacts (docs/console-operations.md).
 */
let t: ChatTest;
let tagged: string;
const BASE = { publicRegister: true, queues: true };
beforeAll(async () => {
  t = await startChatServer();
  const now = t.server.clock.now();
  const iso = now.toISOString();
  await t.server.db('tags').insert(['vip', 'comum'].map((id) => ({ id, tenant_id: 'acme', name: id.toUpperCase(), active: true, data: JSON.stringify({ name: id.toUpperCase(), active: true, color: '#1976D2FF', department: null }), created_at: iso, updated_at: iso, deleted_at: null })));
  await t.server.repos.users.create('acme', { id: 'acme-tagged', email: 'tagged@acme.test', displayName: 'Agente VIP', passwordHash: null }, now);
  await t.server.db('department_members').insert({ tenant_id: 'acme', department_id: 'vendas', user_id: 'acme-tagged', role: 'agent' });
  tagged = await t.tokenFor('acme', 'acme-tagged');
  // As an admin sets it in the agent's register form.
  const set = await t.api('/api/agents/acme-tagged', { method: 'PATCH', body: { showChatsWithTags: ['vip'] }, token: t.tokens.admin });
  expect(set.status, set.text).toBe(200);
});
afterAll(() => stopChatServer(t));
const getRoomAs = (roomId: string) => getRoom(t, t.tokens.admin, roomId);

const ids = async (tab: string, token: string, filter?: unknown) => {
  const res = await t.api(`/api/rooms?tab=${tab}${filter ? `&filter=${encodeURIComponent(JSON.stringify(filter))}` : ''}`, { token });
  expect(res.status, res.text).toBe(200);
  return (res.body.data as Room[]).map((r) => r.id);
};

describe('chat list claims', () => {
  it('showChatsWithTags narrows the shared lists to chats with those tags, only with filterChatsByTags', async () => {
    await t.patchAppConfig({ claims: BASE });
    const vip = (await visitorStarts(t, 'site-vendas', 'Oi, sou VIP', 'Cliente VIP')).roomId!;
    const comum = (await visitorStarts(t, 'site-vendas', 'Oi', 'Cliente Comum')).roomId!;
    for (const [roomId, tag] of [[vip, 'vip'], [comum, 'comum']] as const) {
      const res = await t.api(`/api/rooms/${roomId}`, { method: 'PATCH', body: { tags: [tag] }, token: t.tokens.admin });
      expect(res.status, res.text).toBe(200);
    }
    // Without the tenant claim the user's tags change nothing.
    expect(await ids('queuesChats', tagged)).toEqual(expect.arrayContaining([vip, comum]));

    await t.patchAppConfig({ claims: { ...BASE, filterChatsByTags: true } });
    const narrowed = await ids('queuesChats', tagged);
    expect(narrowed).toContain(vip);
    expect(narrowed).not.toContain(comum);
    expect((await t.api(`/api/rooms/${comum}`, { token: tagged })).status).toBe(404);
    // Others (no tags set) and admins are not narrowed.
    expect(await ids('queuesChats', t.tokens.agente)).toEqual(expect.arrayContaining([vip, comum]));
    expect(await ids('queuesChats', t.tokens.admin)).toEqual(expect.arrayContaining([vip, comum]));
    // The live list is the same query.
    const s = await socketAs(t, tagged);
    const snap = await subscribe(s, 'fila', 'rooms', { tab: 'queuesChats' });
    expect(snap.records.map((r) => r.id)).toContain(vip);
    expect(snap.records.map((r) => r.id)).not.toContain(comum);
    // A chat the user attends stays in 'Meus' whatever its tags.
    expect((await t.api(`/api/rooms/${comum}/push`, { method: 'PATCH', body: { agents: ['acme-tagged'] }, token: t.tokens.admin })).status).toBe(200);
    expect(await ids('userChats', tagged)).toContain(comum);
  });

  it('filters by NPS/CSAT score only for admins and holders of showNPS/showCSAT', async () => {
    await t.patchAppConfig({ claims: BASE });
    const nps = { field: 'nps.value', op: '>=', value: 9 };
    const denied = await t.api(`/api/rooms?tab=chatsHistories&filter=${encodeURIComponent(JSON.stringify(nps))}`, { token: t.tokens.agente });
    expect(denied.status).toBe(403);
    expect(denied.body.errorMessage).toBe(texts.chatServer.researchFilterDenied);
    const nested = { and: [{ field: 'active', op: '==', value: false }, { or: [{ field: 'csat.value', op: '<=', value: 2 }] }] };
    expect((await t.api(`/api/rooms?tab=chatsHistories&filter=${encodeURIComponent(JSON.stringify(nested))}`, { token: t.tokens.supervisor })).status).toBe(403);
    await ids('chatsHistories', t.tokens.admin, nps);
    // The search's NPS range too.
    const search = await t.api('/api/mongodb/search', { method: 'POST', body: { tab: 'chatsHistories', nps: [9, 10] }, token: t.tokens.agente });
    expect(search.status).toBe(403);
    expect(search.body.errorMessage).toBe(texts.chatServer.researchFilterDenied);
    expect((await t.api('/api/mongodb/search', { method: 'POST', body: { tab: 'chatsHistories', nps: [9, 10] }, token: t.tokens.admin })).status).toBe(200);
  });

  it('hideBlockedContacts and hideInactiveContacts keep those contacts out of a non-admin contact list', async () => {
    await t.patchAppConfig({ claims: BASE });
    const make = async (body: Record<string, unknown>) => {
      const res = await t.api('/api/contacts', { method: 'POST', body: { channels: ['whatsapp'], agents: ['acme-agente'], ...body }, token: t.tokens.admin });
      expect(res.status, res.text).toBe(201);
      return res.body.id ?? res.body.data?.id;
    };
    const blocked = await make({ displayName: 'Bloqueado', phone: '5511911110001', blockedSending: true });
    const inactive = await make({ displayName: 'Inativo', phone: '5511911110002', active: false });
    const normal = await make({ displayName: 'Normal', phone: '5511911110003' });
    const listed = async (token: string) => {
      const s = await socketAs(t, token);
      const snap = await subscribe(s, `c-${Math.random()}`, 'contacts', { limit: 100 });
      expect(snap.type).toBe('snapshot');
      return snap.records.map((r) => r.id);
    };
    expect(await listed(t.tokens.agente)).toEqual(expect.arrayContaining([blocked, inactive, normal]));
    await t.patchAppConfig({ claims: { ...BASE, hideBlockedContacts: true } });
    const noBlocked = await listed(t.tokens.agente);
    expect(noBlocked).toEqual(expect.arrayContaining([inactive, normal]));
    expect(noBlocked).not.toContain(blocked);
    await t.patchAppConfig({ claims: { ...BASE, hideBlockedContacts: true, hideInactiveContacts: true } });
    const onlyNormal = await listed(t.tokens.agente);
    expect(onlyNormal).toContain(normal);
    expect(onlyNormal).not.toContain(blocked);
    expect(onlyNormal).not.toContain(inactive);
    expect(await listed(t.tokens.admin)).toEqual(expect.arrayContaining([blocked, inactive, normal]));
  });

  it("'Hitorico dos meus clientes': a salesman (vendHistory + ERP user id) reads the closed chats of the contacts whose salesman they are, whoever attended them", async () => {
    await t.patchAppConfig({ claims: BASE });
    const now = t.server.clock.now();
    await t.server.repos.users.create('acme', { id: 'acme-vendedor', email: 'vendedor@acme.test', displayName: 'Vendedor', passwordHash: null }, now);
    const salesman = await t.tokenFor('acme', 'acme-vendedor');
    // Two visitors become contacts; one of them is the salesman's client ('Vendedor (ERP)'), the other a 'Representante' list away.
    const closedChat = async (name: string) => {
      const roomId = (await visitorStarts(t, 'site-vendas', 'Oi', name)).roomId!;
      const room = await getRoomAs(roomId);
      expect((await t.api(`/api/rooms/${roomId}/push`, { method: 'PATCH', body: { agents: ['acme-agente'] }, token: t.tokens.admin })).status).toBe(200);
      const closed = await t.api(`/api/rooms/${roomId}/close`, { method: 'PATCH', body: { closedBy: { justify: 'Resolvido' } }, token: t.tokens.agente });
      expect(closed.status, closed.text).toBe(200);
      return { roomId, contactId: room.author!.id };
    };
    const byVendId = await closedChat('Cliente do Vendedor');
    const bySalesmen = await closedChat('Cliente Representado');
    const other = await closedChat('Cliente de Outro');
    for (const [contactId, body] of [[byVendId.contactId, { vendId: 'V001' }], [bySalesmen.contactId, { salesmen: ['V002', 'V001'] }], [other.contactId, { vendId: 'V999' }]] as const) {
      const res = await t.api(`/api/contacts/${contactId}`, { method: 'PATCH', body, token: t.tokens.admin });
      expect(res.status, res.text).toBe(200);
    }
    const clients = `/api/rooms?tab=chatsHistories&history=clients`;
    // Without the claim (or without an ERP user id) there is no such view.
    expect((await t.api(clients, { token: salesman })).status).toBe(403);
    const set = await t.api('/api/agents/acme-vendedor', { method: 'PATCH', body: { claims: { vendHistory: true }, erpUserId: 'V001' }, token: t.tokens.admin });
    expect(set.status, set.text).toBe(200);
    const res = await t.api(clients, { token: salesman });
    expect(res.status, res.text).toBe(200);
    const seen = (res.body.data as Room[]).map((r) => r.id);
    expect(seen).toEqual(expect.arrayContaining([byVendId.roomId, bySalesmen.roomId]));
    expect(seen).not.toContain(other.roomId);
    // 'Meu Histórico' stays the user's own history; the client's chat opens; another's does not.
    expect(await ids('chatsHistories', salesman)).not.toContain(byVendId.roomId);
    expect((await t.api(`/api/rooms/${byVendId.roomId}`, { token: salesman })).status).toBe(200);
    expect((await t.api(`/api/rooms/${other.roomId}`, { token: salesman })).status).toBe(404);
    // The live list is the same query; an unknown view is refused in Portuguese.
    const s = await socketAs(t, salesman);
    const snap = await subscribe(s, 'clientes', 'rooms', { tab: 'chatsHistories', history: 'clients' });
    expect(snap.records.map((r) => r.id)).toEqual(expect.arrayContaining([byVendId.roomId, bySalesmen.roomId]));
    expect(snap.records.map((r) => r.id)).not.toContain(other.roomId);
    const bad = await t.api('/api/rooms?tab=queuesChats&history=clients', { token: salesman });
    expect(bad.status).toBe(400);
    expect(bad.body.errorMessage).toBe(texts.validation.invalidValue);
  });

  it('enableAllContacts: without it an agent (no contacts screen) lists only the contacts naming them; with it, all', async () => {
    await t.patchAppConfig({ claims: BASE });
    const make = async (displayName: string, phone: string, agents: string[]) => {
      const res = await t.api('/api/contacts', { method: 'POST', body: { displayName, phone, channels: ['whatsapp'], agents }, token: t.tokens.admin });
      expect(res.status, res.text).toBe(201);
      return res.body.id ?? res.body.data?.id;
    };
    const mine = await make('Contato da Agente', '5511922220001', ['acme-agente']);
    const others = await make('Contato de Outro', '5511922220002', ['acme-suporte']);
    const listed = async () => {
      const s = await socketAs(t, t.tokens.agente);
      const snap = await subscribe(s, `all-${Math.random()}`, 'contacts', { limit: 500 });
      expect(snap.type).toBe('snapshot');
      return snap.records.map((r) => r.id);
    };
    const narrow = await listed();
    expect(narrow).toContain(mine);
    expect(narrow).not.toContain(others);
    const set = await t.api('/api/agents/acme-agente', { method: 'PATCH', body: { claims: { enableAllContacts: true } }, token: t.tokens.admin });
    expect(set.status, set.text).toBe(200);
    expect(await listed()).toEqual(expect.arrayContaining([mine, others]));
    expect((await t.api('/api/agents/acme-agente', { method: 'PATCH', body: { claims: {} }, token: t.tokens.admin })).status).toBe(200);
  });

  it('the search narrows by agents and by departments inside the caller\'s visibility', async () => {
    await t.patchAppConfig({ claims: BASE });
    const closed = async (channel: string, agentToken: string, name: string) => {
      const roomId = (await visitorStarts(t, channel, 'Olá', name)).roomId!;
      expect((await t.api(`/api/rooms/${roomId}/push`, { method: 'PATCH', body: {}, token: agentToken })).status).toBe(200);
      const res = await t.api(`/api/rooms/${roomId}/close`, { method: 'PATCH', body: { closedBy: { justify: 'Resolvido' } }, token: agentToken });
      expect(res.status, res.text).toBe(200);
      return roomId;
    };
    const vendas = await closed('site-vendas', t.tokens.agente, 'Busca Vendas');
    const suporte = await closed('site-suporte', t.tokens.suporte, 'Busca Suporte');
    const search = async (body: Record<string, unknown>) => {
      const res = await t.api('/api/mongodb/search', { method: 'POST', body: { tab: 'chatsHistories', ...body }, token: t.tokens.admin });
      expect(res.status, res.text).toBe(200);
      return res.body.data as string[];
    };
    const byAgent = await search({ agents: ['acme-agente'] });
    expect(byAgent).toContain(vendas);
    expect(byAgent).not.toContain(suporte);
    const byDepartment = await search({ departments: ['suporte'] });
    expect(byDepartment).toContain(suporte);
    expect(byDepartment).not.toContain(vendas);
    // The agent of vendas searching suporte's department finds nothing they may not see.
    const res = await t.api('/api/mongodb/search', { method: 'POST', body: { tab: 'chatsHistories', departments: ['suporte'] }, token: t.tokens.agente });
    expect(res.status).toBe(200);
    expect(res.body.data as string[]).not.toContain(suporte);
  });
});
