import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages as texts } from '@atendimento/schemas';
import { push, startChatServer, stopChatServer, visitorStarts, type ChatTest } from './chat-helpers';

/** The tags dialog's rules on the server (seed 001 §5 "Tags") and tagWhenClose on every close path (§4 "Closing"). */
let t: ChatTest;
const CLAIMS = { publicRegister: true, allowFollowMe: true, queues: true };

beforeAll(async () => {
  t = await startChatServer();
  const iso = t.server.clock.now().toISOString();
  const tag = (id: string, name: string, department: string | null) => ({ id, tenant_id: 'acme', name, active: true, data: JSON.stringify({ name, active: true, color: '#1976D2FF', department }), created_at: iso, updated_at: iso, deleted_at: null });
  await t.server.db('tags').insert([tag('urgente', 'Urgente', null), tag('venda', 'Venda', 'vendas'), tag('garantia', 'Garantia', 'suporte')]);
});
afterAll(() => stopChatServer(t));

async function roomOf(channel: 'site-vendas' | 'site-suporte', token: string): Promise<string> {
  const visitor = await visitorStarts(t, channel, 'Olá');
  await push(t, token, visitor.roomId!);
  return visitor.roomId!;
}
const setTags = (roomId: string, tags: string[], token = t.tokens.agente) => t.api(`/api/rooms/${roomId}`, { method: 'PATCH', body: { tags }, token });
const close = (roomId: string, path: 'close' | 'closeNoMessage', body: Record<string, unknown> = {}, token = t.tokens.agente) =>
  t.api(`/api/rooms/${roomId}/${path}`, { method: 'PATCH', body: { closedBy: { justify: 'Resolvido' }, ...body }, token });

describe('tags', () => {
  it("saves the chosen tag ('Tags alteradas!'), one unless multiTags, only known ones", async () => {
    await t.patchAppConfig({ claims: CLAIMS });
    const roomId = await roomOf('site-vendas', t.tokens.agente);
    const saved = await setTags(roomId, ['urgente']);
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.meta.message).toBe(texts.chat.tagsChanged);
    expect(saved.body.data).toMatchObject({ tags: ['urgente'], tagsNames: ['Urgente'] });
    expect((await setTags(roomId, ['urgente', 'venda'])).status).toBe(400);
    expect((await setTags(roomId, ['nao-existe'])).status).toBe(400);
    await t.patchAppConfig({ claims: { ...CLAIMS, multiTags: true } });
    const two = await setTags(roomId, ['urgente', 'venda']);
    expect(two.body.data.tagsNames).toEqual(['Urgente', 'Venda']);
  });

  it("with tagsPerDepto refuses another department's tag, accepts its own and global ones", async () => {
    await t.patchAppConfig({ claims: { ...CLAIMS, tagsPerDepto: true } });
    const roomId = await roomOf('site-vendas', t.tokens.agente);
    const other = await setTags(roomId, ['garantia']);
    expect(other.status).toBe(400);
    expect(other.body.fields).toEqual([{ field: 'tags', message: texts.chatServer.tagOtherDepartment }]);
    expect((await setTags(roomId, ['venda'])).status).toBe(200);
    expect((await setTags(roomId, ['urgente'])).status).toBe(200);
  });
});

describe('tagWhenClose', () => {
  it('binds close, close without notice and mass close; a tag sent with the close satisfies it', async () => {
    await t.patchAppConfig({ claims: { ...CLAIMS, tagWhenClose: true } });
    const roomId = await roomOf('site-vendas', t.tokens.agente);
    for (const path of ['close', 'closeNoMessage'] as const) {
      const refused = await close(roomId, path);
      expect(refused.status, path).toBe(400);
      expect(refused.body.errorMessage).toBe(texts.chatServer.tagRequired);
    }
    const mass = await t.api('/api/rooms/massClose', { method: 'POST', body: { chatIds: [roomId] }, token: t.tokens.agente });
    expect(mass.status, mass.text).toBe(200);
    expect(mass.body.data).toEqual({ closed: [], skipped: [{ id: roomId, errorMessage: texts.chatServer.tagRequired }] });
    const withTag = await close(roomId, 'close', { tags: ['urgente'] });
    expect(withTag.status, withTag.text).toBe(200);
    expect(withTag.body.data).toMatchObject({ active: false, tags: ['urgente'] });
  });

  it('a tag set earlier through the dialog satisfies it; an admin may override', async () => {
    await t.patchAppConfig({ claims: { ...CLAIMS, tagWhenClose: true } });
    const tagged = await roomOf('site-vendas', t.tokens.agente);
    await setTags(tagged, ['venda']);
    expect((await close(tagged, 'close')).status).toBe(200);
    const admin = await roomOf('site-vendas', t.tokens.admin);
    expect((await close(admin, 'close', {}, t.tokens.admin)).status).toBe(200);
  });

  it("per department: the department's claim binds only its chats", async () => {
    await t.patchAppConfig({ claims: CLAIMS });
    const suporte = await t.server.db('departments').where({ tenant_id: 'acme', id: 'suporte' }).first('data');
    const data = typeof suporte.data === 'string' ? JSON.parse(suporte.data) : suporte.data;
    await t.server.db('departments').where({ tenant_id: 'acme', id: 'suporte' }).update({ data: JSON.stringify({ ...data, claims: { ...(data.claims ?? {}), tagWhenClose: true } }) });
    const suporteRoom = await roomOf('site-suporte', t.tokens.suporte);
    const refused = await close(suporteRoom, 'close', {}, t.tokens.suporte);
    expect(refused.status).toBe(400);
    expect(refused.body.errorMessage).toBe(texts.chatServer.tagRequired);
    const vendasRoom = await roomOf('site-vendas', t.tokens.agente);
    expect((await close(vendasRoom, 'close')).status).toBe(200);
  });
});
