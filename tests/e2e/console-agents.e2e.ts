import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_TAB_BY_ID, messages as seedTexts, type Room } from '@atendimento/schemas';
import { startChatServer, stopChatServer, type ChatTest } from '../server/chat/chat-helpers';
import { launchBrowser, screenshot } from './browser';
import { newPage, signIn, showTab } from './shell-helpers';

/**
 * Chat-menu operations in Chromium against the real server (docs/console-operations.md "Add
 * agents", "Read / unread"): supervisor@ adds suporte@ to agente@'s chat from 'Equipe'; the chat
 * arrives live in suporte@'s 'Meus' with the note, suporte@ writes and agente@ reads it live
 * (both keep the chat open).
 * agente@ marks the chat unread: it stays unread on agente@'s open chat and turns unread live
 * on the supervisor's card; then marks it read. Then 'Copiar link do chat' and 'Voltar ao início
 * do bot': the chat leaves 'Meus', shows in 'Bot' and agente@ takes it back from there.
 */
let t: ChatTest;
let browser: Browser;
let consoleUrl: string;
const POLL = { timeout: 15_000 };
const TAB = { mine: CHAT_TAB_BY_ID.userChats.label, team: CHAT_TAB_BY_ID.teamChats.label, bot: CHAT_TAB_BY_ID.botChats.label };

beforeAll(async () => {
  t = await startChatServer({ staticDir: path.resolve('engine/dist') });
  consoleUrl = `http://${t.hosts.acme}`;
  await t.patchAppConfig({ claims: { publicRegister: true, queues: true } });
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

async function chatOfAgente(visitor: string): Promise<string> {
  const session = await t.api('/api/webchat/site-vendas/session', { method: 'POST', body: { text: `Olá, sou ${visitor}`, displayName: visitor, clientId: randomUUID() } });
  expect(session.status, session.text).toBe(200);
  const roomId = session.body.data.roomId as string;
  const pushed = await t.api(`/api/rooms/${roomId}/push`, { method: 'PATCH', body: {}, token: t.tokens.agente });
  expect(pushed.status, pushed.text).toBe(200);
  return roomId;
}

async function openChat(c: ConsolePage, tab: string, roomId: string, visitor: string) {
  await showTab(c.page, tab);
  await card(c.page, roomId).click(POLL);
  const pane = c.page.locator(`[data-chat-pane="${roomId}"]`);
  await pane.getByRole('heading', { name: visitor }).waitFor();
  return pane;
}

async function menu(c: ConsolePage, pane: ReturnType<Page['locator']>, item: string): Promise<void> {
  await pane.getByRole('button', { name: 'Opções do chat' }).click();
  await c.page.getByRole('menuitem', { name: item, exact: true }).click();
}

describe('chat menu: add agents, read / unread', () => {
  it('a supervisor adds suporte@ to a chat; agente@ marks it unread and read, live for the supervisor', async () => {
    const roomId = await chatOfAgente('Elisa Equipe');
    const sup = await openConsole('supervisor@acme.test');
    const agent = await openConsole('agente@acme.test');
    const suporte = await openConsole('suporte@acme.test');
    await showTab(suporte.page, TAB.mine);
    expect(await card(suporte.page, roomId).count()).toBe(0);

    // 1. Add agents from the supervisor's 'Equipe'.
    const supPane = await openChat(sup, TAB.team, roomId, 'Elisa Equipe');
    await menu(sup, supPane, seedTexts.internalChat.addAgents);
    const dialog = sup.page.getByRole('dialog', { name: seedTexts.internalChat.addAgents });
    await dialog.getByRole('checkbox', { name: 'Suporte Acme' }).click(POLL);
    await screenshot(sup.page, 'console-add-agents-dialog');
    await dialog.getByRole('button', { name: seedTexts.internalChat.addAgents }).click();
    await sup.page.getByText(seedTexts.chat.agentsAdded).waitFor();
    await dialog.waitFor({ state: 'detached' });

    // suporte@ gets it live in 'Meus', sees the note and writes; agente@ reads it live.
    await card(suporte.page, roomId).waitFor(POLL);
    const supportPane = await openChat(suporte, TAB.mine, roomId, 'Elisa Equipe');
    await supportPane.getByText('adicionou Suporte Acme ao chat.', { exact: false }).waitFor(POLL);
    const box = supportPane.getByRole('textbox', { name: 'Digite uma mensagem' });
    await box.fill('Oi Elisa, sou do suporte e vou ajudar.');
    await box.press('Enter');
    const agentPane = await openChat(agent, TAB.mine, roomId, 'Elisa Equipe');
    await agentPane.getByText('Oi Elisa, sou do suporte e vou ajudar.').waitFor(POLL);
    await screenshot(suporte.page, 'console-add-agents-arrived');

    // 2. agente@ marks it unread: it sticks on the open chat and shows unread on the supervisor's card.
    await expect.poll(async () => ((await t.api(`/api/rooms/${roomId}`, { token: t.tokens.admin })).body.data as Room).lastMessage?.unread, POLL).toBe(false);
    await menu(agent, agentPane, 'Marcar como não lido');
    await expect.poll(async () => ((await t.api(`/api/rooms/${roomId}`, { token: t.tokens.admin })).body.data as Room).lastMessage?.unread, POLL).toBe(true);
    await showTab(sup.page, TAB.team);
    await sup.page.locator(`[aria-label="Lista de chats"] [data-room-id="${roomId}"][data-unread="true"]`).waitFor(POLL);
    await agentPane.getByRole('button', { name: 'Opções do chat' }).click();
    await agent.page.getByRole('menuitem', { name: 'Marcar como lido', exact: true }).waitFor();
    await screenshot(agent.page, 'console-marked-unread');
    await agent.page.getByRole('menuitem', { name: 'Marcar como lido', exact: true }).click();
    await sup.page.locator(`[aria-label="Lista de chats"] [data-room-id="${roomId}"]:not([data-unread])`).waitFor(POLL);
    expect(((await t.api(`/api/rooms/${roomId}`, { token: t.tokens.admin })).body.data as Room).lastMessage?.unread).toBe(false);

    for (const c of [sup, agent, suporte]) {
      expect(c.errors).toEqual([]);
      await c.context.close();
    }
  });

  it("copies the chat's public link; returns a chat to the bot and takes it back from 'Bot'", async () => {
    await t.patchAppConfig({ claims: { publicRegister: true, queues: true, backBeggining: true, enableBotTab: true } });
    const roomId = await chatOfAgente('Fábio Bot');
    const agent = await openConsole('agente@acme.test');
    // The test host is plain http (not a secure context): no real clipboard, so record what is written.
    await agent.page.evaluate(() => {
      Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (text: string) => { (window as unknown as { copied: string }).copied = text; } } });
    });
    const pane = await openChat(agent, TAB.mine, roomId, 'Fábio Bot');

    await menu(agent, pane, seedTexts.chatServer.copyLink);
    await agent.page.getByText(seedTexts.table.copied, { exact: true }).waitFor();
    const copied = await agent.page.evaluate(() => (window as unknown as { copied?: string }).copied);
    const room = (await t.api(`/api/rooms/${roomId}`, { token: t.tokens.admin })).body.data as Room;
    expect(copied).toBe(`${consoleUrl}/chat/${room.publicToken}`);

    await menu(agent, pane, seedTexts.chatServer.restartBot);
    await card(agent.page, roomId).waitFor({ state: 'detached', ...POLL });
    await showTab(agent.page, TAB.bot);
    await card(agent.page, roomId).click(POLL);
    await screenshot(agent.page, 'console-bot-tab');
    const botPane = agent.page.locator(`[data-chat-pane="${roomId}"]`);
    await botPane.locator('[data-enter-first]').getByText('Entrar no chat').click();
    await card(agent.page, roomId).waitFor({ state: 'detached', ...POLL });
    await showTab(agent.page, TAB.mine);
    await card(agent.page, roomId).waitFor(POLL);
    expect(((await t.api(`/api/rooms/${roomId}`, { token: t.tokens.admin })).body.data as Room)).toMatchObject({ destination: 'vueJs', inAttend: true });
    expect(agent.errors).toEqual([]);
    await agent.context.close();
  });
});
