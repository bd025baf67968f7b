import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_TAB_BY_ID } from '@atendimento/schemas';
import { startChatServer, stopChatServer, type ChatTest } from '../server/chat/chat-helpers';
import { launchBrowser, screenshot } from './browser';
import { signIn, showTab } from './shell-helpers';

/**
 * The chat list in Chromium against the real server: a filter narrows the list (tags), a
 * new chat arriving while the page is hidden shows the browser notification 'Novo Chat', and
 * the chat in front is in the address (a reload opens it again).
 */
let t: ChatTest;
let browser: Browser;
let consoleUrl: string;
const POLL = { timeout: 15_000 };
const TAB = { queue: CHAT_TAB_BY_ID.queuesChats.label };

beforeAll(async () => {
  t = await startChatServer({ staticDir: path.resolve('engine/dist') });
  consoleUrl = `http://${t.hosts.acme}`;
  const iso = t.server.clock.now().toISOString();
  await t.server.db('tags').insert(['vip', 'comum'].map((id) => ({ id, tenant_id: 'acme', name: id === 'vip' ? 'VIP' : 'Comum', active: true, data: JSON.stringify({ name: id === 'vip' ? 'VIP' : 'Comum', active: true, color: '#1976D2FF', department: null }), created_at: iso, updated_at: iso, deleted_at: null })));
  await t.patchAppConfig({ claims: { publicRegister: true, queues: true } });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await stopChatServer(t);
});

async function visitor(name: string, site = 'site-vendas'): Promise<string> {
  const session = await t.api(`/api/webchat/${site}/session`, { method: 'POST', body: { text: `Olá, sou ${name}`, displayName: name, clientId: randomUUID() } });
  expect(session.status, session.text).toBe(200);
  return session.body.data.roomId as string;
}

async function consolePage(email: string, options: { notifications?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'pt-BR' });
  if (options.notifications) {
    // This headless Chromium refuses to grant 'notifications' (Browser.grantPermissions: "can't
    // be granted in current context"), so the page gets a granted Notification that records
    // what it is asked to show; and the test can hide the page (document.visibilityState).
    await context.addInitScript(() => {
      const w = window as unknown as { __notices: { title: string; body?: string }[]; __hidden: boolean; Notification: unknown };
      w.__notices = [];
      w.__hidden = false;
      w.Notification = class {
        static permission = 'granted';
        static requestPermission = async () => 'granted';
        constructor(title: string, options?: { body?: string }) {
          w.__notices.push({ title, body: options?.body });
        }
        close() {}
      };
      Object.defineProperty(document, 'visibilityState', { get: () => (w.__hidden ? 'hidden' : 'visible') });
      Object.defineProperty(document, 'hidden', { get: () => w.__hidden });
    });
  }
  const page = await context.newPage();
  await signIn(page, consoleUrl, email);
  await page.getByRole('tablist', { name: 'Abas de chats' }).waitFor();
  return page;
}

const card = (page: Page, roomId: string) => page.locator(`[aria-label="Lista de chats"] [data-room-id="${roomId}"]`);

describe('chat list', () => {
  it('a tag filter narrows the queue to the chats with that tag', async () => {
    const vip = await visitor('Vera VIP');
    const comum = await visitor('Caio Comum');
    for (const [roomId, tag] of [[vip, 'vip'], [comum, 'comum']] as const) {
      expect((await t.api(`/api/rooms/${roomId}`, { method: 'PATCH', body: { tags: [tag] }, token: t.tokens.admin })).status).toBe(200);
    }
    const page = await consolePage('agente@acme.test');
    await showTab(page, TAB.queue);
    await card(page, vip).waitFor(POLL);
    await card(page, comum).waitFor(POLL);

    await page.getByRole('button', { name: 'Filtros' }).click();
    await page.getByRole('combobox', { name: 'Tags' }).click();
    await page.getByRole('option', { name: 'VIP' }).click();
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await card(page, comum).waitFor({ state: 'detached', ...POLL });
    await card(page, vip).waitFor(POLL);
    await screenshot(page, 'console-list-tag-filter');
  }, 90_000);

  it("a new chat arriving while the page is hidden shows the browser notification 'Novo Chat'", async () => {
    const page = await consolePage('agente@acme.test', { notifications: true });
    expect(await page.evaluate(() => Notification.permission)).toBe('granted');
    await showTab(page, TAB.queue);
    // The queue from the first test is listed: the console's subscriptions are live.
    await page.locator('[aria-label="Lista de chats"] [data-room-id]').first().waitFor(POLL);
    await page.evaluate(() => {
      (window as unknown as { __hidden: boolean }).__hidden = true;
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await visitor('Nádia Notificada');
    await expect.poll(() => page.evaluate(() => (window as unknown as { __notices: { title: string; body?: string }[] }).__notices), POLL).toContainEqual({ title: 'Novo Chat', body: 'Nádia Notificada' });
  }, 90_000);

  it('the chat in front is in the address: a reload opens it again; a chat the agent may not see opens nothing', async () => {
    const mine = await visitor('Renata Recarga');
    // Suporte's queue: not agente@'s department.
    const theirs = await visitor('Otávio Outro', 'site-suporte');
    const page = await consolePage('agente@acme.test');
    await showTab(page, TAB.queue);
    await card(page, mine).click();
    await page.waitForURL((url) => url.searchParams.get('chat') === mine, POLL);
    await page.reload();
    await page.locator(`[data-pane="${mine}"]`).getByRole('heading', { name: 'Renata Recarga' }).waitFor(POLL);
    await screenshot(page, 'console-list-chat-in-address');
    // The address grants nothing: the pane's subscription is refused, it closes, the address clears.
    await page.goto(`${consoleUrl}/?chat=${theirs}`);
    await page.getByRole('tablist', { name: 'Abas de chats' }).waitFor();
    await page.waitForURL((url) => url.pathname === '/' && !url.searchParams.has('chat'), POLL);
    expect(await page.locator('[data-pane]').count()).toBe(0);
    expect(await page.getByText('Otávio Outro').count()).toBe(0);
  }, 90_000);
});
