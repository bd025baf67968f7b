import path from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_TAB_BY_ID, messages as seedTexts, surveyQuestion, type Room } from '@atendimento/schemas';
import { startMetaGraphServer, type MetaGraphServer } from '@atendimento/integrations/providers/meta-graph-server';
import { toJson } from '@atendimento/server/db/knex';
import { startChatServer, stopChatServer, JUSTIFIES, type ChatTest } from '../server/chat/chat-helpers';
import { startCustomerSite, type CustomerSite } from './customer-site';
import { launchBrowser, screenshot } from './browser';
import { newPage, signIn } from './shell-helpers';

/**
 * Close with an NPS survey (docs/console-operations.md "Surveys") in Chromium: the agent of
 * suporte closes the visitor's chat with 'Encerrar com pesquisa NPS', the visitor answers 9 in
 * the web-chat widget on the customer's site, and the answer shows in the closed chat
 * ('Observação NPS/CSAT') to an admin but not to the plain agent. Then the same on WhatsApp:
 * the customer of the local Meta provider answers 3 with a comment.
 */
let t: ChatTest;
let browser: Browser;
let site: CustomerSite | undefined;
let graph: MetaGraphServer;
let consoleUrl: string;
const POLL = { timeout: 15_000 };
const VISITOR = 'Rita Pesquisa';
const META = { appSecret: 'segredo-do-app-meta-pesquisa', verifyToken: 'verificacao-pesquisa', accessToken: 'token-graph-pesquisa', phoneNumberId: 'PN-PESQUISA', businessAccountId: 'WABA-PESQUISA' };
const CUSTOMER = { phone: '5511944447777', name: 'Paula WhatsApp' };

beforeAll(async () => {
  graph = await startMetaGraphServer({ ...META, statusDelayMs: 50 });
  t = await startChatServer({ staticDir: path.resolve('engine/dist'), env: { PROVIDER_TRUSTED_HOSTS: new URL(graph.baseUrl).host } });
  consoleUrl = `http://${t.hosts.acme}`;
  // A WhatsApp channel of suporte on the local Meta provider.
  const iso = t.server.clock.now().toISOString();
  await t.server.db('channels').insert({
    id: 'wa-suporte', tenant_id: 'acme', type: 'meta', display_name: 'WhatsApp Suporte', active: true, created_at: iso, updated_at: iso, deleted_at: null,
    data: toJson({
      id: 'wa-suporte', type: 'meta', displayName: 'WhatsApp Suporte', active: true, hide: false, color: '#25D366', menuOrder: 0, migrated: true, claims: {},
      departmentId: 'suporte', phoneNumber: '5511999990000', provider: { baseUrl: graph.baseUrl, apiVersion: 'v21.0', ...META },
    }),
  });
  graph.setWebhookUrl(`${t.baseUrl}/api/webhooks/whatsapp/wa-suporte`);
  await t.patchAppConfig({ claims: { publicRegister: true, queues: true, askResearch: true } });
  site = await startCustomerSite(t.baseUrl);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
  await stopChatServer(t);
  await graph?.close();
});

async function openConsole(email: string): Promise<{ page: Page; errors: string[]; close(): Promise<void> }> {
  const { context, page } = await newPage(browser);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await signIn(page, consoleUrl, email);
  await page.getByRole('tablist', { name: 'Abas de chats' }).waitFor();
  return { page, errors, close: () => context.close() };
}

async function openFromTab(page: Page, tabLabel: string, roomId: string, name = VISITOR) {
  await page.getByRole('tablist', { name: 'Abas de chats' }).getByRole('tab', { name: tabLabel, exact: true }).click();
  await page.locator(`[aria-label="Lista de chats"] [data-room-id="${roomId}"]`).click();
  const pane = page.locator(`[data-chat-pane="${roomId}"]`);
  await pane.getByRole('heading', { name }).waitFor();
  return pane;
}

/** 'Encerrar com pesquisa NPS' from the chat menu, with the first justification. */
async function closeWithNps(page: Page, pane: ReturnType<Page['locator']>) {
  await pane.getByRole('button', { name: 'Opções do chat' }).click();
  await page.getByRole('menuitem', { name: seedTexts.survey.closeNps }).click();
  const dialog = page.getByRole('dialog', { name: seedTexts.survey.titleNps });
  await dialog.getByRole('combobox', { name: 'Justificativa' }).click();
  await page.getByRole('option', { name: JUSTIFIES[0] }).click();
  await dialog.getByRole('button', { name: 'Encerrar', exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
  await pane.getByText('Chat encerrado').waitFor(POLL);
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
    await closeWithNps(agent.page, pane);

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
    await expect.poll(() => adminPane.locator('[data-survey="nps"]').textContent(), POLL).toBe('NPS: 9');
    await adminPane.locator('[data-survey="nps"]').click();
    const observation = admin.page.getByRole('dialog', { name: seedTexts.chat.npsObservation });
    await observation.waitFor(POLL);
    await screenshot(admin.page, 'console-survey-admin-history');
    await observation.getByRole('button', { name: 'Fechar' }).click();
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

describe('close with an NPS survey answered on WhatsApp', () => {
  it('the customer answers 3 on the local provider; an admin reads it in the history, a plain agent does not', async () => {
    await graph.customerSays(CUSTOMER, { type: 'text', text: { body: 'Quero cancelar meu plano' } });
    const roomId = await expect.poll(async () => (await t.server.db('rooms').where({ tenant_id: 'acme', chat_id: CUSTOMER.phone }).first('id'))?.id, POLL).toBeTruthy()
      .then(async () => String((await t.server.db('rooms').where({ tenant_id: 'acme', chat_id: CUSTOMER.phone }).first('id')).id));
    expect((await t.api(`/api/rooms/${roomId}/push`, { method: 'PATCH', body: {}, token: t.tokens.suporte })).status).toBe(200);

    const agent = await openConsole('suporte@acme.test');
    const pane = await openFromTab(agent.page, CHAT_TAB_BY_ID.userChats.label, roomId, CUSTOMER.name);
    await closeWithNps(agent.page, pane);

    // The question reaches the customer's phone through the provider; the customer answers 3 with a comment.
    const question = surveyQuestion({ claims: {} }, 'nps');
    const texts = () => graph.sent.filter((m) => m.to === CUSTOMER.phone && m.body.type === 'text').map((m) => (m.body.text as { body: string }).body);
    await expect.poll(texts, POLL).toContain(question);
    await graph.customerSays(CUSTOMER, { type: 'text', text: { body: '3 - demorou muito' } });
    await expect.poll(async () => ((await t.api(`/api/rooms/${roomId}`, { token: t.tokens.admin })).body.data as Room).nps?.value, POLL).toBe(3);
    await expect.poll(texts, POLL).toContain(seedTexts.survey.thanks);

    const admin = await openConsole('admin@acme.test');
    const adminPane = await openFromTab(admin.page, CHAT_TAB_BY_ID.chatsHistories.label, roomId, CUSTOMER.name);
    await expect.poll(() => adminPane.locator('[data-survey="nps"]').textContent(), POLL).toBe('NPS: 3');
    await adminPane.locator('[data-survey="nps"]').click();
    const observation = admin.page.getByRole('dialog', { name: seedTexts.chat.npsObservation });
    await observation.getByText('demorou muito').waitFor(POLL);
    await screenshot(admin.page, 'console-survey-whatsapp-admin-history');
    await observation.getByRole('button', { name: 'Fechar' }).click();
    // The plain agent's closed chat has no survey block, and the API gave it no score either.
    await agent.page.locator(`[data-chat-pane="${roomId}"] [data-chat-header]`).waitFor();
    expect(await agent.page.locator(`[data-chat-pane="${roomId}"] [data-survey-results]`).count()).toBe(0);
    expect(((await t.api(`/api/rooms/${roomId}`, { token: t.tokens.suporte })).body.data as Room).nps).toBeUndefined();

    expect(agent.errors).toEqual([]);
    expect(admin.errors).toEqual([]);
    await agent.close();
    await admin.close();
  });
});
