import path from 'node:path';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_TAB_BY_ID, messages as seedTexts, type Room } from '@atendimento/schemas';
import { startChatServer, stopChatServer, JUSTIFIES, type ChatTest } from '../server/chat/chat-helpers';
import { startCustomerSite, type CustomerSite } from './customer-site';
import { launchBrowser, screenshot } from './browser';
import { stripesPng } from './stripes-png';
import { newPage, signIn } from './shell-helpers';

/**
 * End to end in Chromium: a visitor starts a chat in the web-chat widget
 * on a customer's site (http://loja.test:PORT, channel 'site-suporte'); the agent of suporte,
 * signed in to the real console at / (the engine's build mounts it), sees it arrive in 'Fila'
 * over /ws without a reload, enters, answers with text from the composer and an image from the
 * attach menu, the visitor reads both, the agent closes with a justification and the room shows
 * in 'Histórico'. The agent of vendas, signed in meanwhile, never receives the room: not in any
 * tab, not in any /ws frame, and the API refuses it.
 */
let t: ChatTest;
let browser: Browser;
let site: CustomerSite | undefined;
let siteUrl: string;
let consoleUrl: string;

const VISITOR = 'Joana Visitante';
const FIRST = 'Olá, meu pedido 4521 chegou quebrado';
const REPLY = 'Sinto muito, Joana! Vou abrir a troca agora.';
const CAPTION = 'Etiqueta da troca';
/** expect.poll waits 1 s by default; the browser side of these conditions may take longer on a busy machine. */
const POLL = { timeout: 15_000 };
const TAB = { queue: CHAT_TAB_BY_ID.queuesChats.label, mine: CHAT_TAB_BY_ID.userChats.label, history: CHAT_TAB_BY_ID.chatsHistories.label };

/** The stripes of the image the agent sends. */
const IMAGE_COLOURS = [[25, 118, 210], [56, 142, 60], [251, 192, 45], [211, 47, 47]] as const;

beforeAll(async () => {
  t = await startChatServer({ staticDir: path.resolve('engine/dist') });
  consoleUrl = `http://${t.hosts.acme}`;
  site = await startCustomerSite(t.baseUrl);
  siteUrl = site.url;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
  await stopChatServer(t);
});

interface ConsolePage {
  context: BrowserContext;
  page: Page;
  errors: string[];
  /** Every text frame the page received on /ws. */
  wsFrames: string[];
}

/** A signed-in console: its page errors and every /ws frame it receives are recorded. */
async function openConsole(email: string): Promise<ConsolePage> {
  const { context, page } = await newPage(browser);
  const errors: string[] = [];
  const wsFrames: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('websocket', (ws) => ws.on('framereceived', (f) => wsFrames.push(typeof f.payload === 'string' ? f.payload : f.payload.toString('utf8'))));
  await signIn(page, consoleUrl, email);
  await page.getByRole('heading', { name: 'Atendimento', level: 1 }).waitFor();
  await page.getByRole('tablist', { name: 'Abas de chats' }).waitFor();
  // Marks this document: if anything reloaded the page the mark would be gone.
  await page.evaluate(() => { (window as unknown as { __sameDocument: boolean }).__sameDocument = true; });
  return { context, page, errors, wsFrames };
}

function tab(page: Page, label: string) {
  return page.getByRole('tablist', { name: 'Abas de chats' }).getByRole('tab', { name: label, exact: true });
}

async function showTab(page: Page, label: string): Promise<void> {
  await tab(page, label).click();
  await page.waitForFunction((l) => document.querySelector('[aria-label="Lista de chats"] .MuiTypography-subtitle2')?.textContent === l, label);
}

/** The card of the visitor's chat in the visible list. */
function card(page: Page) {
  return page.locator('[aria-label="Lista de chats"] [data-room-id]', { hasText: VISITOR });
}

async function widgetFrame(page: Page): Promise<Frame> {
  const handle = await page.waitForSelector('iframe[src*="/api/webchat/site-suporte/page"]');
  const frame = await handle.contentFrame();
  if (!frame) throw new Error('widget iframe has no frame');
  return frame;
}

describe('the agent console with a web-chat visitor', () => {
  it('live queue, enter, text and image reply, closing with justification, history; invisible to another department', async () => {
    const agent = await openConsole('suporte@acme.test');
    const other = await openConsole('agente@acme.test');
    for (const c of [agent, other]) {
      await showTab(c.page, TAB.queue);
      await c.page.getByText(seedTexts.chat.emptyList).waitFor();
    }

    // The visitor starts a chat from the customer's site.
    const visitor = await browser.newPage({ viewport: { width: 1000, height: 760 } });
    const visitorErrors: string[] = [];
    visitor.on('pageerror', (e) => visitorErrors.push(e.message));
    await visitor.goto(siteUrl);
    await visitor.click(`button[aria-label="${seedTexts.webchat.open}"]`);
    const widget = await widgetFrame(visitor);
    await widget.waitForSelector('#start:not([hidden])');
    await widget.fill('#name', VISITOR);
    await widget.fill('#first', FIRST);
    await widget.click('#start-send');
    await widget.waitForSelector('#composer:not([hidden])');

    // It arrives in the agent's 'Fila' over /ws, with no reload.
    const queued = card(agent.page);
    await queued.waitFor();
    await expect.poll(() => queued.locator('[data-last-message]').textContent(), POLL).toContain(FIRST);
    expect(await agent.page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    const roomId = (await queued.getAttribute('data-room-id'))!;
    expect(roomId).toBeTruthy();
    // The tab badges come from GET /api/counter, polled every 5 s (seed 002 §7).
    await expect.poll(() => tab(agent.page, TAB.queue).locator('[data-badge="total"]').textContent(), { timeout: 12_000 }).toBe('1');
    await screenshot(agent.page, 'console-queue-new-chat');
    // Meanwhile the agent of vendas, on 'Fila' too, has nothing.
    expect(await card(other.page).count()).toBe(0);
    await other.page.getByText(seedTexts.chat.emptyList).waitFor();
    await screenshot(other.page, 'console-other-department-queue');

    // The agent opens it: the composer asks to enter first; 'Entrar no chat' takes the chat.
    await queued.click();
    const pane = agent.page.locator(`[data-chat-pane="${roomId}"]`);
    await pane.getByRole('heading', { name: VISITOR }).waitFor();
    await pane.getByText(FIRST).waitFor();
    await pane.getByText(seedTexts.chatServer.enterFirst).waitFor();
    await pane.getByRole('button', { name: 'Entrar no chat' }).click();
    const box = pane.getByRole('textbox', { name: 'Digite uma mensagem' });
    await box.waitFor();
    // Entered: the room left 'Fila' (live) and the agent's chip is on the header.
    await card(agent.page).waitFor({ state: 'detached' });
    await pane.locator('[data-chat-header] .MuiChip-colorSuccess', { hasText: 'Suporte Acme' }).waitFor();

    // Text from the composer (Enter sends).
    await box.fill(REPLY);
    await box.press('Enter');
    await expect.poll(() => box.inputValue(), POLL).toBe('');
    await pane.getByText(REPLY).waitFor();

    // An image from the attach menu: 'Anexar' → 'Fotos e vídeos' → preview with caption → 'Enviar'.
    await pane.getByRole('button', { name: 'Anexar' }).click();
    const [chooser] = await Promise.all([
      agent.page.waitForEvent('filechooser'),
      agent.page.getByRole('menuitem', { name: 'Fotos e vídeos' }).click(),
    ]);
    await chooser.setFiles({ name: 'etiqueta-troca.png', mimeType: 'image/png', buffer: stripesPng(IMAGE_COLOURS) });
    const preview = agent.page.getByRole('dialog', { name: 'Pré-visualizar' });
    await preview.waitFor();
    await preview.getByRole('textbox', { name: `${seedTexts.chat.captionPlaceholder} etiqueta-troca.png` }).fill(CAPTION);
    await preview.getByRole('button', { name: 'Enviar', exact: true }).click();
    await preview.waitFor({ state: 'detached' });
    const sentImage = pane.locator(`img[alt="${CAPTION}"]`);
    await sentImage.waitFor();
    await expect.poll(() => sentImage.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth), POLL).toBe(240);
    // Both were stored once and are not pending any more (the server's copy replaced the optimistic one).
    await expect.poll(async () => {
      const res = await t.api(`/api/rooms/${roomId}/messages`, { token: t.tokens.suporte });
      return (res.body.data as { type: string; text: string | null; author: { type: string } }[]).filter((m) => m.author.type === 'agent').map((m) => m.type);
    }, POLL).toEqual(expect.arrayContaining(['text', 'image']));

    // The visitor reads both in the widget.
    await widget.waitForFunction((text) => document.getElementById('messages')!.textContent!.includes(text), REPLY);
    const visitorImage = await widget.waitForSelector('#messages li.theirs img');
    await expect.poll(() => visitorImage.evaluate((img) => (img as HTMLImageElement).naturalWidth), POLL).toBe(240);
    // The widget reported both read; the console's delivery indicators follow live.
    await expect.poll(async () => {
      const res = await t.api(`/api/rooms/${roomId}/messages`, { token: t.tokens.suporte });
      return (res.body.data as { author: { type: string }; status?: { read?: unknown } }[]).filter((m) => m.author.type === 'agent').map((m) => Boolean(m.status?.read));
    }, POLL).toEqual([true, true]);
    await expect.poll(() => pane.locator('[data-author-kind="ownAgent"] [data-delivery]').evaluateAll((els) => els.map((el) => el.getAttribute('data-delivery'))), POLL).toEqual(['read', 'read']);
    await screenshot(visitor, 'console-visitor-widget-replies');
    await screenshot(agent.page, 'console-open-chat-replies');

    // The agent looks at their profile and comes back: the tab they were on and the open chat
    // are still there (docs/console.md "Back to the console"), in the same document.
    const selectedTab = () => agent.page.getByRole('tablist', { name: 'Abas de chats' }).getByRole('tab', { selected: true }).textContent();
    const tabBefore = await selectedTab();
    expect(tabBefore).toContain(TAB.queue);
    const expand = agent.page.getByRole('button', { name: 'Expandir menu' });
    if (await expand.isVisible()) await expand.click();
    // The drawer's 'Editar perfil' is drawn again as the drawer expands: on a loaded CI box a click
    // at that moment reached the old button and nothing navigated (stop 41). Click until it does.
    await expect.poll(async () => {
      if (new URL(agent.page.url()).pathname !== '/profile') await agent.page.getByRole('button', { name: 'Editar perfil' }).click();
      return new URL(agent.page.url()).pathname;
    }, { timeout: 60_000 }).toBe('/profile');
    await agent.page.getByRole('navigation', { name: 'Menu' }).locator('[data-route="/"]').click();
    await pane.getByText(REPLY).waitFor();
    expect(await selectedTab()).toBe(tabBefore);
    expect(await agent.page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);

    // Closing: 'Opções do chat' → 'Encerrar'; the justification is required.
    await pane.getByRole('button', { name: 'Opções do chat' }).click();
    await agent.page.getByRole('menuitem', { name: 'Encerrar', exact: true }).click();
    const dialog = agent.page.getByRole('dialog', { name: 'Encerrar chat' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Encerrar', exact: true }).click();
    await dialog.getByText(seedTexts.chat.chooseCloseJustify).waitFor();
    await dialog.getByRole('combobox', { name: 'Justificativa' }).click();
    await agent.page.getByRole('option', { name: JUSTIFIES[0] }).click();
    await expect.poll(() => dialog.getByRole('combobox', { name: 'Justificativa' }).textContent(), POLL).toBe(JUSTIFIES[0]);
    await dialog.getByRole('textbox', { name: 'Observação' }).fill('Troca aberta para o pedido 4521');
    await screenshot(agent.page, 'console-close-dialog');
    await dialog.getByRole('button', { name: 'Encerrar', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await pane.getByText('Chat encerrado').waitFor();
    await expect(pane.getByRole('textbox', { name: 'Digite uma mensagem' }).count()).resolves.toBe(0);

    // The contact drawer's history now lists the closed chat.
    await agent.page.getByRole('list', { name: 'Histórico de chats' }).getByRole('button').first().waitFor();
    // The visitor is told; the room shows in 'Histórico' with the closure stored.
    await widget.waitForSelector('#closed:not([hidden])');
    await showTab(agent.page, TAB.history);
    await card(agent.page).waitFor();
    expect(await card(agent.page).getAttribute('data-room-id')).toBe(roomId);
    const closed = (await t.api(`/api/rooms/${roomId}`, { token: t.tokens.suporte })).body.data as Room;
    expect(closed.active).toBe(false);
    expect(closed.closedBy?.justify).toBe(JUSTIFIES[0]);
    for (const label of [TAB.queue, TAB.mine]) {
      await showTab(agent.page, label);
      await agent.page.getByText(seedTexts.chat.emptyList).waitFor();
    }
    await showTab(agent.page, TAB.history);
    await card(agent.page).waitFor();
    await screenshot(agent.page, 'console-history');
    expect(await agent.page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);

    // The agent of vendas: in no tab, in no /ws frame, and the API refuses the room.
    const otherTabs = await other.page.getByRole('tablist', { name: 'Abas de chats' }).getByRole('tab').evaluateAll((tabs) => tabs.map((el) => el.getAttribute('aria-label') ?? ''));
    expect(otherTabs).toEqual(expect.arrayContaining([TAB.queue, TAB.mine, TAB.history]));
    // 'Contatos' lists contacts, not chats: every other tab is checked for the chat.
    for (const label of otherTabs.filter((l) => l !== CHAT_TAB_BY_ID.contacts.label)) {
      await showTab(other.page, label);
      await other.page.waitForFunction(() => !document.querySelector('[aria-label="Lista de chats"] [role="status"]'));
      expect(await card(other.page).count(), `tab ${label}`).toBe(0);
    }
    expect(other.wsFrames.length).toBeGreaterThan(0);
    expect(other.wsFrames.filter((f) => f.includes(roomId) || f.includes(VISITOR))).toEqual([]);
    expect(agent.wsFrames.some((f) => f.includes(roomId))).toBe(true);
    const refused = await t.api(`/api/rooms/${roomId}`, { token: t.tokens.agente });
    expect([403, 404]).toContain(refused.status);
    expect(refused.body.errorMessage).toEqual(expect.any(String));
    const refusedMessages = await t.api(`/api/rooms/${roomId}/messages`, { token: t.tokens.agente });
    expect([403, 404]).toContain(refusedMessages.status);
    await showTab(other.page, TAB.history);
    await other.page.getByText(seedTexts.chat.emptyList).waitFor();
    await screenshot(other.page, 'console-other-department-history');

    expect(agent.errors).toEqual([]);
    expect(other.errors).toEqual([]);
    expect(visitorErrors).toEqual([]);
    await visitor.close();
    await agent.context.close();
    await other.context.close();
  });
});
