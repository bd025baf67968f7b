import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_TAB_BY_ID } from '@atendimento/schemas';
import { push, startChatServer, stopChatServer, visitorStarts, JUSTIFIES, type ChatTest } from '../server/chat/chat-helpers';
import { launchBrowser, screenshot } from './browser';
import { newPage, signIn } from './shell-helpers';

/**
 * The settings screen end to end (docs/tenancy.md "Settings"): an agent has a chat open; the
 * admin, on 'Configurações', replaces a closing justification and saves; without any reload
 * the agent's close dialog offers the new list (the `appConfig` live collection made the app
 * re-read its configuration), and the admin's audit list shows the change.
 */
const NEW_JUSTIFY = 'Resolvido pela tela de configurações';
const POLL = { timeout: 20_000 };

let t: ChatTest;
let browser: Browser;

beforeAll(async () => {
  t = await startChatServer({ staticDir: path.resolve('engine/dist') });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await stopChatServer(t);
});

describe('tenant settings screen', () => {
  it("a closing-justification change reaches an agent's close dialog without reload", async () => {
    const started = await visitorStarts(t, 'site-vendas', 'Quero encerrar', 'Bruno Visitante');
    await push(t, t.tokens.agente, started.roomId!);

    const agent = await newPage(browser);
    await signIn(agent.page, `http://${t.hosts.acme}`, 'agente@acme.test');
    const tabs = agent.page.getByRole('tablist', { name: 'Abas de chats' });
    await tabs.waitFor();
    await tabs.getByRole('tab', { name: CHAT_TAB_BY_ID.userChats.label, exact: true }).click();
    await agent.page.locator('[aria-label="Lista de chats"] [data-room-id]', { hasText: 'Bruno Visitante' }).click();
    const pane = agent.page.locator(`[data-chat-pane="${started.roomId}"]`);
    await pane.getByRole('heading', { name: 'Bruno Visitante' }).waitFor();
    await agent.page.evaluate(() => { (window as unknown as { __sameDocument: boolean }).__sameDocument = true; });

    const openCloseDialog = async () => {
      await pane.getByRole('button', { name: 'Opções do chat' }).click();
      await agent.page.getByRole('menuitem', { name: 'Encerrar', exact: true }).click();
      const dialog = agent.page.getByRole('dialog', { name: 'Encerrar chat' });
      await dialog.waitFor();
      await dialog.getByRole('combobox', { name: 'Justificativa' }).click();
      const options = await agent.page.getByRole('option').allTextContents();
      await agent.page.keyboard.press('Escape');
      await dialog.getByRole('button', { name: 'Cancelar' }).click();
      await dialog.waitFor({ state: 'detached' });
      return options;
    };
    expect(await openCloseDialog()).toEqual(JUSTIFIES);

    // The admin changes the first justification on the settings screen.
    const admin = await newPage(browser);
    await signIn(admin.page, `http://${t.hosts.acme}`, 'admin@acme.test');
    await admin.page.getByRole('navigation', { name: 'Menu' }).getByRole('button', { name: 'Configurações' }).click();
    await admin.page.getByRole('heading', { name: 'Configurações', level: 2 }).waitFor();
    const first = admin.page.locator(`input[value="${JUSTIFIES[0]}"]`).first();
    await first.fill(NEW_JUSTIFY);
    await admin.page.getByRole('button', { name: 'Salvar', exact: true }).click();
    await admin.page.getByText('Configurações salvas.').waitFor();
    await admin.page.getByRole('table', { name: 'Histórico de alterações' }).getByText('encerramento.justifies').waitFor();
    await screenshot(admin.page, 'tenant-settings-saved');

    // The agent's app re-read its configuration live: same document, new list.
    await expect.poll(openCloseDialog, POLL).toEqual([NEW_JUSTIFY, JUSTIFIES[1]]);
    expect(await agent.page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  });
});
