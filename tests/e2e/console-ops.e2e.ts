import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_TAB_BY_ID, messages as seedTexts, type Room } from '@atendimento/schemas';
import { startChatServer, stopChatServer, JUSTIFIES, type ChatTest } from '../server/chat/chat-helpers';
import { launchBrowser, screenshot } from './browser';
import { newPage, signIn, showTab } from './shell-helpers';

/**
 * Console operations in Chromium against the real server (docs/transfers.md):
 * agente@ (vendas) transfers a chat to suporte@, who sees it arrive live while it leaves
 * agente's list; agente moves another chat to suporte's queue, where it waits in suporte's
 * 'Fila'; puts a chat on hold and its next message ends the hold; with tagWhenClose, closing asks for a tag first, the tags dialog saves one and the
 * chat closes.
 */
let t: ChatTest;
let browser: Browser;
let consoleUrl: string;
const POLL = { timeout: 15_000 };
const HOLD = 'Por favor, aguarde um instante enquanto verifico.';
const TAB = { queue: CHAT_TAB_BY_ID.queuesChats.label, mine: CHAT_TAB_BY_ID.userChats.label };

beforeAll(async () => {
  t = await startChatServer({ staticDir: path.resolve('engine/dist') });
  consoleUrl = `http://${t.hosts.acme}`;
  const iso = t.server.clock.now().toISOString();
  await t.server.db('tags').insert([{ id: 'urgente', tenant_id: 'acme', name: 'Urgente', active: true, data: JSON.stringify({ name: 'Urgente', active: true, color: '#D32F2FFF', department: null }), created_at: iso, updated_at: iso, deleted_at: null }]);
  await t.server.db('fixed_messages').insert([{ id: 'fm-aguarde', tenant_id: 'acme', data: JSON.stringify({ active: true, message: HOLD, tag: 'aguarde', uid: null, displayName: 'Geral' }), owner_id: null, active: true, created_at: iso, updated_at: iso, deleted_at: null }]);
  await t.patchAppConfig({ claims: { publicRegister: true, queues: true, tagWhenClose: true, remainInChat: true, enableChatOnHold: true } });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await stopChatServer(t);
});

interface ConsolePage {
  context: BrowserContext;
  page: Page;
  errors: string[];
}

async function openConsole(email: string): Promise<ConsolePage> {
  const { context, page } = await newPage(browser);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await signIn(page, consoleUrl, email);
  await page.getByRole('heading', { name: 'Atendimento', level: 1 }).waitFor();
  await page.getByRole('tablist', { name: 'Abas de chats' }).waitFor();
  return { context, page, errors };
}

const card = (page: Page, roomId: string) => page.locator(`[aria-label="Lista de chats"] [data-room-id="${roomId}"]`);

/** A visitor writes on vendas' widget and agente@ takes the chat (through the API: the widget is console.e2e's subject). */
async function chatOfAgente(visitor: string): Promise<string> {
  const session = await t.api('/api/webchat/site-vendas/session', { method: 'POST', body: { text: `Olá, sou ${visitor}`, displayName: visitor, clientId: randomUUID() } });
  expect(session.status, session.text).toBe(200);
  const roomId = session.body.data.roomId as string;
  const pushed = await t.api(`/api/rooms/${roomId}/push`, { method: 'PATCH', body: {}, token: t.tokens.agente });
  expect(pushed.status, pushed.text).toBe(200);
  return roomId;
}

async function openChat(c: ConsolePage, roomId: string, visitor: string) {
  await showTab(c.page, TAB.mine);
  await card(c.page, roomId).click();
  const pane = c.page.locator(`[data-chat-pane="${roomId}"]`);
  await pane.getByRole('heading', { name: visitor }).waitFor();
  return pane;
}

async function menu(c: ConsolePage, pane: ReturnType<Page['locator']>, item: string): Promise<void> {
  await pane.getByRole('button', { name: 'Opções do chat' }).click();
  await c.page.getByRole('menuitem', { name: item, exact: true }).click();
}

describe('console operations', () => {
  it('transfer to an agent, move to a queue, on hold on and off, tags before a close that requires one', async () => {
    const a = await openConsole('agente@acme.test');
    const b = await openConsole('suporte@acme.test');
    // Both online (the status bar's heartbeat): transfer targets must be online.
    await expect.poll(async () => {
      const res = await t.api(`/api/rooms/${await firstRoom()}/transferTargets`, { token: t.tokens.agente });
      return res.body.data?.agents?.find((x: { id: string }) => x.id === 'acme-suporte')?.online;
    }, POLL).toBe(true);

    // 1. Transfer to suporte@, not staying in the chat.
    const first = await firstRoom();
    await showTab(b.page, TAB.mine);
    expect(await card(b.page, first).count()).toBe(0);
    const pane = await openChat(a, first, 'Bruno Transferido');
    await menu(a, pane, 'Transferir');
    const dialog = a.page.getByRole('dialog', { name: 'Transferir' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Transferir', exact: true }).click();
    await dialog.getByText(seedTexts.chat.chooseAgents).waitFor();
    await dialog.getByRole('checkbox', { name: 'Suporte Acme' }).click();
    await expect(dialog.getByText(seedTexts.chat.chooseAgents).count()).resolves.toBe(0);
    await dialog.getByLabel(seedTexts.transfer.remainInChat).click();
    await dialog.getByRole('textbox', { name: seedTexts.transfer.obs }).fill('Cliente de suporte técnico');
    await screenshot(a.page, 'console-ops-transfer-dialog');
    await dialog.getByRole('button', { name: 'Transferir', exact: true }).click();
    await a.page.getByText(seedTexts.chat.transferDone).waitFor();
    // suporte@ sees it arrive live; agente@ loses it.
    await card(b.page, first).waitFor(POLL);
    await card(a.page, first).waitFor({ state: 'detached', ...POLL });
    const transferred = (await t.api(`/api/rooms/${first}`, { token: t.tokens.suporte })).body.data as Room;
    expect(transferred.agents.map((x) => x.id)).toEqual(['acme-suporte']);
    await card(b.page, first).click();
    await b.page.locator(`[data-chat-pane="${first}"]`).getByText('Cliente de suporte técnico', { exact: false }).waitFor(POLL);
    await screenshot(b.page, 'console-ops-transfer-arrived');

    // 2. Move to suporte's queue: the chat waits in suporte's 'Fila'.
    const second = await chatOfAgente('Carla Fila');
    await showTab(b.page, TAB.queue);
    const pane2 = await openChat(a, second, 'Carla Fila');
    await menu(a, pane2, 'Filas');
    const queues = a.page.getByRole('dialog', { name: 'Filas' });
    await queues.getByRole('checkbox', { name: 'Suporte' }).click();
    await queues.getByRole('button', { name: 'Transferir', exact: true }).click();
    await a.page.getByText(seedTexts.chat.queuesUpdated).waitFor();
    await card(b.page, second).waitFor(POLL);
    await card(a.page, second).waitFor({ state: 'detached', ...POLL });
    await screenshot(b.page, 'console-ops-moved-to-queue');

    // 3. On hold: the chosen fixed message goes to the customer; the agent's next message ends it.
    const third = await chatOfAgente('Davi Tags');
    const pane3 = await openChat(a, third, 'Davi Tags');
    await pane3.getByRole('button', { name: seedTexts.chat.onHoldTitle }).click();
    const holdDialog = a.page.getByRole('dialog', { name: seedTexts.chat.onHoldTitle });
    await holdDialog.getByRole('radio', { name: HOLD }).click();
    await holdDialog.getByRole('button', { name: 'Confirmar' }).click();
    await holdDialog.waitFor({ state: 'detached' });
    await pane3.getByRole('button', { name: 'Retirar chat da espera' }).waitFor(POLL);
    await pane3.getByText(HOLD).waitFor(POLL);
    await screenshot(a.page, 'console-ops-on-hold');
    expect(((await t.api(`/api/rooms/${third}`, { token: t.tokens.agente })).body.data as Room).onHold).toEqual({ active: true, message: HOLD });
    const box = pane3.getByRole('textbox', { name: 'Digite uma mensagem' });
    await box.fill('Pronto, encontrei.');
    await box.press('Enter');
    await pane3.getByRole('button', { name: seedTexts.chat.onHoldTitle }).waitFor(POLL);
    expect(((await t.api(`/api/rooms/${third}`, { token: t.tokens.agente })).body.data as Room).onHold.active).toBe(false);

    // 4. tagWhenClose: 'Encerrar' asks for a tag first; the tags dialog saves one; then it closes.
    await menu(a, pane3, 'Encerrar');
    await a.page.getByText(seedTexts.chatServer.tagRequired).waitFor();
    const tags = a.page.getByRole('dialog', { name: 'Tags' });
    await tags.getByRole('radio', { name: 'Urgente' }).click();
    await tags.getByRole('button', { name: 'Salvar' }).click();
    await a.page.getByText(seedTexts.chat.tagsChanged).waitFor();
    await tags.waitFor({ state: 'detached' });
    await menu(a, pane3, 'Encerrar');
    const close = a.page.getByRole('dialog', { name: 'Encerrar chat' });
    await close.getByRole('combobox', { name: 'Justificativa' }).click();
    await a.page.getByRole('option', { name: JUSTIFIES[0] }).click();
    await close.getByRole('button', { name: 'Encerrar', exact: true }).click();
    await pane3.getByText('Chat encerrado').waitFor(POLL);
    const closed = (await t.api(`/api/rooms/${third}`, { token: t.tokens.admin })).body.data as Room;
    expect(closed).toMatchObject({ active: false, tagsNames: ['Urgente'] });
    await screenshot(a.page, 'console-ops-closed-with-tag');

    expect(a.errors).toEqual([]);
    expect(b.errors).toEqual([]);
    await a.context.close();
    await b.context.close();
  });
});

let firstRoomId: string | null = null;
async function firstRoom(): Promise<string> {
  firstRoomId ??= await chatOfAgente('Bruno Transferido');
  return firstRoomId;
}
