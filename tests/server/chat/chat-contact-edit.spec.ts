import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages as texts, type Room } from '@atendimento/schemas';
import { startChatServer, stopChatServer, type ChatTest } from './chat-helpers';

/**
 * 'Editar Contato' (seed 001 §2, docs/console-operations.md): the contact of a chat the caller
 * sees, through the contacts register (same schema), phone locked while a room is active,
 * Ativo/blocks admin-only, a blocked contact edited by admins only; each kind of user tried.
 */
let t: ChatTest;
let counter = 0;
beforeAll(async () => {
  t = await startChatServer();
  await t.patchAppConfig({ claims: { publicRegister: true, allowFollowMe: true, queues: true } });
});
afterAll(() => stopChatServer(t));

/** A new contact with a phone and its open room, attended by the vendas agent. */
async function contactRoom(): Promise<Room> {
  counter += 1;
  const res = await t.api('/api/rooms', { method: 'POST', body: { contact: { displayName: `Cliente ${counter}`, phone: `55119876500${String(counter).padStart(2, '0')}` } }, token: t.tokens.agente });
  expect(res.status, res.text).toBe(201);
  return res.body.data as Room;
}

const edit = (roomId: string, body: unknown, token: string, host?: string) => t.api(`/api/rooms/${roomId}/contact`, { method: 'PATCH', body, token, host });
const read = (roomId: string, token: string) => t.api(`/api/rooms/${roomId}/contact`, { token });

describe('Editar Contato', () => {
  it('lets whoever attends the chat edit the contact, with the register schema and its messages', async () => {
    const room = await contactRoom();
    const got = await read(room.id, t.tokens.agente);
    expect(got.status, got.text).toBe(200);
    expect(got.body.data).toMatchObject({ id: room.author.id, displayName: `Cliente ${counter}`, phoneLocked: true });

    const ok = await edit(room.id, { displayName: 'Roberta Souza', name: 'Roberta de Souza Lima', email: 'ROBERTA@Exemplo.com.br' }, t.tokens.agente);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.meta.message).toBe(texts.contact.updated);
    expect(ok.body.data).toMatchObject({ displayName: 'Roberta Souza', name: 'Roberta de Souza Lima', email: 'roberta@exemplo.com.br' });

    const bad = await edit(room.id, { email: 'roberta@', displayName: '' }, t.tokens.agente);
    expect(bad.status).toBe(400);
    const fields = Object.fromEntries((bad.body.fields as { field: string; message: string }[]).map((e) => [e.field, e.message]));
    expect(fields).toMatchObject({ email: 'Informe um e-mail válido', displayName: 'Informe o nome de exibição' });
    expect((await read(room.id, t.tokens.agente)).body.data.displayName).toBe('Roberta Souza');
    // The open chat shows the edit too, after a reload (cards, header and drawer read the room's copy).
    const reloaded = await t.api(`/api/rooms/${room.id}`, { token: t.tokens.agente });
    expect(reloaded.body.data.author).toMatchObject({ id: room.author.id, displayName: 'Roberta Souza', email: 'roberta@exemplo.com.br' });
    const search = await t.api('/api/mongodb/search', { method: 'POST', body: { text: 'Roberta' }, token: t.tokens.agente });
    expect(JSON.stringify(search.body)).toContain(room.id);
  });

  it('locks the phone while the contact has an active room, for every user, and frees it after the close', async () => {
    await t.patchAppConfig({ closeJustify: { justifies: ['Resolvido'], obsRules: [], reportOnly: false, nextMaxDate: 5000 } });
    const room = await contactRoom();
    for (const token of [t.tokens.agente, t.tokens.admin]) {
      const res = await edit(room.id, { phone: '5511912345678' }, token);
      expect(res.status).toBe(400);
      expect(res.body.fields).toEqual([{ field: 'phone', message: texts.registers.phoneLocked }]);
    }
    // The same phone is not a change.
    expect((await edit(room.id, { phone: room.author.phone, displayName: 'Sem troca' }, t.tokens.agente)).status).toBe(200);
    const closed = await t.api(`/api/rooms/${room.id}/close`, { method: 'PATCH', body: { closedBy: { justify: 'Resolvido' } }, token: t.tokens.agente });
    expect(closed.status, closed.text).toBe(200);
    const freed = await edit(room.id, { phone: '5511912345678' }, t.tokens.admin);
    expect(freed.status, freed.text).toBe(200);
    expect(freed.body.data).toMatchObject({ phone: '5511912345678', phoneLocked: false });
  });

  it('keeps Ativo and the block switches for admins', async () => {
    const room = await contactRoom();
    for (const body of [{ active: false }, { blockedSending: true }, { blockedReceiving: true }]) {
      const res = await edit(room.id, body, t.tokens.agente);
      expect(res.status).toBe(403);
      expect(res.body.errorMessage).toMatch(/^Somente administradores podem alterar: /);
    }
    expect((await edit(room.id, { active: false }, t.tokens.supervisor)).status).toBe(403);
    // Sending the stored value back (the whole form) is no change.
    expect((await edit(room.id, { active: true, blockedSending: false, displayName: 'Mesmo' }, t.tokens.agente)).status).toBe(200);
    const admin = await edit(room.id, { active: false, blockedReceiving: true }, t.tokens.admin);
    expect(admin.status, admin.text).toBe(200);
    expect(admin.body.data).toMatchObject({ active: false, blockedReceiving: true });
  });

  it('lets only admins edit a blocked contact, here and in the contacts register', async () => {
    const room = await contactRoom();
    expect((await edit(room.id, { blockedSending: true }, t.tokens.admin)).status).toBe(200);
    for (const token of [t.tokens.agente, t.tokens.supervisor]) {
      const res = await edit(room.id, { displayName: 'Tentativa' }, token);
      expect(res.status).toBe(403);
      expect(res.body.errorMessage).toBe(texts.registers.blockedContactEdit);
    }
    // A user with the contacts screen, through the register's own route.
    const now = t.server.clock.now();
    await t.server.repos.users.create('acme', { id: 'acme-contatos', email: 'contatos@acme.test', displayName: 'Agente Contatos', passwordHash: null, claims: { contacts: true } }, now);
    const viaRegister = await t.api(`/api/contacts/${room.author.id}`, { method: 'PATCH', body: { displayName: 'Tentativa' }, token: await t.tokenFor('acme', 'acme-contatos') });
    expect(viaRegister.status).toBe(403);
    expect(viaRegister.body.errorMessage).toBe(texts.registers.blockedContactEdit);

    const admin = await edit(room.id, { displayName: 'Bloqueado Editado', blockedSending: false }, t.tokens.admin);
    expect(admin.status, admin.text).toBe(200);
    expect((await edit(room.id, { displayName: 'Desbloqueado' }, t.tokens.agente)).status).toBe(200);
  });

  it('answers 404 to who cannot see the chat, 403 to a stranger, and never crosses tenants', async () => {
    const room = await contactRoom();
    expect((await edit(room.id, { displayName: 'Suporte' }, t.tokens.suporte)).status).toBe(404);
    expect((await read(room.id, t.tokens.suporte)).status).toBe(404);
    // The vendas supervisor sees the department's chats.
    expect((await edit(room.id, { displayName: 'Pela supervisora' }, t.tokens.supervisor)).status).toBe(200);

    const signup = await t.api('/api/users', { method: 'POST', body: { displayName: 'Estranho', email: `estranho-${Date.now()}@acme.test`, password: 'segredo1', confirmPassword: 'segredo1' } });
    expect(signup.status, signup.text).toBe(201);
    const stranger = await edit(room.id, { displayName: 'Estranho' }, signup.body.data.accessToken);
    expect(stranger.status).toBe(403);
    expect(stranger.body.errorMessage).toBeTruthy();
    expect((await read(room.id, signup.body.data.accessToken)).status).toBe(404);

    const outra = await edit(room.id, { displayName: 'Outra' }, await t.tokenFor('outra', 'outra-admin'), t.hosts.outra);
    expect(outra.status).toBe(404);
    expect((await read(room.id, t.tokens.admin)).body.data.displayName).toBe('Pela supervisora');
  });
});
