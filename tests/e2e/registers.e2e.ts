import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { launchBrowser, screenshot } from './browser';
import { animationsDone, newPage, signIn, waitForPath } from './shell-helpers';

/**
 * The generic register screens in a real Chromium against the real server (issue 6): an admin
 * opens Contatos, creates a contact through a validation error, finds it in the list, edits it.
 */
let t: TestServer;
let browser: Browser;

beforeAll(async () => {
  t = await startTestServer({ staticDir: path.resolve('engine/dist') });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** A form text box by its label, ignoring the required mark ('Nome *' is not 'Nome Completo'). */
const box = (page: Page, label: string) => page.getByRole('textbox', { name: new RegExp(`^${label}\\s*\\*?$`) });

describe('Contatos in the browser', () => {
  it('creates a contact through a validation error, lists it and edits it', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, t.baseUrl, 'admin@acme.test');
    await page.getByRole('button', { name: 'Contatos' }).click();
    await waitForPath(page, '/contacts');
    await page.getByRole('heading', { name: 'Contatos', level: 1 }).waitFor();
    await page.getByText('Esta lista está vazia').waitFor();
    await screenshot(page, 'registers-contacts-empty');

    await page.getByRole('button', { name: 'Novo', exact: true }).click();
    await waitForPath(page, '/contacts/create');
    await page.getByRole('heading', { name: 'Novo Contato' }).waitFor();
    // Defaults from the schema: Ativo on, channel WhatsApp.
    expect(await page.getByRole('switch', { name: 'Ativo' }).isChecked()).toBe(true);
    await box(page, 'E-mail').fill('maria@');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Informe o nome de exibição').waitFor();
    await page.getByText('Informe um e-mail válido').waitFor();
    await screenshot(page, 'registers-contact-invalid');
    expect(new URL(page.url()).pathname).toBe('/contacts/create');

    await box(page, 'Nome').fill('Maria Souza');
    await box(page, 'E-mail').fill('Maria@Exemplo.com.br');
    await box(page, 'Telefone').fill('+55 (11) 99999-0001');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Registro Salvo!').waitFor();
    await waitForPath(page, '/contacts');
    const row = page.getByRole('row').filter({ hasText: 'Maria Souza' });
    await row.waitFor();
    // Stored as the server normalises it.
    await row.getByText('5511999990001').waitFor();
    await row.getByText('maria@exemplo.com.br').waitFor();
    await screenshot(page, 'registers-contacts-list');

    // The table search finds it (2 letters at least).
    await page.getByRole('textbox', { name: 'Buscar' }).fill('m');
    await page.getByText('Favor informar pelo menos 2 letras').waitFor();
    await page.getByRole('textbox', { name: 'Buscar' }).fill('mari');
    await row.waitFor();

    await row.getByRole('button', { name: 'Editar' }).click();
    await page.getByRole('heading', { name: 'Editar Contato' }).waitFor();
    await expect.poll(() => box(page, 'Nome').inputValue()).toBe('Maria Souza');
    await box(page, 'Nome').fill('Maria Aparecida');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Registro Salvo!').first().waitFor();
    await waitForPath(page, '/contacts');
    await page.getByRole('row').filter({ hasText: 'Maria Aparecida' }).waitFor();
    await animationsDone(page);
    await screenshot(page, 'registers-contacts-edited');

    const stored = await t.server.db('contacts').where({ display_name: 'Maria Aparecida' }).first();
    expect(stored).toBeTruthy();
    await context.close();
  });

  it('opens a department form at its URL and shows the seed message for a missing name', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, t.baseUrl, 'admin@acme.test');
    await page.goto(`${t.baseUrl}/departaments/create`);
    await page.getByRole('heading', { name: /Novo Departamento/ }).waitFor();
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Informe o nome de exibição').first().waitFor();
    await screenshot(page, 'registers-department-invalid');
    await context.close();
  });
});
