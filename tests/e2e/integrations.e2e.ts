import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startLocalErp, type LocalErp } from '@atendimento/integrations/erp/index';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { launchBrowser } from './browser';
import { closeToast, goTo, newPage, signIn, textBox, topScreenshot, waitForPath } from './shell-helpers';

/**
 * An admin defines a brand-new integration with a JSON Schema in the
 * browser, sees it appear in the menu, adds a record through the generated form (a pt-BR
 * validation error first, then success), edits the schema to add a field and sees the field
 * appear without a reload — in this tab and in an agent's tab left open on the form.
 */
let t: TestServer;
let browser: Browser;
let admin: { context: BrowserContext; page: Page };
let second: { context: BrowserContext; page: Page };
let erp: LocalErp;

beforeAll(async () => {
  t = await startTestServer({ staticDir: path.resolve('engine/dist') });
  browser = await launchBrowser();
  admin = await newPage(browser);
  second = await newPage(browser);
  await signIn(admin.page, t.baseUrl, 'admin@acme.test');
  // An agent: the integrations screen is not theirs, but the integration (no departments) is.
  await signIn(second.page, t.baseUrl, 'agente@acme.test');
});
afterAll(async () => {
  await erp?.close();
  await browser?.close();
  await t?.close();
});


const schemaV1 = {
  type: 'object',
  required: ['cliente', 'quantidade'],
  properties: {
    cliente: { type: 'string', title: 'Cliente', minLength: 1, errorMessage: { required: 'Informe o cliente', default: 'Informe o cliente' } },
    quantidade: { type: 'integer', title: 'Quantidade', minimum: 1, errorMessage: 'Informe uma quantidade maior que zero' },
  },
};
const schemaV2 = {
  ...schemaV1,
  properties: { ...schemaV1.properties, observacao: { type: 'string', title: 'Observação', maxLength: 200 } },
};

const schemaBox = (page: Page) => page.getByRole('textbox', { name: /^Schema do formulário \(master\)/ });

describe('an integration defined live in the browser', () => {
  it('appears in the menu, takes records through its generated form and follows a schema change without a reload', async () => {
    const { page } = admin;
    // Both tabs mark their window: a reload would lose the mark.
    for (const p of [page, second.page]) await p.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));

    await page.getByRole('button', { name: 'Integrações' }).click();
    await waitForPath(page, '/integrations');
    await page.getByRole('button', { name: 'Novo', exact: true }).click();
    await waitForPath(page, '/integrations/create');
    await page.getByRole('heading', { name: 'Nova Integração' }).or(page.getByRole('heading', { name: 'Novo Integração' })).first().waitFor();
    await textBox(page, 'Nome').fill('Pedidos Express');
    await textBox(page, 'Rota').fill('pedidos');
    await textBox(page, 'Coleção').fill('pedidos');
    // A schema ajv cannot compile is refused by the server, in pt-BR, on the field.
    await schemaBox(page).fill(JSON.stringify({ type: 'object', properties: { cliente: { type: 'texto' } } }, null, 2));
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText(/^Schema JSON inválido: /).first().waitFor();
    await schemaBox(page).fill(JSON.stringify(schemaV1, null, 2));
    await page.getByRole('button', { name: 'Salvar' }).click();
    await closeToast(page, 'Registro Salvo!');
    await waitForPath(page, '/integrations');
    await page.getByRole('row').filter({ hasText: 'Pedidos Express' }).waitFor();

    // The menu gains the entry at once, in this tab and in the agent's.
    const nav = page.getByRole('navigation', { name: 'Menu' });
    await nav.getByRole('button', { name: 'Pedidos Express' }).waitFor();
    await second.page.getByRole('navigation', { name: 'Menu' }).getByRole('button', { name: 'Pedidos Express' }).waitFor();
    await topScreenshot(page, 'integrations-menu');

    await nav.getByRole('button', { name: 'Pedidos Express' }).click();
    await waitForPath(page, '/pedidos');
    await page.getByRole('heading', { name: 'Pedidos Express', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Novo', exact: true }).click();
    await waitForPath(page, '/integration/pedidos/create');
    await textBox(page, 'Cliente').waitFor();
    expect(await textBox(page, 'Observação').count()).toBe(0);

    // The generated form validates in pt-BR with the schema's own messages.
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Informe o cliente').waitFor();
    await page.getByRole('spinbutton', { name: /^Quantidade/ }).or(textBox(page, 'Quantidade')).first().fill('0');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Informe uma quantidade maior que zero').waitFor();
    await topScreenshot(page, 'integrations-record-invalid');
    expect(await t.server.db('integration_records').where({ tenant_id: 'acme', collection: 'pedidos' }).count({ n: '*' }).first()).toMatchObject({ n: 0 });

    await textBox(page, 'Cliente').fill('Padaria Pão de Mel');
    await page.getByRole('spinbutton', { name: /^Quantidade/ }).or(textBox(page, 'Quantidade')).first().fill('12');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await closeToast(page, 'Registro Salvo!');
    await waitForPath(page, '/pedidos');
    const row = page.getByRole('row').filter({ hasText: 'Padaria Pão de Mel' });
    await row.waitFor();
    await row.getByText('12').waitFor();
    const stored = await t.server.db('integration_records').where({ tenant_id: 'acme', collection: 'pedidos' }).whereNull('deleted_at');
    expect(stored).toHaveLength(1);
    await topScreenshot(page, 'integrations-records-list');

    // The agent opens the same form and stays there while the schema changes.
    await goTo(second.page, '/integration/pedidos/create');
    await textBox(second.page, 'Cliente').waitFor();
    expect(await textBox(second.page, 'Observação').count()).toBe(0);

    // Edit the definition: add a field to the schema.
    await goTo(page, '/integrations');
    await page.getByRole('row').filter({ hasText: 'Pedidos Express' }).getByRole('button', { name: 'Editar' }).click();
    await expect.poll(async () => (await schemaBox(page).inputValue()).includes('"quantidade"')).toBe(true);
    await schemaBox(page).fill(JSON.stringify(schemaV2, null, 2));
    await page.getByRole('button', { name: 'Salvar' }).click();
    await closeToast(page, 'Registro Salvo!');
    await waitForPath(page, '/integrations');

    // The agent's open form shows the new field by itself.
    await textBox(second.page, 'Observação').waitFor();
    await topScreenshot(second.page, 'integrations-form-live-field');
    // And here: the list and the form of the integration follow the new schema.
    await page.getByRole('navigation', { name: 'Menu' }).getByRole('button', { name: 'Pedidos Express' }).click();
    await waitForPath(page, '/pedidos');
    await page.getByRole('row').filter({ hasText: 'Padaria Pão de Mel' }).getByRole('button', { name: 'Editar' }).click();
    await textBox(page, 'Observação').fill('Entregar pela manhã');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await closeToast(page, 'Registro Salvo!');
    await page.getByRole('row').filter({ hasText: 'Entregar pela manhã' }).waitFor();

    for (const p of [page, second.page]) expect(await p.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
  });
});

describe('a call-to-action document in the browser', () => {
  it("generates the ERP's PDF from a record and shows it in a dialog", async () => {
    erp = await startLocalErp();
    await t.patchAppConfig({ erp: { urls: [erp.url] } as never });
    const token = await t.tokenFor('acme', 'acme-admin');
    const defined = await t.api('/api/integrations', {
      method: 'POST',
      token,
      body: {
        name: 'Orçamentos',
        register: 'orcamentos',
        collection: 'orcamentos',
        idField: 'numero',
        order: 5,
        callToAction: [{ label: 'Gerar orçamento', method: 'POST', path: '/documentos/pedido', field: 'URL', fileName: 'orcamento', fileExt: 'pdf' }],
        vjsfSchemaMaster: { type: 'object', required: ['numero'], properties: { numero: { type: 'string', title: 'Número' }, cliente: { type: 'string', title: 'Cliente' } } },
      },
    });
    expect(defined.status).toBe(201);
    expect((await t.api('/api/integration/orcamentos', { method: 'POST', token, body: { numero: '777', cliente: 'Mercado Boa Vista' } })).status).toBe(201);

    const { page } = admin;
    await page.getByRole('navigation', { name: 'Menu' }).getByRole('button', { name: 'Orçamentos' }).click();
    await waitForPath(page, '/orcamentos');
    await page.getByRole('row').filter({ hasText: 'Mercado Boa Vista' }).getByRole('button', { name: 'Visualizar' }).click();
    await waitForPath(page, '/integration/orcamentos/777/show');
    // The waiting toast may come and go quickly: remember every alert text the page shows.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __alerts: string[] }).__alerts = seen;
      new MutationObserver(() => document.querySelectorAll('[role="alert"]').forEach((el) => seen.push(el.textContent ?? ''))).observe(document.body, { childList: true, subtree: true });
    });
    await page.getByRole('button', { name: 'Gerar orçamento' }).click();
    const dialog = page.getByRole('dialog', { name: 'orcamento-777.pdf' });
    await dialog.waitFor();
    expect(await page.evaluate(() => (window as unknown as { __alerts: string[] }).__alerts.some((text) => text.includes('Aguarde! Gerando documento...')))).toBe(true);
    await dialog.locator('iframe').waitFor();
    await topScreenshot(page, 'integrations-document-dialog');
    expect(erp.requests.some((r) => r.path.endsWith('/documentos/pedido') && (r.body as { numero?: string })?.numero === '777')).toBe(true);
  });
});

describe('the API screen in the browser', () => {
  it("generates a token ('Token gerado'), copies it ('Token copiado') and the token works only within its scope", async () => {
    await t.patchAppConfig({ api: true });
    const { page, context } = admin;
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.baseUrl });
    // Opened by its address: '/api' alone is the app's screen, not the REST API.
    await page.goto(`${t.baseUrl}/api`);
    await page.getByRole('heading', { name: 'API', level: 2 }).waitFor();
    expect(await page.getByLabel('URL da API').inputValue()).toBe(`${t.baseUrl}/api`);
    expect(await page.getByRole('link', { name: 'Documentação da API (OpenAPI)' }).getAttribute('href')).toBe('/api/openapi.json');

    await page.getByLabel('Identificador').fill('erp-e2e');
    await page.getByLabel('URLs permitidas').fill('/api/tags');
    await page.getByRole('button', { name: 'Gerar novo token' }).click();
    await closeToast(page, 'Token gerado');
    const token = await page.getByLabel('Token de acesso').inputValue();
    expect(token).toMatch(/^atk_/);
    await page.getByRole('button', { name: 'Copiar token' }).click();
    await closeToast(page, 'Token copiado');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    await page.getByRole('row').filter({ hasText: 'erp-e2e' }).waitFor();
    await topScreenshot(page, 'api-screen');

    // An external caller with the token: GET /api/tags only.
    const calls = await page.evaluate(async (bearer) => {
      const call = async (path: string, method = 'GET') => {
        const res = await fetch(path, { method, headers: { Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json' }, ...(method !== 'GET' && { body: '{"name":"x"}' }) });
        return { status: res.status, body: await res.json() };
      };
      return { tags: await call('/api/tags'), agents: await call('/api/agents'), post: await call('/api/tags', 'POST') };
    }, token);
    expect(calls.tags.status).toBe(200);
    expect(calls.agents).toEqual({ status: 403, body: { error: 'api_token_scope', errorMessage: 'Este token de API não permite GET /api/agents.' } });
    expect(calls.post.status).toBe(403);
    expect(calls.post.body.errorMessage).toBe('Este token de API não permite POST /api/tags.');

    // Revoked on the screen: the same call is a 401.
    await page.getByRole('button', { name: 'Revogar erp-e2e' }).click();
    await closeToast(page, 'Token revogado');
    const after = await page.evaluate(async (bearer) => (await fetch('/api/tags', { headers: { Authorization: `Bearer ${bearer}` } })).status, token);
    expect(after).toBe(401);
  });
});
