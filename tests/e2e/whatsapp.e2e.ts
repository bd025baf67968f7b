import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_TAB_BY_ID, messages as seedTexts } from '@atendimento/schemas';
import { startMetaGraphServer, type MetaGraphServer } from '@atendimento/integrations/providers/meta-graph-server';
import { toJson } from '@atendimento/server/db/knex';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { launchBrowser, screenshot } from './browser';
import { stripesPng } from './stripes-png';
import { newPage, signIn } from './shell-helpers';

/**
 * End to end in Chromium: a customer (played by the local Meta Graph
 * server) writes on WhatsApp — a signed webhook to the real server; the agent of suporte,
 * signed in to the real console (engine build), sees the chat arrive in 'Fila' live, enters,
 * replies with text and an image; the local Meta server receives both sends (bodies asserted),
 * posts signed status webhooks sent → delivered → read, and the console's ticks reach 'Lida'.
 */
const META = { appSecret: 'segredo-do-app-meta-e2e', verifyToken: 'verificacao-e2e', accessToken: 'token-graph-e2e', phoneNumberId: 'PN-E2E', businessAccountId: 'WABA-E2E' };
const CHANNEL = 'wa-suporte';
const CUSTOMER = { phone: '5511987654321', name: 'Carla Cliente' };
const FIRST = 'Oi! Meu boleto venceu, podem gerar outro?';
const REPLY = 'Olá, Carla! Claro, segue a segunda via.';
const CAPTION = 'Segunda via do boleto';
const POLL = { timeout: 15_000 };
const TAB = { queue: CHAT_TAB_BY_ID.queuesChats.label };

let t: TestServer;
let graph: MetaGraphServer;
let browser: Browser;

/** The stripes of the image the agent sends. */
const IMAGE_COLOURS = [[37, 211, 102], [18, 140, 126], [7, 94, 84], [52, 183, 241]] as const;

beforeAll(async () => {
  // Statuses a little apart, so the console goes through the ticks rather than jumping to read.
  graph = await startMetaGraphServer({ ...META, statusDelayMs: 250 });
  t = await startTestServer({ staticDir: path.resolve('engine/dist'), env: { PROVIDER_TRUSTED_HOSTS: new URL(graph.baseUrl).host } });
  const iso = t.server.clock.now().toISOString();
  await t.server.db('channels').insert({
    id: CHANNEL, tenant_id: 'acme', type: 'meta', display_name: 'WhatsApp Suporte', active: true, created_at: iso, updated_at: iso, deleted_at: null,
    data: toJson({
      id: CHANNEL, type: 'meta', displayName: 'WhatsApp Suporte', active: true, hide: false, color: '#25D366', menuOrder: 0, migrated: true, claims: {},
      departmentId: 'suporte', phoneNumber: '5511999990000', provider: { baseUrl: graph.baseUrl, apiVersion: 'v21.0', ...META },
    }),
  });
  graph.setWebhookUrl(`http://${t.hosts.acme.replace(/^acme\.test/, '127.0.0.1')}/api/webhooks/whatsapp/${CHANNEL}`);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await graph?.close();
});

function card(page: Page) {
  return page.locator('[aria-label="Lista de chats"] [data-room-id]', { hasText: CUSTOMER.name });
}

describe('the agent console with a WhatsApp (Meta Cloud API) customer', () => {
  it('live queue, enter, text and image reply sent to the provider, ticks reach read', async () => {
    const { context, page } = await newPage(browser);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await signIn(page, `http://${t.hosts.acme}`, 'suporte@acme.test');
    await page.getByRole('tablist', { name: 'Abas de chats' }).waitFor();
    await page.getByRole('tablist', { name: 'Abas de chats' }).getByRole('tab', { name: TAB.queue, exact: true }).click();
    await page.waitForFunction((l) => document.querySelector('[aria-label="Lista de chats"] .MuiTypography-subtitle2')?.textContent === l, TAB.queue);
    await page.getByText(seedTexts.chat.emptyList).waitFor();
    await page.evaluate(() => { (window as unknown as { __sameDocument: boolean }).__sameDocument = true; });

    // The customer writes on WhatsApp: Meta posts a signed webhook; the server answers 200 after commit.
    const inboundId = await graph.customerSays(CUSTOMER, { type: 'text', text: { body: FIRST } });
    expect(graph.webhookResults.at(-1)?.status).toBe(200);

    // It arrives in 'Fila' over /ws without a reload.
    const queued = card(page);
    await queued.waitFor();
    await expect.poll(() => queued.locator('[data-last-message]').textContent(), POLL).toContain(FIRST);
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    // The card names the channel and shows the customer's WhatsApp number.
    await queued.getByText('WhatsApp', { exact: true }).waitFor();
    await queued.getByText('+55 (11) 98765.4321').waitFor();
    const roomId = (await queued.getAttribute('data-room-id'))!;
    expect(roomId).toBeTruthy();
    await screenshot(page, 'whatsapp-queue-new-chat');

    // The agent takes the chat.
    await queued.click();
    const pane = page.locator(`[data-chat-pane="${roomId}"]`);
    await pane.getByRole('heading', { name: CUSTOMER.name }).waitFor();
    await pane.getByText(FIRST).waitFor();
    await pane.getByRole('button', { name: 'Entrar no chat' }).click();
    const box = pane.getByRole('textbox', { name: 'Digite uma mensagem' });
    await box.waitFor();
    await card(page).waitFor({ state: 'detached' });

    // Records every tick state the agent's messages show, to see them move (not only the end).
    await page.evaluate((id) => {
      const seen: string[] = [];
      (window as unknown as { __ticks: string[] }).__ticks = seen;
      const root = document.querySelector(`[data-chat-pane="${id}"]`)!;
      const note = () => root.querySelectorAll('[data-author-kind="ownAgent"] [data-delivery]').forEach((el) => {
        const state = el.getAttribute('data-delivery')!;
        if (seen.at(-1) !== state) seen.push(state);
      });
      new MutationObserver(note).observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-delivery'] });
    }, roomId);

    // Text from the composer (Enter sends).
    await box.fill(REPLY);
    await box.press('Enter');
    await expect.poll(() => box.inputValue(), POLL).toBe('');
    await pane.getByText(REPLY).waitFor();

    // An image: 'Anexar' → 'Fotos e vídeos' → 'Pré-visualizar' with caption → 'Enviar'.
    await pane.getByRole('button', { name: 'Anexar' }).click();
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('menuitem', { name: 'Fotos e vídeos' }).click()]);
    await chooser.setFiles({ name: 'segunda-via.png', mimeType: 'image/png', buffer: stripesPng(IMAGE_COLOURS) });
    const preview = page.getByRole('dialog', { name: 'Pré-visualizar' });
    await preview.waitFor();
    await preview.getByRole('textbox', { name: `${seedTexts.chat.captionPlaceholder} segunda-via.png` }).fill(CAPTION);
    await preview.getByRole('button', { name: 'Enviar', exact: true }).click();
    await preview.waitFor({ state: 'detached' });
    const sentImage = pane.locator(`img[alt="${CAPTION}"]`);
    await sentImage.waitFor();
    await expect.poll(() => sentImage.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth), POLL).toBe(240);

    // The local Meta server received both sends, with Cloud API bodies, to the customer's phone.
    await expect.poll(() => graph.sent.length, POLL).toBe(2);
    const [text, image] = graph.sent;
    expect(text!.body).toEqual({ messaging_product: 'whatsapp', recipient_type: 'individual', to: CUSTOMER.phone, type: 'text', text: { body: REPLY, preview_url: false } });
    expect(image!.body).toMatchObject({ messaging_product: 'whatsapp', to: CUSTOMER.phone, type: 'image', image: { caption: CAPTION } });
    const link = image!.body.image.link as string;
    expect(link).toMatch(/\/api\/files\/acme\/[A-Za-z0-9_-]+\.png$/);
    // The link serves the very image the agent picked (the provider downloads it from there).
    const served = await fetch(`${t.baseUrl}${new URL(link).pathname}`, { headers: { host: t.hosts.acme } });
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(stripesPng(IMAGE_COLOURS))).toBe(true);

    // Meta's signed status webhooks (sent → delivered → read) reach the console live: 'Lida' on both.
    await expect.poll(() => pane.locator('[data-author-kind="ownAgent"] [data-delivery]').evaluateAll((els) => els.map((el) => el.getAttribute('data-delivery'))), POLL).toEqual(['read', 'read']);
    await expect.poll(() => pane.locator('[data-author-kind="ownAgent"] [aria-label="Lida"]').count(), POLL).toBe(2);
    const ticks = await page.evaluate(() => (window as unknown as { __ticks: string[] }).__ticks);
    expect(ticks.at(-1)).toBe('read');
    expect(ticks).toContain('delivered');
    // Every status webhook was accepted (signed, 200), none refused.
    await expect.poll(() => graph.webhookResults.length, POLL).toBe(1 + 2 * 3);
    expect(graph.webhookResults.map((r) => r.status)).toEqual(Array(7).fill(200));
    // The server stored the statuses too (a reload would show the same).
    const stored = await t.api(`/api/rooms/${roomId}/messages`, { token: await t.tokenFor('acme', 'acme-suporte') });
    const own = (stored.body.data as { author: { type: string }; type: string; status?: { read?: unknown } }[]).filter((m) => m.author.type === 'agent');
    // (the API lists newest first)
    expect(own.map((m) => [m.type, Boolean(m.status?.read)]).sort()).toEqual([['image', true], ['text', true]]);
    expect(inboundId).toMatch(/^wamid\./);
    await screenshot(page, 'whatsapp-replies-read');

    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("'Mensagem Ativa' outside the 24-hour window: number preselected, department asked, template with its parameter, room attended by the agent", async () => {
    const BRUNO = { phone: '5511912345678', name: 'Bruno Cliente' };
    const admin = await t.tokenFor('acme', 'acme-admin');
    const suporte = await t.tokenFor('acme', 'acme-suporte');
    // Templates synced from the local Meta server into their table; the agent holds the claim.
    expect((await t.api('/api/cronjob/proccess/syncTemplates', { method: 'POST', body: {}, token: admin })).status).toBe(200);
    await t.server.repos.users.update('acme', 'acme-suporte', { claims: { allowActiveMessage: true } }, new Date());
    // Bruno wrote long ago; his chat was closed.
    const inbound = await graph.customerSays(BRUNO, { type: 'text', text: { body: 'Obrigado, até mais!' } });
    const row = await t.server.db('messages').where({ tenant_id: 'acme', channel_id: CHANNEL, external_id: inbound }).first('room_id');
    const oldRoom = String(row.room_id);
    expect((await t.api(`/api/rooms/${oldRoom}/push`, { method: 'PATCH', body: {}, token: suporte })).status).toBe(200);
    const closed = await t.api(`/api/rooms/${oldRoom}/closeNoMessage`, { method: 'PATCH', body: { closedBy: { justify: null } }, token: suporte });
    expect(closed.status, closed.text).toBe(200);
    const contact = await t.server.db('contacts').where({ tenant_id: 'acme', phone: BRUNO.phone }).first('id', 'data');
    const data = typeof contact.data === 'string' ? JSON.parse(contact.data) : contact.data;
    await t.server.db('contacts').where({ tenant_id: 'acme', id: contact.id }).update({ data: toJson({ ...data, [`${CHANNEL}LastReply`]: new Date(Date.now() - 30 * 3600_000).toISOString() }) });
    const sentBefore = graph.sent.length;

    const { context, page } = await newPage(browser);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await signIn(page, `http://${t.hosts.acme}`, 'suporte@acme.test');
    const tabs = page.getByRole('tablist', { name: 'Abas de chats' });
    await tabs.waitFor();
    await tabs.getByRole('tab', { name: CHAT_TAB_BY_ID.chatsHistories.label, exact: true }).click();
    const closedCard = page.locator('[aria-label="Lista de chats"] [data-room-id]', { hasText: BRUNO.name }).first();
    await closedCard.waitFor();
    await closedCard.click();
    const history = page.locator(`[data-chat-pane="${oldRoom}"]`);
    await history.getByRole('button', { name: 'Opções do chat' }).click();
    await page.getByRole('menuitem', { name: 'Contato' }).click();
    const drawer = page.getByRole('complementary', { name: 'Contato' });
    await drawer.getByRole('button', { name: 'Mensagem Ativa' }).click();

    const dialog = page.getByRole('dialog', { name: 'Mensagem Ativa' });
    await dialog.waitFor();
    // The only number is preselected; outside the window only a template may go.
    await expect.poll(() => dialog.getByRole('combobox', { name: 'Número' }).textContent(), POLL).toBe('WhatsApp Suporte (5511999990000)');
    await dialog.getByText('Fora da janela de 24 horas: só é possível iniciar a conversa com um template.').waitFor();
    expect(await dialog.getByRole('button', { name: 'Enviar' }).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Escolher template' }).click();
    expect(await dialog.getByRole('alert').textContent()).toBe(seedTexts.chat.chooseDepartment);
    await dialog.getByRole('combobox', { name: 'Departamento' }).click();
    await page.getByRole('option', { name: 'Suporte' }).click();
    await screenshot(page, 'whatsapp-active-message');
    await dialog.getByRole('button', { name: 'Escolher template' }).click();

    const templates = page.getByRole('dialog', { name: 'Templates' });
    await templates.waitFor();
    const list = templates.getByRole('list', { name: 'Templates' });
    await list.getByText('retomar_contato · pt_BR').waitFor();
    // Excluded by the seed: 'encerramento' (name), REJECTED and en_US templates.
    expect(await list.getByText('encerramento · pt_BR').count()).toBe(0);
    expect(await list.getByText('promo_rejeitada · pt_BR').count()).toBe(0);
    expect(await list.getByText('welcome_en · en_US').count()).toBe(0);
    await list.getByText('retomar_contato · pt_BR').click();
    const edit = page.getByRole('dialog', { name: 'retomar_contato' });
    await edit.getByRole('button', { name: 'Enviar' }).click();
    await edit.getByText(seedTexts.validation.requiredField).waitFor();
    await edit.getByLabel('Parâmetro {{1}}').fill('Bruno');
    await edit.getByText('Olá Bruno! Podemos continuar nosso atendimento?').waitFor();
    await edit.getByRole('button', { name: 'Enviar' }).click();
    await edit.waitFor({ state: 'detached' });

    // The provider got the template; a new chat opened, attended by the agent, showing it.
    await expect.poll(() => graph.sent.length, POLL).toBe(sentBefore + 1);
    expect(graph.sent.at(-1)!.body).toEqual({
      messaging_product: 'whatsapp', recipient_type: 'individual', to: BRUNO.phone, type: 'template',
      template: { name: 'retomar_contato', language: { code: 'pt_BR' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Bruno' }] }] },
    });
    const rooms = await t.server.db('rooms').where({ tenant_id: 'acme', channel_id: CHANNEL, active: true }).select('id', 'data');
    const opened = rooms.map((r) => (typeof r.data === 'string' ? JSON.parse(r.data) : r.data)).find((r) => r.chatId === BRUNO.phone);
    expect(opened.agents.map((a: { id: string }) => a.id)).toEqual(['acme-suporte']);
    const pane = page.locator(`[data-chat-pane="${opened.id}"]`);
    await pane.getByText('Olá Bruno! Podemos continuar nosso atendimento?').waitFor();
    await expect.poll(() => pane.locator('[data-author-kind="ownAgent"] [data-delivery]').first().getAttribute('data-delivery'), POLL).toBe('read');
    await screenshot(page, 'whatsapp-active-message-sent');
    expect(errors).toEqual([]);
    await context.close();
  });
});
