import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart, MULTIPART_TYPE } from '../helpers/multipart';
import { CHAT_TAB_BY_ID } from '@atendimento/schemas';
import { startChatServer, stopChatServer, visitorStarts, visitorWrites, type ChatTest } from '../server/chat/chat-helpers';
import { launchBrowser } from './browser';
import { newPage, signIn, waitForPath } from './shell-helpers';

/**
 * R11, stored XSS: a corpus of markup that runs script when it reaches the DOM as HTML
 * is stored as a visitor's name and message texts (web-chat API), as the file name of a visitor's
 * upload and as a contact's name (register API). Chromium then opens the agent's console ('Fila'
 * and the open chat) and the contacts list. Every payload would set `window.__xss` or call the
 * `__xssFired` binding; neither may happen, no CSP violation may be reported (an injected handler
 * blocked by the policy still means the markup reached the DOM), no injected element may exist,
 * and every payload must be readable as text.
 */
let t: ChatTest;
let browser: Browser;

const NAME = '<img src=x onerror=window.__xss=true>';
const TEXTS = [
  '<img src=x onerror="window.__xssFired(1)">',
  '<a href="javascript:window.__xssFired(2)">clique aqui</a>',
  '<svg onload="window.__xssFired(3)"><circle r="5"/></svg>',
  '<xmp><script>window.__xssFired(4)</script></xmp>',
];
const FILE_NAME = '<svg onload=window.__xss=true>.pdf';
const CONTACT = '<script>window.__xssFired(5)</script><img src=x onerror=window.__xss=true>';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

interface Watched {
  page: Page;
  fired: unknown[];
}

/** A signed-in page whose every script sign (binding, flag, CSP violation) is recorded. */
async function watchedPage(email: string): Promise<Watched> {
  const { page } = await newPage(browser);
  const fired: unknown[] = [];
  await page.exposeFunction('__xssFired', (n: unknown) => void fired.push(n));
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__csp.push(`${e.violatedDirective} ${e.sample}`));
  });
  await signIn(page, `http://${t.hosts.acme}`, email);
  return { page, fired };
}

async function assertNothingRan(w: Watched): Promise<void> {
  const state = await w.page.evaluate(() => {
    const win = window as unknown as { __xss?: boolean; __csp: string[] };
    return {
      flag: win.__xss ?? false,
      csp: win.__csp,
      injected: document.querySelectorAll('img[src="x"], a[href^="javascript:"], svg[onload], xmp, [onerror], [onload]').length,
    };
  });
  expect(w.fired).toEqual([]);
  expect(state).toEqual({ flag: false, csp: [], injected: 0 });
}

function visitorUpload(roomId: string, visitorKey: string): Promise<{ status: number; text: string }> {
  return t.api(`/api/webchat/rooms/${roomId}/message/file?type=document`, {
    method: 'POST', headers: { 'x-visitor-key': visitorKey, 'content-type': MULTIPART_TYPE },
    body: multipart({ type: 'document' }, { name: FILE_NAME, type: 'application/pdf', bytes: PDF }),
  });
}

beforeAll(async () => {
  t = await startChatServer({ staticDir: path.resolve('engine/dist') });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await stopChatServer(t);
});

describe('R11 stored XSS', () => {
  it('the HTML page is sent with a Content-Security-Policy', async () => {
    const res = await fetch(`${t.baseUrl}/`, { headers: { host: t.hosts.acme } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src|default-src/);
    expect(csp).not.toContain("'unsafe-inline' 'unsafe-eval'");
  });

  it('payloads in visitor name, message texts and file name stay text in the console', async () => {
    const session = await visitorStarts(t, 'site-suporte', TEXTS[0]!, NAME);
    for (const text of TEXTS.slice(1)) {
      const res = await visitorWrites(t, session, text);
      expect(res.status, res.text).toBe(201);
    }
    const upload = await visitorUpload(session.roomId!, session.visitorKey!);
    expect(upload.status, upload.text).toBe(201);
    const stored = await t.api(`/api/rooms/${session.roomId}/messages`, { token: t.tokens.suporte });
    const file = (stored.body.data as { type: string; text: string | null }[]).find((m) => m.type === 'document');
    expect(JSON.stringify(file)).toContain(FILE_NAME);

    const agent = await watchedPage('suporte@acme.test');
    const { page } = agent;
    const tabs = page.getByRole('tablist', { name: 'Abas de chats' });
    await tabs.waitFor();
    await tabs.getByRole('tab', { name: CHAT_TAB_BY_ID.queuesChats.label, exact: true }).click();
    const card = page.locator(`[aria-label="Lista de chats"] [data-room-id="${session.roomId}"]`);
    await card.waitFor();
    await expect.poll(() => card.textContent(), { timeout: 15_000 }).toContain(NAME);
    await card.click();
    const pane = page.locator(`[data-chat-pane="${session.roomId}"]`);
    await pane.getByRole('heading', { name: NAME }).waitFor();
    for (const text of TEXTS) await pane.getByText(text, { exact: false }).first().waitFor();
    // The document button shows the first 15 characters of the name and the whole name as its title.
    const fileButton = pane.locator(`a[title="${FILE_NAME}"]`);
    await fileButton.waitFor();
    expect(await fileButton.innerText()).toContain(FILE_NAME.slice(0, 12));
    await assertNothingRan(agent);
    await page.context().close();
  });

  it('a payload in a contact name stays text in the contacts list', async () => {
    const created = await t.api('/api/contacts', { method: 'POST', token: t.tokens.admin, body: { displayName: CONTACT, channels: ['webchat'] } });
    expect(created.status, created.text).toBeLessThan(300);
    const admin = await watchedPage('admin@acme.test');
    const { page } = admin;
    await page.getByRole('button', { name: 'Contatos' }).click();
    await waitForPath(page, '/contacts');
    await page.getByRole('row').filter({ hasText: CONTACT }).waitFor();
    await assertNothingRan(admin);
    await page.context().close();
  });
});
