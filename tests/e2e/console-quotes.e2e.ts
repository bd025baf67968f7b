import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_TAB_BY_ID, type Room } from '@atendimento/schemas';
import { startChatServer, stopChatServer, type ChatTest } from '../server/chat/chat-helpers';
import { launchBrowser, screenshot } from './browser';
import { newPage, openChatDrawer, signIn } from './shell-helpers';

/**
 * 'Orçamentos' (seed 001 §8) in Chromium: the drawer's button frames the tenant's quotes portal
 * beside the chat, filtered by the contact's ERP client, through the page's real
 * Content-Security-Policy; a contact without a client gets the seed's message. The portal is a
 * local page standing in for the customer's (another origin, as in production).
 */
let t: ChatTest;
let browser: Browser;
let portal: http.Server;
const POLL = { timeout: 15_000 };

beforeAll(async () => {
  portal = http.createServer((req, res) => {
    const q = new URL(req.url ?? '/', 'http://portal').searchParams;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><h1>Portal de orçamentos</h1><p id="filtro">Cliente ${q.get('cliente')} loja ${q.get('loja')}</p>`);
  });
  await new Promise<void>((resolve) => portal.listen(0, '127.0.0.1', resolve));
  t = await startChatServer({ staticDir: path.resolve('engine/dist') });
  await t.patchAppConfig({ claims: { queues: true }, quotesUrl: `http://127.0.0.1:${(portal.address() as AddressInfo).port}/orcamentos` });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await stopChatServer(t);
  await new Promise((resolve) => portal.close(resolve));
});

async function chatOf(name: string, phone: string, clients: string[]): Promise<Room> {
  const created = await t.api('/api/rooms', { method: 'POST', body: { contact: { displayName: name, phone } }, token: t.tokens.agente });
  expect(created.status, created.text).toBe(201);
  const room = created.body.data as Room;
  if (clients.length) expect((await t.api(`/api/contacts/${room.author.id}`, { method: 'PATCH', body: { clients }, token: t.tokens.admin })).status).toBe(200);
  return room;
}

describe("'Orçamentos'", () => {
  it("frames the portal beside the chat for a contact with a client, and says what is missing for one without", async () => {
    const linked = await chatOf('Loja Boa Vista', '5511955553333', ['00012301']);
    const unlinked = await chatOf('Cliente Sem Vínculo', '5511955552222', []);

    const { page } = await newPage(browser);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const blocked: string[] = [];
    page.on('console', (m) => /Content Security Policy|frame-src/i.test(m.text()) && blocked.push(m.text()));
    await signIn(page, `http://${t.hosts.acme}`, 'agente@acme.test');
    await page.getByRole('tablist', { name: 'Abas de chats' }).getByRole('tab', { name: CHAT_TAB_BY_ID.userChats.label, exact: true }).click();

    const { pane, drawer } = await openChatDrawer(page, linked.id, 'Loja Boa Vista');
    await drawer.getByRole('button', { name: 'Orçamentos' }).click();
    const quotes = page.getByRole('region', { name: 'Orçamentos' });
    await quotes.waitFor(POLL);
    await page.frameLocator('iframe[title="Orçamentos"]').locator('#filtro').getByText('Cliente 000123 loja 01').waitFor(POLL);
    // Side by side: the chat keeps its pane.
    expect(await pane.isVisible()).toBe(true);
    await screenshot(page, 'console-quotes-portal');
    await quotes.getByRole('button', { name: 'Fechar' }).click();
    await quotes.waitFor({ state: 'detached' });

    await openChatDrawer(page, unlinked.id, 'Cliente Sem Vínculo');
    await drawer.getByRole('button', { name: 'Orçamentos' }).click();
    await page.getByText('Associe o Contato a um cliente para fazer um orçamento').waitFor(POLL);
    expect(await page.locator('iframe[title="Orçamentos"]').count()).toBe(0);
    expect(errors).toEqual([]);
    expect(blocked).toEqual([]);
  }, 90_000);
});
