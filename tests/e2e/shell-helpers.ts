import { expect } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { TEST_PASSWORD } from '../helpers/test-server';
import { screenshot } from './browser';

/** A fresh browser profile (own cookies and storage) with a desktop-sized page. */
export async function newPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'pt-BR' });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error('pageerror:', error.message));
  return { context, page };
}

/** Signs in through /login and waits for the app's toolbar. */
export async function signIn(page: Page, baseUrl: string, email: string, password = TEST_PASSWORD): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Senha', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Entrar', exact: true }).click();
  await page.getByRole('navigation', { name: 'Menu' }).waitFor();
}

/** The names of the drawer's route entries (the buttons above the divider, in order). */
export async function drawerEntries(page: Page): Promise<string[]> {
  const nav = page.getByRole('navigation', { name: 'Menu' });
  return nav.locator('[data-route]').evaluateAll((items) => items.map((item) => item.getAttribute('aria-label') ?? ''));
}

/** Waits until the browser is at `path` (pathname + search). */
export async function waitForPath(page: Page, path: string): Promise<void> {
  await page.waitForURL((url) => url.pathname + url.search === path, { timeout: 15_000 });
  expect(new URL(page.url()).pathname).toBe(path.split('?')[0]);
}

/**
 * Waits until no CSS transition or animation runs: the drawer's width grows for ~200 ms and a
 * click computed at the start of it lands where the button no longer is.
 */
export async function animationsDone(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, { timeout: 5_000 });
}

/** A form text box by its label, ignoring the required mark ('Nome *' is not 'Nome Completo'). */
export const textBox = (page: Page, label: string) => page.getByRole('textbox', { name: new RegExp(`^${label}\\s*\\*?$`) });

/** A full-page screenshot from the top (scrolled, the fixed app bar would be drawn mid-page). */
export async function topScreenshot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

/** In-app navigation without a reload (react-router listens to popstate). */
export async function goTo(page: Page, to: string): Promise<void> {
  await page.evaluate((url) => {
    window.history.pushState({}, '', url);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, to);
  await waitForPath(page, to);
}

/** Waits for the toast with `text`, closes it, and answers its class (which names the severity). */
export async function closeToast(page: Page, text: string | RegExp): Promise<string> {
  const alert = page.getByRole('alert').filter({ hasText: text }).first();
  await alert.waitFor();
  const severity = (await alert.getAttribute('class')) ?? '';
  // Identical toasts on screen are not stacked twice: close it so the next save shows its own.
  await alert.getByRole('button', { name: 'Fechar' }).click();
  await alert.waitFor({ state: 'detached' });
  return severity;
}

/** Opens a chat tab of the console and waits until the list shows it (its title). */
export async function showTab(page: Page, label: string): Promise<void> {
  await page.getByRole('tablist', { name: 'Abas de chats' }).getByRole('tab', { name: label, exact: true }).click();
  await page.waitForFunction((l) => document.querySelector('[aria-label="Lista de chats"] .MuiTypography-subtitle2')?.textContent === l, label);
}

/**
 * In the console: opens a chat of the chat list by its id, waits for its header (the contact's
 * name) and opens its contact drawer from the header's avatar.
 */
export async function openChatDrawer(page: Page, roomId: string, name: string): Promise<{ pane: Locator; drawer: Locator }> {
  const poll = { timeout: 15_000 };
  await page.locator(`[aria-label="Lista de chats"] [data-room-id="${roomId}"]`).click(poll);
  const pane = page.locator(`[data-chat-pane="${roomId}"]`);
  await pane.getByRole('heading', { name }).waitFor(poll);
  await pane.getByRole('button', { name: 'Contato', exact: true }).click();
  return { pane, drawer: page.getByRole('complementary', { name: 'Contato' }) };
}
