import path from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_TAB_BY_ID, messages as seedTexts, surveyQuestion, type Room } from '@atendimento/schemas';
import { startChatServer, stopChatServer, JUSTIFIES, type ChatTest } from '../server/chat/chat-helpers';
import { startCustomerSite, type CustomerSite } from './customer-site';
import { launchBrowser, screenshot } from './browser';
import { newPage, signIn } from './shell-helpers';

/**
 * Close with an NPS survey (docs/console-operations.md "Surveys") in Chromium: the agent of
 * suporte closes the visitor's chat with 'Encerrar com pesquisa NPS', the visitor answers 9 in
 * the web-chat widget on the customer's site, and the answer shows in the closed chat
 * ('Observação NPS/CSAT') to an admin but not to the plain agent. The WhatsApp answer is
 * tests/server/whatsapp/whatsapp-survey.spec.ts (local provider).
 */
let t: ChatTest;
let browser: Browser;
let site: CustomerSite | undefined;
let consoleUrl: string;
const POLL = { timeout: 15_000 };
const VISITOR = 'Rita Pesquisa';

beforeAll(async () => {
  t = await startChatServer({ staticDir: path.resolve('engine/dist') });
  consoleUrl = `http://${t.hosts.acme}`;
  await t.patchAppConfig({ claims: { publicRegister: true, queues: true, askResearch: true } });
  site = await startCustomerSite(t.baseUrl);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
  await stopChatServer(t);
});

async function openConsole(email: string): Promise<{ page: Page; errors: string[]; close(): Promise<void> }> {
  const { context, page } = await newPage(browser);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await signIn(page, consoleUrl, email);
  await page.getByRole('tablist', { name: 'Abas de chats' }).waitFor();
  return { page, errors, close: () => context.close() };
}

async function openFromTab(page: Page, tabLabel: string, roomId: string) {
  await page.getByRole('tablist', { name: 'Abas de chats' }).getByRole('tab', { name: tabLabel, exact: true }).click();
  await page.locator(`[aria-label="Lista de chats"] [data-room-id="${roomId}"]`).click();
  const pane = page.locator(`[data-chat-pane="${roomId}"]`);
  await pane.getByRole('heading', { name: VISITOR }).waitFor();
  return pane;
}

async function widgetFrame(page: Page): Promise<Frame> {
  const handle = await page.waitForSelector('iframe[src*="/api/webchat/site-suporte/page"]');
  const frame = await handle.contentFrame();
  if (!frame) throw new Error('widget iframe has no frame');
  return frame;
}

describe('close with an NPS survey answered on the web chat', () => {
  it('the visitor answers 9; an admin reads it in the history, a plain agent does not', async () => {
    const visitor = await browser.newPage({ viewport: { width: 1000, height: 760 } });
    const visitorErrors: string[] = [];
    visitor.on('pageerror', (e) => visitorErrors.push(e.message));
    await visitor.goto(site!.url);
    await visitor.click(`button[aria-label="${seedTexts.webchat.open}"]`);
    const widget = await widgetFrame(visitor);
    await widget.waitForSelector('#start:not([hidden])');
    await widget.fill('#name', VISITOR);
    await widget.fill('#first', 'Minha internet caiu');
    await widget.click('#start-send');
    await widget.waitForSelector('#composer:not([hidden])');
    const roomId = await expect.poll(async () => (await t.server.db('rooms').where({ tenant_id: 'acme', author_name: 'rita pesquisa' }).first('id'))?.id, POLL).toBeTruthy()
      .then(async () => String((await t.server.db('rooms').where({ tenant_id: 'acme', author_name: 'rita pesquisa' }).first('id')).id));
    expect((await t.api(`/api/rooms/${roomId}/push`, { method: 'PATCH', body: {}, token: t.tokens.suporte })).status).toBe(200);

    // The agent closes with the NPS survey.
    const agent = await openConsole('suporte@acme.test');
    const pane = await openFromTab(agent.page, CHAT_TAB_BY_ID.userChats.label, roomId);
    await pane.getByRole('button', { name: 'Opções do chat' }).click();
    await agent.page.getByRole('menuitem', { name: seedTexts.survey.closeNps }).click();
    const dialog = agent.page.getByRole('dialog', { name: seedTexts.survey.titleNps });
    await dialog.getByRole('combobox', { name: 'Justificativa' }).click();
    await agent.page.getByRole('option', { name: JUSTIFIES[0] }).click();
    await dialog.getByRole('button', { name: 'Encerrar', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await pane.getByText('Chat encerrado').waitFor(POLL);

    // The visitor gets the question, the composer stays for the answer, and answers 9.
    const question = surveyQuestion({ claims: {} }, 'nps');
    await widget.waitForFunction((text) => document.getElementById('messages')!.textContent!.includes(text), question);
    await widget.waitForSelector('#composer:not([hidden])');
    await widget.fill('#text', '9');
    await widget.press('#text', 'Enter');
    await widget.waitForFunction((text) => document.getElementById('messages')!.textContent!.includes(text), seedTexts.survey.thanks);
    await screenshot(visitor, 'console-survey-widget-answered');
    await expect.poll(async () => ((await t.api(`/api/rooms/${roomId}`, { token: t.tokens.admin })).body.data as Room).nps?.value, POLL).toBe(9);

    // An admin reads it in the closed chat; the plain agent's header has no survey block.
    const admin = await openConsole('admin@acme.test');
    const adminPane = await openFromTab(admin.page, CHAT_TAB_BY_ID.chatsHistories.label, roomId);
    await adminPane.getByText(seedTexts.chat.npsObservation).waitFor(POLL);
    await expect.poll(() => adminPane.locator('[data-survey="nps"]').textContent(), POLL).toContain('NPS: 9');
    await screenshot(admin.page, 'console-survey-admin-history');
    await agent.page.locator(`[data-chat-pane="${roomId}"] [data-chat-header]`).waitFor();
    await agent.page.waitForTimeout(500);
    expect(await agent.page.locator(`[data-chat-pane="${roomId}"] [data-survey-results]`).count()).toBe(0);

    expect(agent.errors).toEqual([]);
    expect(admin.errors).toEqual([]);
    expect(visitorErrors).toEqual([]);
    await agent.close();
    await admin.close();
    await visitor.close();
  });
});
