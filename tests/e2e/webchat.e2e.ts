import type { Browser, Frame } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart, MULTIPART_TYPE } from '../helpers/multipart';
import { messages as texts, type Room } from '@atendimento/schemas';
import { push, startChatServer, stopChatServer, type ChatTest } from '../server/chat/chat-helpers';
import { startCustomerSite, type CustomerSite } from './customer-site';
import { launchBrowser, screenshot } from './browser';

/**
 * The web-chat widget in Chromium, embedded by a customer's site on another origin
 * (http://loja.test:PORT), talking to our server (http://acme.test:PORT) over HTTP and /ws.
 * The agent side is played through the API (the console's own browser test covers its UI).
 */
let t: ChatTest;
let browser: Browser;
let site: CustomerSite | undefined;
let siteUrl: string;

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

beforeAll(async () => {
  t = await startChatServer();
  site = await startCustomerSite(t.baseUrl);
  siteUrl = site.url;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
  await stopChatServer(t);
});

/** POST .../message/file with a PNG, as the console's attach menu does. */
function uploadImage(roomId: string, token: string): Promise<{ status: number; text: string }> {
  return t.api(`/api/rooms/${roomId}/message/file?type=image`, {
    method: 'POST', token, headers: { 'content-type': MULTIPART_TYPE },
    body: multipart({ type: 'image' }, { name: 'rastreio.png', type: 'image/png', bytes: PNG }),
  });
}

async function widgetFrame(page: import('playwright-core').Page): Promise<Frame> {
  const handle = await page.waitForSelector('iframe[src*="/api/webchat/site-suporte/page"]');
  const frame = await handle.contentFrame();
  if (!frame) throw new Error('widget iframe has no frame');
  return frame;
}

describe('web-chat widget in a real browser', () => {
  it('a visitor on a customer site starts a chat, receives the agent text and image, and sees the closing', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // The site is another origin: the embed script must not post into the frame before our page is in it.
    page.on('console', (m) => void (m.type() === 'error' && /postMessage/.test(m.text()) && errors.push(m.text())));
    await page.goto(siteUrl);
    await page.click(`button[aria-label="${texts.webchat.open}"]`);
    const frame = await widgetFrame(page);
    await frame.waitForSelector('#start:not([hidden])');
    await frame.fill('#name', 'Visitante do Site');
    await frame.fill('#first', '<i>Olá</i>, meu pedido não chegou');
    await frame.click('#start-send');
    await frame.waitForSelector('#composer:not([hidden])');
    await frame.waitForFunction(() => document.getElementById('messages')!.textContent!.includes('<i>Olá</i>, meu pedido não chegou'));

    // The room is in the suporte queue; the agent enters and answers with text and an image.
    const queue = await t.api('/api/rooms?tab=queuesChats', { token: t.tokens.suporte });
    const room = (queue.body.data as Room[]).find((r) => r.author.displayName === 'Visitante do Site')!;
    expect(room).toBeTruthy();
    await push(t, t.tokens.suporte, room.id);
    expect((await t.api(`/api/rooms/${room.id}/message`, { method: 'POST', body: { text: 'Vou verificar, um instante.' }, token: t.tokens.suporte })).status).toBe(201);
    const image = await uploadImage(room.id, t.tokens.suporte);
    expect(image.status, image.text).toBe(201);
    await frame.waitForFunction(() => document.getElementById('messages')!.textContent!.includes('Vou verificar, um instante.'));
    await frame.waitForSelector('#messages li.theirs img');
    const loaded = await frame.$eval('#messages li.theirs img', (img) => (img as HTMLImageElement).naturalWidth);
    expect(loaded).toBe(1);
    // The visitor's markup stayed text.
    expect(await frame.$$('#messages i')).toHaveLength(0);

    // The visitor writes from the composer (Enter sends); the agent reads it.
    await frame.fill('#text', 'Obrigado!');
    await frame.press('#text', 'Enter');
    await expect.poll(async () => {
      const msgs = await t.api(`/api/rooms/${room.id}/messages`, { token: t.tokens.suporte });
      return msgs.body.data.map((m: { text: string | null }) => m.text);
    }).toContain('Obrigado!');
    // The open widget reported the agent's text read.
    await expect.poll(async () => {
      const msgs = await t.api(`/api/rooms/${room.id}/messages`, { token: t.tokens.suporte });
      return msgs.body.data.find((m: { text: string | null }) => m.text === 'Vou verificar, um instante.')?.status?.read ?? false;
    }).toBe(true);
    await screenshot(page, 'webchat-widget-conversation');

    expect((await t.api(`/api/rooms/${room.id}/close`, { method: 'PATCH', body: { closedBy: { justify: 'Resolvido' } }, token: t.tokens.suporte })).status).toBe(200);
    await frame.waitForSelector('#closed:not([hidden])');
    await frame.waitForFunction((notice) => document.getElementById('messages')!.textContent!.includes(notice), texts.chatServer.closedNotice);
    await screenshot(page, 'webchat-widget-closed');

    // A reload right after the goodbye: the widget shows the closed conversation, not the start form.
    await page.reload();
    await page.click(`button[aria-label="${texts.webchat.open}"]`);
    const reloaded = await widgetFrame(page);
    await reloaded.waitForSelector('#closed:not([hidden])');
    await reloaded.waitForFunction(() => document.getElementById('messages')!.textContent!.includes('Obrigado!'));
    expect(await reloaded.isHidden('#start')).toBe(true);
    await reloaded.click('#restart');
    await reloaded.waitForSelector('#start:not([hidden])');
    expect(errors).toEqual([]);
    await page.close();
  });
});
