import path from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_TAB_BY_ID, messages as seedTexts, type Room } from '@atendimento/schemas';
import { ManualClock } from '@atendimento/server';
import { hashPassword } from '@atendimento/server/services/auth/password';
import { TEST_PASSWORD } from '../helpers/test-server';
import { startChatServer, stopChatServer, type ChatTest } from '../server/chat/chat-helpers';
import { startCustomerSite, type CustomerSite } from './customer-site';
import { launchBrowser, screenshot } from './browser';
import { newPage, signIn, showTab } from './shell-helpers';

/**
 * Routing end to end in Chromium (docs/routing.md): department suporte assigns by 'Menor carga'
 * to its two online agents (Suporte Acme already attends a chat, Ana none), waits 1 minute for
 * an answer and then tranships to vendas. A customer writes on the web-chat widget of a shop
 * site; the chat appears by itself in Ana's 'Meus' (nobody takes it) and never in the other
 * agent's; the server's clock moves one minute without an answer and the chat arrives live in
 * the 'Fila' of suporte's agent. The clock is the server's ManualClock, so nothing waits a
 * real minute.
 */
let t: ChatTest;
let clock: ManualClock;
let browser: Browser;
let site: CustomerSite | undefined;
let consoleUrl: string;

const VISITOR = 'Rita Roteada';
const FIRST = 'Olá, quero falar com vendas';
const TAB = { queue: CHAT_TAB_BY_ID.queuesChats.label, mine: CHAT_TAB_BY_ID.userChats.label };
const POLL = { timeout: 20_000 };

beforeAll(async () => {
  clock = new ManualClock(new Date());
  t = await startChatServer({ clock, staticDir: path.resolve('engine/dist') });
  consoleUrl = `http://${t.hosts.acme}`;
  await t.server.repos.users.create('acme', { id: 'ana', email: 'ana@acme.test', displayName: 'Ana Vendas', passwordHash: await hashPassword(TEST_PASSWORD), emailVerified: true }, clock.now());
  // Suporte Acme already attends one chat of suporte.
  const first = await t.api('/api/webchat/site-suporte/session', { method: 'POST', body: { text: 'Chat anterior', displayName: 'Cliente Antigo', clientId: 'antes-1' } });
  expect((await t.api(`/api/rooms/${first.body.data.roomId}/push`, { method: 'PATCH', body: {}, token: t.tokens.suporte })).status).toBe(200);
  const patched = await t.api('/api/departaments/suporte', {
    method: 'PATCH', token: t.tokens.admin,
    body: { agents: ['acme-suporte', 'ana'], agentSelectionRule: 'load', waitingTime: 1, transhipment: 'deptovendas' },
  });
  expect(patched.status, patched.text).toBe(200);
  site = await startCustomerSite(t.baseUrl, 'site-suporte');
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
  await stopChatServer(t);
});

async function openConsole(email: string): Promise<Page> {
  const { page } = await newPage(browser);
  await signIn(page, consoleUrl, email);
  await page.getByRole('tablist', { name: 'Abas de chats' }).waitFor();
  return page;
}

const card = (page: Page) => page.locator('[aria-label="Lista de chats"] [data-room-id]', { hasText: VISITOR });

/** Both agents' status bars have reported them online (their 'logon' heartbeat reached the server). */
async function online(userIds: string[]): Promise<void> {
  await expect.poll(async () => {
    const rows = await t.server.db('statuses').where({ tenant_id: 'acme' }).whereIn('user_id', userIds).distinct('user_id');
    return rows.length;
  }, POLL).toBe(userIds.length);
}

async function widgetFrame(page: Page): Promise<Frame> {
  const handle = await page.waitForSelector('iframe[src*="/api/webchat/site-suporte/page"]');
  const frame = await handle.contentFrame();
  if (!frame) throw new Error('widget iframe has no frame');
  return frame;
}

describe("routing: 'Menor carga' and the waiting time, in the browser", () => {
  it("the chat lands in the right agent's 'Meus' by itself; after the waiting time the other department's 'Fila' receives it", async () => {
    const ana = await openConsole('ana@acme.test');
    const colleague = await openConsole('suporte@acme.test');
    const vendas = await openConsole('agente@acme.test');
    await online(['ana', 'acme-suporte']);
    await showTab(ana, TAB.mine);
    await showTab(colleague, TAB.mine);
    await showTab(vendas, TAB.queue);
    await ana.getByText(seedTexts.chat.emptyList).waitFor();

    const customer = await browser.newPage({ viewport: { width: 1000, height: 760 } });
    await customer.goto(site!.url);
    await customer.click(`button[aria-label="${seedTexts.webchat.open}"]`);
    const widget = await widgetFrame(customer);
    await widget.waitForSelector('#start:not([hidden])');
    await widget.fill('#name', VISITOR);
    await widget.fill('#first', FIRST);
    await widget.click('#start-send');
    await widget.waitForSelector('#composer:not([hidden])');

    // Ana has no chat, Suporte Acme has one: 'Menor carga' gives it to Ana, live, in 'Meus'.
    const mine = card(ana);
    await mine.waitFor({ timeout: 20_000 });
    await expect.poll(() => mine.locator('[data-last-message]').textContent(), POLL).toContain(FIRST);
    const roomId = (await mine.getAttribute('data-room-id'))!;
    const room = (await t.api(`/api/rooms/${roomId}`, { token: t.tokens.admin })).body.data as Room;
    expect(room.agents.map((a) => a.id)).toEqual(['ana']);
    expect(await card(colleague).count()).toBe(0);
    await screenshot(ana, 'routing-load-lands-in-meus');

    // Nobody answers for the department's waiting time (1 min on the server's clock).
    expect(await card(vendas).count()).toBe(0);
    clock.advance(61_000);
    await t.server.services.scheduler.tick();
    const queued = card(vendas);
    await queued.waitFor({ timeout: 20_000 });
    await card(ana).waitFor({ state: 'detached', timeout: 20_000 });
    const moved = (await t.api(`/api/rooms/${roomId}`, { token: t.tokens.admin })).body.data as Room;
    expect(moved).toMatchObject({ departmentId: 'vendas', inAttend: false, agents: [] });
    await screenshot(vendas, 'routing-transhipped-to-vendas-fila');
    // The system note tells why, in the chat vendas' agent opens.
    await queued.click();
    await vendas.locator(`[data-chat-pane="${roomId}"]`).getByText('Chat transferido para a fila Vendas', { exact: false }).waitFor({ timeout: 20_000 });
    await screenshot(vendas, 'routing-transhipment-note');
  });
});
