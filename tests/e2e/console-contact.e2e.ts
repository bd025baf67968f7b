import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_TAB_BY_ID, messages as seedTexts, type Room } from '@atendimento/schemas';
import { startChatServer, stopChatServer, type ChatTest } from '../server/chat/chat-helpers';
import { launchBrowser, screenshot } from './browser';
import { newPage, openChatDrawer, signIn } from './shell-helpers';

/**
 * 'Editar Contato' in Chromium against the real server: agente@ opens a chat, the contact drawer
 * from the chat header, edits the contact's name and e-mail (the phone is locked: the chat is
 * active) and the server stores it; a wrong e-mail shows the schema's message.
 */
let t: ChatTest;
let browser: Browser;
const POLL = { timeout: 15_000 };

beforeAll(async () => {
  t = await startChatServer({ staticDir: path.resolve('engine/dist') });
  await t.patchAppConfig({ claims: { publicRegister: true, queues: true } });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await stopChatServer(t);
});

describe('Editar Contato', () => {
  it('edits the contact of the open chat from the contact drawer', async () => {
    const created = await t.api('/api/rooms', { method: 'POST', body: { contact: { displayName: 'Paula Editável', phone: '5511955554444' } }, token: t.tokens.agente });
    expect(created.status, created.text).toBe(201);
    const room = created.body.data as Room;

    const { page } = await newPage(browser);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await signIn(page, `http://${t.hosts.acme}`, 'agente@acme.test');
    await page.getByRole('tablist', { name: 'Abas de chats' }).getByRole('tab', { name: CHAT_TAB_BY_ID.userChats.label, exact: true }).click();
    // The header's avatar opens the contact drawer.
    const { drawer } = await openChatDrawer(page, room.id, 'Paula Editável');
    await drawer.getByRole('button', { name: 'Editar Contato' }).click();
    const dialog = page.getByRole('dialog', { name: 'Editar Contato' });
    const name = dialog.getByRole('textbox', { name: 'Nome', exact: true });
    await expect.poll(() => name.inputValue(), POLL).toBe('Paula Editável');
    expect(await dialog.getByRole('textbox', { name: 'Telefone' }).isDisabled()).toBe(true);
    expect(await dialog.getByRole('switch', { name: 'Ativo' }).isDisabled()).toBe(true);

    await dialog.getByRole('textbox', { name: 'E-mail' }).fill('paula@');
    await dialog.getByRole('button', { name: 'Enviar' }).click();
    await page.getByText(seedTexts.contact.updateFailed).waitFor(POLL);
    await dialog.getByText('Informe um e-mail válido').first().waitFor();

    await name.fill('Paula Souza');
    await dialog.getByRole('textbox', { name: 'Nome Completo' }).fill('Paula de Souza Prado');
    await dialog.getByRole('textbox', { name: 'E-mail' }).fill('paula@exemplo.com.br');
    await screenshot(page, 'console-contact-edit');
    await dialog.getByRole('button', { name: 'Enviar' }).click();
    await page.getByText(seedTexts.contact.updated).waitFor(POLL);
    await dialog.waitFor({ state: 'detached' });
    await drawer.getByText('Paula Souza', { exact: true }).waitFor(POLL);

    const stored = await t.api(`/api/rooms/${room.id}/contact`, { token: t.tokens.admin });
    expect(stored.body.data).toMatchObject({ displayName: 'Paula Souza', name: 'Paula de Souza Prado', email: 'paula@exemplo.com.br', phone: '5511955554444' });
    expect(errors).toEqual([]);
  }, 90_000);
});
