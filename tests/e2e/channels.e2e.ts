import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_TAB_BY_ID, messages, type Room } from '@atendimento/schemas';
import { startMetaGraphServer, type MetaGraphServer } from '@atendimento/integrations/providers/meta-graph-server';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { launchBrowser, screenshot } from './browser';
import { newPage, signIn } from './shell-helpers';

/**
 * The channels screen end to end (docs/channels.md "The channels screen"): an admin adds a
 * Meta channel from the screen (nothing pasted into the database), 'Testar conexão' reaches
 * the local Meta server, the local Meta server is pointed at the webhook URL the screen shows,
 * and the customer's message arrives in the queue of the department the admin chose, live in
 * that department's agent's console.
 */
const META = { appSecret: 'segredo-app-tela-canais', accessToken: 'token-tela-canais', phoneNumberId: 'PN-CANAIS', businessAccountId: 'WABA-CANAIS' };
const CUSTOMER = { phone: '5511912345678', name: 'Rita Cliente' };
const FIRST = 'Olá! Vim pelo canal novo.';
const POLL = { timeout: 20_000 };

let t: TestServer;
let graph: MetaGraphServer;
let browser: Browser;

beforeAll(async () => {
  graph = await startMetaGraphServer({ ...META, displayPhoneNumber: '5511933332222', statusDelayMs: 50 });
  t = await startTestServer({ staticDir: path.resolve('engine/dist'), env: { PROVIDER_TRUSTED_HOSTS: new URL(graph.baseUrl).host } });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await graph?.close();
});

describe('channels screen', () => {
  it('an admin adds a Meta channel; the shown webhook URL receives the customer; the message lands in the department queue', async () => {
    const { page } = await newPage(browser);
    await signIn(page, `http://${t.hosts.acme}`, 'admin@acme.test');
    await page.getByRole('navigation', { name: 'Menu' }).getByRole('button', { name: 'Canais' }).click();
    await page.getByRole('heading', { name: 'Canais', level: 2 }).waitFor();
    await page.getByRole('button', { name: 'Novo canal' }).click();
    const dialog = page.getByRole('dialog', { name: 'Novo canal' });
    await dialog.getByRole('combobox', { name: 'Tipo' }).click();
    await page.getByRole('option', { name: 'WhatsApp', exact: true }).click();
    await dialog.getByLabel(/^Nome/).fill('WhatsApp Suporte Novo');
    await dialog.getByRole('combobox', { name: 'Departamento' }).click();
    await page.getByRole('option', { name: 'Suporte', exact: true }).click();
    await dialog.getByLabel(/^URL da API/).fill(graph.baseUrl);
    await dialog.getByLabel(/^ID do número de telefone/).fill(META.phoneNumberId);
    await dialog.getByLabel(/^ID da conta do WhatsApp Business/).fill(META.businessAccountId);
    await dialog.getByLabel(/^Token de acesso/).fill(META.accessToken);
    await dialog.getByLabel(/^Chave secreta do app/).fill(META.appSecret);
    await dialog.getByRole('button', { name: 'Salvar' }).click();

    const edit = page.getByRole('dialog', { name: 'Editar canal' });
    const urlField = edit.getByRole('textbox', { name: 'URL do webhook', exact: true });
    await urlField.waitFor();
    const webhookUrl = await urlField.inputValue();
    expect(webhookUrl).toMatch(new RegExp(`^http://${t.hosts.acme.replace('.', '\\.')}/api/webhooks/whatsapp/ch-[0-9a-f]+$`));
    // The secrets are stored, not shown: the inputs are empty again and say so.
    expect(await edit.getByLabel(/^Token de acesso/).inputValue()).toBe('');
    await edit.getByText('Definido. Deixe em branco para manter o atual.').first().waitFor();
    expect(await page.content()).not.toContain(META.accessToken);

    await edit.getByRole('button', { name: 'Testar conexão' }).click();
    await expect.poll(() => edit.getByRole('status').textContent(), POLL).toMatch(/^Conexão bem-sucedida: o provedor respondeu\./);
    await screenshot(page, 'channels-meta-added');

    // The operator pastes the shown URL at the provider (the local server reaches acme as 127.0.0.1).
    graph.setWebhookUrl(webhookUrl.replace(/^http:\/\/acme\.test/, 'http://127.0.0.1'));

    // The agent of suporte watches the queue.
    const agent = await newPage(browser);
    await signIn(agent.page, `http://${t.hosts.acme}`, 'suporte@acme.test');
    const tabs = agent.page.getByRole('tablist', { name: 'Abas de chats' });
    await tabs.waitFor();
    await tabs.getByRole('tab', { name: CHAT_TAB_BY_ID.queuesChats.label, exact: true }).click();

    await graph.customerSays(CUSTOMER, { type: 'text', text: { body: FIRST } });
    expect(graph.webhookResults.at(-1)?.status).toBe(200);
    const card = agent.page.locator('[aria-label="Lista de chats"] [data-room-id]', { hasText: CUSTOMER.name });
    await card.waitFor({ timeout: POLL.timeout });
    await expect.poll(() => card.locator('[data-last-message]').textContent(), POLL).toContain(FIRST);
    await screenshot(agent.page, 'channels-meta-queue');
  });
  it('the web-chat snippet copied from the screen works on a separate page; a channel added elsewhere appears live', async () => {
    const { context, page } = await newPage(browser);
    // http://acme.test is not a secure context, where Chromium has no clipboard API: the page
    // gets a stand-in that keeps what the copy button wrote (https hosts use the real one).
    await context.addInitScript(() => {
      Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (text: string) => { (window as unknown as { __copied: string }).__copied = text; } } });
    });
    await signIn(page, `http://${t.hosts.acme}`, 'admin@acme.test');
    await page.getByRole('navigation', { name: 'Menu' }).getByRole('button', { name: 'Canais' }).click();
    await page.getByRole('heading', { name: 'Canais', level: 2 }).waitFor();

    // Another admin (the API) adds a channel: the list shows it without a reload (live `channels`).
    const admin = await t.tokenFor('acme', 'acme-admin');
    const other = await t.api('/api/admin/channels', { method: 'POST', token: admin, body: { type: 'webchat', displayName: 'Chat criado em outra aba', departmentId: 'suporte' } });
    expect(other.status).toBe(201);
    await page.getByRole('cell', { name: 'Chat criado em outra aba', exact: true }).waitFor({ timeout: POLL.timeout });

    await page.getByRole('button', { name: 'Novo canal' }).click();
    const dialog = page.getByRole('dialog', { name: 'Novo canal' });
    await dialog.getByRole('combobox', { name: 'Tipo' }).click();
    await page.getByRole('option', { name: 'Web chat', exact: true }).click();
    await dialog.getByLabel(/^Nome/).fill('Chat da Loja');
    await dialog.getByRole('combobox', { name: 'Departamento' }).click();
    await page.getByRole('option', { name: 'Vendas', exact: true }).click();
    await dialog.getByRole('textbox', { name: 'Título', exact: true }).fill('Fale com a Loja');
    // The preview follows what is typed.
    await expect.poll(() => dialog.getByTestId('webchat-preview-title').textContent(), POLL).toBe('Fale com a Loja');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    const edit = page.getByRole('dialog', { name: 'Editar canal' });
    const snippetBox = edit.getByRole('textbox', { name: 'Código para colar no site', exact: true });
    await snippetBox.waitFor();
    await edit.getByRole('button', { name: 'Copiar Código para colar no site' }).click();
    await page.getByText('Copiado!').waitFor();
    const copied = await page.evaluate(() => (window as unknown as { __copied: string }).__copied);
    expect(copied).toBe(await snippetBox.inputValue());
    expect(copied).toMatch(/^<script src="http:\/\/acme\.test:\d+\/api\/webchat\/ch-[0-9a-f]+\/widget\.js" async><\/script>$/);
    await screenshot(page, 'channels-webchat-snippet');

    // A separate site pastes it.
    const site = http.createServer((_req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(`<!doctype html><html><head><title>Loja</title></head><body><h1>Minha loja</h1>${copied}</body></html>`);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', () => resolve()));
    try {
      const visitor = await browser.newPage();
      await visitor.goto(`http://loja.test:${(site.address() as AddressInfo).port}/`);
      await visitor.click(`button[aria-label="${messages.webchat.open}"]`);
      const handle = await visitor.waitForSelector('iframe[src*="/api/webchat/ch-"]');
      const widget = (await handle.contentFrame())!;
      await widget.waitForSelector('#start:not([hidden])');
      await widget.fill('#name', 'Paula Visitante');
      await widget.fill('#first', 'Vim pelo código copiado');
      await widget.click('#start-send');
      await widget.waitForSelector('#composer:not([hidden])');
      const agente = await t.tokenFor('acme', 'acme-agente');
      await expect.poll(async () => {
        const queue = await t.api('/api/rooms?tab=queuesChats', { token: agente });
        return (queue.body.data as Room[]).some((r) => r.departmentId === 'vendas' && JSON.stringify(r).includes('Paula Visitante'));
      }, POLL).toBe(true);
    } finally {
      site.closeAllConnections();
      await new Promise<void>((resolve) => site.close(() => resolve()));
    }
  });
});
