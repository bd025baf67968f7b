import path from 'node:path';
import { writeFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import { simpleParser } from 'mailparser';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Room } from '@atendimento/schemas';
import { launchBrowser, screenshot } from './browser';
import { newPage, signIn } from './shell-helpers';
import { customerMail, MAILBOX, startMailServer, stopMailServer, waitForMail, type MailTest } from '../server/mail/mail-helpers';

/**
 * End to end in Chromium, against a real dovecot and the SMTP catcher:
 * - a customer's mail is appended to the IMAP mailbox; the agent of vendas sees it arrive in
 *   'Inbox' live, opens the thread, answers with 'Responder' (bold text and an attachment), and
 *   the reply reaches the catcher with In-Reply-To, References and the file;
 * - three agents in an internal group chat: the third sees the messages live; an admin outside
 *   the group gets 404 from the API and not one /ws frame about it.
 */
let t: MailTest;
let browser: Browser;
let consoleUrl: string;
const POLL = { timeout: 20_000 };

beforeAll(async () => {
  t = await startMailServer({ staticDir: path.resolve('engine/dist') });
  consoleUrl = `http://${t.hosts.acme}`;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await stopMailServer(t);
});

interface ConsolePage {
  context: BrowserContext;
  page: Page;
  errors: string[];
  wsFrames: string[];
}

async function openConsole(email: string): Promise<ConsolePage> {
  const { context, page } = await newPage(browser);
  const errors: string[] = [];
  const wsFrames: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('websocket', (ws) => ws.on('framereceived', (f) => wsFrames.push(typeof f.payload === 'string' ? f.payload : f.payload.toString('utf8'))));
  await signIn(page, consoleUrl, email);
  await page.getByRole('tablist', { name: 'Abas de chats' }).waitFor();
  return { context, page, errors, wsFrames };
}

const tab = (page: Page, label: string) => page.getByRole('tablist', { name: 'Abas de chats' }).getByRole('tab', { name: label, exact: true });
const card = (page: Page, text: string) => page.locator('[aria-label="Lista de chats"] [data-room-id]', { hasText: text });

describe('e-mail threads and internal chats in the console', () => {
  it("a customer's mail arrives live in 'Inbox'; the agent replies with bold text and an attachment; the catcher gets it threaded", async () => {
    const agent = await openConsole('agente@acme.test');
    await tab(agent.page, 'Inbox').click();
    const mail = await customerMail({ from: 'Marta Cliente <marta@cliente.example>', subject: 'Segunda via do boleto', text: 'Preciso da segunda via, por favor.' });
    await t.imap.append(MAILBOX, mail.raw);
    const stored = await waitForMail(t, mail.messageId);
    // Live: no reload, the card shows up in 'Inbox'.
    const inboxCard = card(agent.page, 'Marta Cliente');
    await inboxCard.waitFor({ timeout: 20_000 });
    await inboxCard.click();
    const pane = agent.page.locator(`[data-chat-pane="${stored.roomId}"]`);
    await pane.getByRole('heading', { name: 'Segunda via do boleto' }).waitFor();
    await pane.getByText('Preciso da segunda via, por favor.').waitFor();

    await pane.getByRole('button', { name: 'Responder' }).click();
    const dialog = agent.page.getByRole('dialog', { name: 'Responder' });
    const editor = dialog.getByRole('textbox', { name: 'Responder' });
    await editor.click();
    await agent.page.keyboard.type('Olá Marta, ');
    await dialog.getByRole('button', { name: 'Negrito' }).click();
    await agent.page.keyboard.type('segue o boleto');
    await dialog.getByRole('button', { name: 'Negrito' }).click();
    await agent.page.keyboard.type('.');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mail-e2e-'));
    const file = path.join(dir, 'boleto.pdf');
    writeFileSync(file, Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(4096, 7)]));
    await dialog.getByTestId('mail-attachment-input').setInputFiles(file);
    await dialog.getByText('boleto.pdf').waitFor();
    await screenshot(agent.page, 'mail-reply-dialog');
    await dialog.getByRole('button', { name: 'Enviar' }).click();
    await dialog.waitFor({ state: 'detached' });

    const caught = await t.smtp.waitFor('marta@cliente.example', 20_000);
    const parsed = await simpleParser(caught.raw);
    expect(parsed.inReplyTo).toBe(`<${mail.messageId}>`);
    expect(String(parsed.references)).toContain(mail.messageId);
    expect(parsed.subject).toBe('Re: Segunda via do boleto');
    expect(parsed.html).toMatch(/<strong>segue o boleto<\/strong>/);
    expect(parsed.attachments.map((a) => a.filename)).toEqual(['boleto.pdf']);
    // The reply shows in the thread, and the thread moved to 'Meu Inbox'.
    await expect.poll(() => pane.locator('[data-mail-message]').count(), POLL).toBe(2);
    await tab(agent.page, 'Meu Inbox').click();
    await card(agent.page, 'Marta Cliente').waitFor();
    await screenshot(agent.page, 'mail-thread');
    expect(agent.errors).toEqual([]);
    await agent.context.close();
  });

  it('an internal group of three: the third sees messages live; an admin outside it gets 404 and no /ws frame', async () => {
    const a = await openConsole('agente@acme.test');
    const c = await openConsole('suporte@acme.test');
    const outsider = await openConsole('admin@acme.test');
    await tab(c.page, 'Interno').click();
    await tab(outsider.page, 'Interno').click();

    await tab(a.page, 'Interno').click();
    await a.page.getByRole('button', { name: 'Novo chat interno' }).click();
    const dialog = a.page.getByRole('dialog', { name: 'Novo chat interno' });
    await dialog.getByRole('button', { name: 'Conversar' }).click();
    await dialog.getByText('Escolha agentes para conversar!').waitFor();
    await dialog.getByText('Supervisora Acme').click();
    await dialog.getByText('Suporte Acme').click();
    await dialog.getByLabel('Nome do grupo').fill('Plantão de sábado');
    await dialog.getByRole('button', { name: 'Conversar' }).click();
    const heading = a.page.locator('[data-chat-pane]').getByRole('heading', { name: 'Plantão de sábado' });
    await heading.waitFor();
    const rooms = await t.api('/api/rooms?tab=internalChats', { token: t.tokens.agente });
    const room = (rooms.body.data as Room[]).find((r) => r.internalChatName === 'Plantão de sábado')!;
    const paneA = a.page.locator(`[data-chat-pane="${room.id}"]`);
    const box = paneA.getByRole('textbox', { name: 'Digite uma mensagem' });
    await box.fill('Quem cobre o sábado?');
    await box.press('Enter');

    // The third member: the group appears in 'Interno' live ('Novo Chat de grupo'), opens, reads live.
    await c.page.getByText('Novo Chat de grupo').first().waitFor({ timeout: 20_000 });
    await card(c.page, 'Plantão de sábado').click();
    const paneC = c.page.locator(`[data-chat-pane="${room.id}"]`);
    await paneC.getByText('Quem cobre o sábado?').waitFor();
    await box.fill('Preciso de resposta até sexta.');
    await box.press('Enter');
    await paneC.getByText('Preciso de resposta até sexta.').waitFor({ timeout: 20_000 });
    await screenshot(c.page, 'internal-group');

    // The outsider: 404 from the API, and not one /ws frame naming the room.
    expect((await t.api(`/api/rooms/${room.id}`, { token: t.tokens.admin })).status).toBe(404);
    expect((await t.api(`/api/rooms/${room.id}/messages`, { token: t.tokens.admin })).status).toBe(404);
    await expect.poll(() => outsider.page.locator('[aria-label="Lista de chats"] [data-room-id]').count()).toBe(0);
    expect(outsider.wsFrames.some((f) => f.includes(room.id))).toBe(false);
    expect([...a.errors, ...c.errors, ...outsider.errors]).toEqual([]);
  });
});
