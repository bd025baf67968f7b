import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Room } from '@atendimento/schemas';
import { createHttpClient } from '../../helpers/http-client';
import { spawnServer, type ServerProcess } from '../../reliability/server-process';

/**
 * `npm start` as a new user finds it: the built server on an empty data folder, the demo
 * tenant and its local WhatsApp provider. The demo agent signs in and can answer on WhatsApp
 * at once: a chat inside the 24-hour window takes free text, and approved templates are there
 * for the chats outside it (a new contact).
 */
let server: ServerProcess;
beforeAll(async () => {
  // Always SQLite, as `npm start` runs, also inside `npm run test:pg` (never the shared public schema).
  server = await spawnServer({ DATABASE_URL: '', JWT_SECRET: 'segredo-do-teste-de-demo-0123456789abcdef' });
}, 120_000);
afterAll(() => server?.stop());

describe('npm start: the demo agent on WhatsApp', () => {
  it('signs in, answers the live WhatsApp chat with text, and has approved templates for the others', async () => {
    const api = createHttpClient(server.baseUrl, { host: server.host });
    const login = await api('/api/auth/login', { method: 'POST', body: { email: 'agente@exemplo.com.br', password: 'agente123' } });
    expect(login.status, login.text).toBe(200);
    const token = login.body.accessToken ?? login.body.data?.accessToken ?? login.body.token;
    expect(token, login.text).toBeTruthy();
    const mine = await api('/api/rooms?tab=userChats&limit=50', { token });
    expect(mine.status, mine.text).toBe(200);
    const whatsapp = (mine.body.data as Room[]).filter((r) => r.channelId === 'whatsapp-comercial');
    expect(whatsapp.length, server.output()).toBeGreaterThan(0);
    const answers = [];
    for (const room of whatsapp) answers.push((await api(`/api/rooms/${room.id}/message`, { method: 'POST', body: { text: 'Olá! Já verifico.' }, token })).status);
    // At least one chat is inside the window (201); the others answer 422 'Fora da janela'.
    expect(answers).toContain(201);
    const templates = await api('/api/templates?channelId=whatsapp-comercial&status=APPROVED&language=pt_BR', { token });
    expect(templates.status, templates.text).toBe(200);
    expect(templates.body.meta.count, server.output()).toBeGreaterThan(0);
  });
});
