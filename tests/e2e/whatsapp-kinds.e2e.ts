import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_TAB_BY_ID, messages as seedTexts } from '@atendimento/schemas';
import { customerMessage, startMetaGraphServer, type MetaGraphServer } from '@atendimento/integrations/providers/meta-graph-server';
import { toJson } from '@atendimento/server/db/knex';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { launchBrowser, screenshot } from './browser';
import { newPage, signIn } from './shell-helpers';

/**
 * The console as its users meet WhatsApp in Chromium: every message kind a customer sends
 * (catalog order, a number change, a poll WhatsApp cannot deliver, a flow's answers) reaches the
 * open chat as a bubble in pt-BR; an agent opening chats never gets a 403; a sent bubble is
 * never shown twice; a supervisor's ten tabs fit a 900 px high window.
 */
const META = { appSecret: 'segredo-e2e-tipos', verifyToken: 'verifica-e2e-tipos', accessToken: 'token-e2e-tipos', phoneNumberId: 'PN-TIPOS', businessAccountId: 'WABA-TIPOS' };
const CHANNEL = 'wa-tipos';
const CUSTOMER = { phone: '5511976543210', name: 'Olga Compradora' };
const POLL = { timeout: 15_000 };
const k = seedTexts.whatsappKinds;

let t: TestServer;
let graph: MetaGraphServer;
let browser: Browser;

beforeAll(async () => {
  graph = await startMetaGraphServer({ ...META, statusDelayMs: 40 });
  t = await startTestServer({ staticDir: path.resolve('engine/dist'), env: { PROVIDER_TRUSTED_HOSTS: new URL(graph.baseUrl).host } });
  const iso = t.server.clock.now().toISOString();
  await t.server.db('channels').insert({
    id: CHANNEL, tenant_id: 'acme', type: 'meta', display_name: 'WhatsApp Tipos', active: true, created_at: iso, updated_at: iso, deleted_at: null,
    data: toJson({ id: CHANNEL, type: 'meta', displayName: 'WhatsApp Tipos', active: true, hide: false, color: '#25D366', menuOrder: 0, migrated: true, claims: {}, departmentId: 'vendas', phoneNumber: '5511999990000', provider: { baseUrl: graph.baseUrl, apiVersion: 'v21.0', ...META } }),
  });
  graph.setWebhookUrl(`http://${t.hosts.acme.replace(/^acme\.test/, '127.0.0.1')}/api/webhooks/whatsapp/${CHANNEL}`);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await graph?.close();
});

async function says(input: Parameters<typeof customerMessage>[0], phone = CUSTOMER.phone, last?: string): Promise<string> {
  const built = customerMessage(input, phone, last);
  if ('error' in built) throw new Error(built.error);
  const id = await graph.customerSays({ phone, name: CUSTOMER.name }, built.message);
  expect(graph.webhookResults.at(-1)?.status).toBe(200);
  return id;
}

/** The agent of vendas, signed in, with every 4xx answer the page received. */
async function agentPage(): Promise<{ page: Page; refused: string[] }> {
  const { page } = await newPage(browser);
  const refused: string[] = [];
  await signIn(page, `http://${t.hosts.acme}`, 'agente@acme.test');
  // From here on (the sign-in page's own refresh attempt answers 401 by design).
  page.on('response', (r) => { if (r.status() >= 400 && r.url().includes('/api/')) refused.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`); });
  await page.getByRole('tablist', { name: 'Abas de chats' }).waitFor();
  return { page, refused };
}

describe('WhatsApp in the console, as each user meets it', () => {
  it('an order, a number change, an undeliverable poll and a flow reply show as pt-BR bubbles; opening the chat asks nothing the agent may not read', async () => {
    await says({ text: 'Oi! Quero fazer um pedido.' });
    const { page, refused } = await agentPage();
    await page.getByRole('tablist', { name: 'Abas de chats' }).getByRole('tab', { name: CHAT_TAB_BY_ID.queuesChats.label, exact: true }).click();
    const card = page.locator('[aria-label="Lista de chats"] [data-room-id]', { hasText: CUSTOMER.name });
    await card.waitFor();
    await card.click();
    const log = page.getByRole('log', { name: 'Mensagens' });
    await log.getByText('Oi! Quero fazer um pedido.').waitFor();

    await says({ kind: 'order', text: 'Entregar no portão' });
    await says({ kind: 'unsupported' });
    await says({ kind: 'flow', text: 'Pode deixar com o porteiro' });
    await says({ kind: 'changeNumber', newPhone: '5521987651234' });
    await expect.poll(() => log.locator('[data-order-item]').count(), POLL).toBe(2);
    await expect.poll(() => log.locator('[data-order] strong').textContent(), POLL).toBe('Total: R$\u00a088,90');
    await log.getByText(k.unsupportedTitle.replace('{kind}', 'uma enquete')).waitFor();
    await log.getByText(k.unsupportedHint).waitFor();
    await log.getByText('Pode deixar com o porteiro').waitFor();
    await log.getByText(k.numberChanged.replace('{old}', '+55 (11) 97654.3210').replace('{new}', '+55 (21) 98765.1234')).waitFor();
    // The same chat goes on from the new number.
    await says({ text: 'Agora estou neste número' }, '5521987651234');
    await log.getByText('Agora estou neste número').waitFor();
    await screenshot(page, 'whatsapp-kinds-open-chat');
    expect(refused).toEqual([]);
  });

  it('a sent bubble on a WhatsApp chat is never shown twice, from the key press to the read tick', async () => {
    // The agent takes the chat (the customer now writes from 5521987651234).
    const token = await t.tokenFor('acme', 'acme-agente');
    const room = (await t.api('/api/rooms/chatid/5521987651234', { token })).body.data[0];
    expect((await t.api(`/api/rooms/${room.id}/push`, { method: 'PATCH', body: {}, token })).status).toBe(200);
    const { page, refused } = await agentPage();
    await page.getByRole('tablist', { name: 'Abas de chats' }).getByRole('tab', { name: CHAT_TAB_BY_ID.userChats.label, exact: true }).click();
    await page.locator(`[aria-label="Lista de chats"] [data-room-id="${room.id}"]`).click();
    const box = page.getByRole('textbox', { name: 'Digite uma mensagem' });
    await box.waitFor();
    for (let i = 1; i <= 4; i++) {
      const text = `Resposta número ${i} para a Olga`;
      // Count the bubbles with this text on every animation frame until the read tick.
      await page.evaluate((wanted) => {
        const w = window as unknown as { __maxBubbles: number; __watch: boolean };
        w.__maxBubbles = 0;
        w.__watch = true;
        const tick = () => {
          const n = [...document.querySelectorAll('[data-message-id]')].filter((b) => b.textContent?.includes(wanted)).length;
          w.__maxBubbles = Math.max(w.__maxBubbles, n);
          if (w.__watch) requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }, text);
      await box.fill(text);
      await box.press('Enter');
      const bubble = page.locator('[data-message-id]', { hasText: text });
      await expect.poll(() => bubble.first().locator('[data-delivery]').getAttribute('data-delivery'), POLL).toBe('read');
      const max = await page.evaluate(() => {
        const w = window as unknown as { __maxBubbles: number; __watch: boolean };
        w.__watch = false;
        return w.__maxBubbles;
      });
      expect(max, text).toBe(1);
    }
    expect(refused).toEqual([]);
  });

  it("a supervisor's ten tabs fit a 900 px high window: 'Todas Filas' and 'Interno' are whole", async () => {
    const claims = (await t.server.repos.tenants.findById('acme'))!.appConfig.claims;
    await t.patchAppConfig({ claims: { ...claims, inbox: true, enableBotTab: true, enableAllQueuesTab: true } });
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'pt-BR' });
      const page = await context.newPage();
      await signIn(page, `http://${t.hosts.acme}`, 'supervisor@acme.test');
      const tablist = page.getByRole('tablist', { name: 'Abas de chats' });
      await tablist.waitFor();
      const tabs = tablist.getByRole('tab');
      await expect.poll(() => tabs.count(), POLL).toBe(10);
      // The column's visible box: its scroller (MUI's), not the list inside it.
      const column = await tablist.evaluate((el) => {
        const box = (el.closest('.MuiTabs-root') ?? el).getBoundingClientRect();
        return { top: box.top, bottom: box.bottom };
      });
      for (const name of [CHAT_TAB_BY_ID.allQueuesChats.label, CHAT_TAB_BY_ID.internalChats.label]) {
        const box = (await tablist.getByRole('tab', { name, exact: true }).boundingBox())!;
        expect(box.y, name).toBeGreaterThanOrEqual(column.top - 0.5);
        expect(box.y + box.height, name).toBeLessThanOrEqual(column.bottom + 0.5);
      }
      await screenshot(page, 'whatsapp-kinds-supervisor-tabs-900');
      await context.close();
    } finally {
      await t.patchAppConfig({ claims });
    }
  });
});
