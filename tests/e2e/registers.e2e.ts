import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { setTenantClaims } from '../server/registers/register-test-kit';
import { launchBrowser } from './browser';
import { animationsDone, closeToast, goTo, newPage, signIn, textBox, topScreenshot, waitForPath } from './shell-helpers';

/**
 * The generic register screens in a real Chromium against the real server: full
 * round trips for contacts and departments (create through a validation error, list, search,
 * edit, duplicate, delete with the seed's confirmation), CSV import and download, every
 * register's list and form with one invalid submit each, and the guard for a non-admin.
 */
let t: TestServer;
let browser: Browser;
/** One signed-in admin page shared by the tests that do not need a fresh profile. */
let admin: { context: BrowserContext; page: Page };

/** Tenant claims that open the claim-guarded registers (seed 000 §2). */
const TENANT_CLAIMS = { clients: true, participants: true, stores: true, negotiations: true, employees: true, products: true, metaChannel: true, flowsView: true, queues: true, enableAgentStatusExporter: true };

beforeAll(async () => {
  t = await startTestServer({ staticDir: path.resolve('engine/dist') });
  await setTenantClaims(t, TENANT_CLAIMS);
  browser = await launchBrowser();
  admin = await newPage(browser);
  await signIn(admin.page, t.baseUrl, 'admin@acme.test');
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});


async function confirmDelete(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Tem certeza que quer deletar o item?' });
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'DELETAR', exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
}

describe('Contatos in the browser', () => {
  it('creates through a validation error, lists, searches, edits, duplicates and deletes', async () => {
    const { page } = admin;
    await page.getByRole('button', { name: 'Contatos' }).click();
    await waitForPath(page, '/contacts');
    await page.getByRole('heading', { name: 'Contatos', level: 1 }).waitFor();
    await page.getByText('Esta lista está vazia').waitFor();

    await page.getByRole('button', { name: 'Novo', exact: true }).click();
    await waitForPath(page, '/contacts/create');
    await page.getByRole('heading', { name: 'Novo Contato' }).waitFor();
    // Defaults from the schema: Ativo on, channel WhatsApp.
    expect(await page.getByRole('switch', { name: 'Ativo' }).isChecked()).toBe(true);
    await textBox(page, 'E-mail').fill('maria@');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Informe o nome de exibição').waitFor();
    await page.getByText('Informe um e-mail válido').waitFor();
    await topScreenshot(page, 'registers-contact-invalid');
    expect(new URL(page.url()).pathname).toBe('/contacts/create');

    await textBox(page, 'Nome').fill('Maria Souza');
    await textBox(page, 'E-mail').fill('Maria@Exemplo.com.br');
    await textBox(page, 'Telefone').fill('+55 (11) 99999-0001');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await closeToast(page, 'Registro Salvo!');
    await waitForPath(page, '/contacts');
    const row = page.getByRole('row').filter({ hasText: 'Maria Souza' });
    await row.waitFor();
    // Stored as the server normalises it (digits; the CSV below reads them), shown as the console writes phones.
    await row.getByText('+55 (11) 99999.0001').waitFor();
    await row.getByText('maria@exemplo.com.br').waitFor();
    await topScreenshot(page, 'registers-contacts-list');

    // The table search finds it (2 letters at least).
    const search = page.getByRole('textbox', { name: 'Buscar' });
    await search.fill('m');
    await page.getByText('Favor informar pelo menos 2 letras').waitFor();
    await search.fill('mari');
    await row.waitFor();

    await row.getByRole('button', { name: 'Editar' }).click();
    await page.getByRole('heading', { name: 'Editar Contato' }).waitFor();
    await expect.poll(() => textBox(page, 'Nome').inputValue()).toBe('Maria Souza');
    await textBox(page, 'Nome').fill('Maria Aparecida');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await closeToast(page, 'Registro Salvo!');
    await waitForPath(page, '/contacts');
    await page.getByRole('row').filter({ hasText: 'Maria Aparecida' }).waitFor();
    await animationsDone(page);
    const stored = await t.server.db('contacts').where({ display_name: 'Maria Aparecida' }).first();
    expect(stored).toBeTruthy();

    // Duplicate: a new form filled with a copy; saving makes a second record.
    await search.fill('');
    await page.getByRole('row').filter({ hasText: 'Maria Aparecida' }).getByRole('button', { name: 'Duplicar' }).click();
    await waitForPath(page, '/contacts/create');
    await page.getByRole('heading', { name: 'Novo Contato' }).waitFor();
    await expect.poll(() => textBox(page, 'Nome').inputValue()).toBe('Maria Aparecida');
    expect(await textBox(page, 'E-mail').inputValue()).toBe('maria@exemplo.com.br');
    await textBox(page, 'Nome').fill('Maria Cópia');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await closeToast(page, 'Registro Salvo!');
    await waitForPath(page, '/contacts');
    const copy = page.getByRole('row').filter({ hasText: 'Maria Cópia' });
    await copy.waitFor();
    await copy.getByText('maria@exemplo.com.br').waitFor();

    // Delete asks first; Cancelar keeps the row, DELETAR soft-deletes it.
    await copy.getByRole('button', { name: 'Excluir' }).click();
    const dialog = page.getByRole('dialog', { name: 'Tem certeza que quer deletar o item?' });
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await dialog.waitFor({ state: 'detached' });
    await copy.waitFor();
    await copy.getByRole('button', { name: 'Excluir' }).click();
    await confirmDelete(page);
    await closeToast(page, 'Registro Deletado!');
    await copy.waitFor({ state: 'detached' });
    await page.getByRole('row').filter({ hasText: 'Maria Aparecida' }).waitFor();
    const deleted = await t.server.db('contacts').where({ display_name: 'Maria Cópia' }).first();
    expect(deleted.deleted_at).toBeTruthy();
  });

  it('imports a CSV (one bad row reported) and downloads the list as CSV', async () => {
    const { page } = admin;
    await goTo(page, '/contacts');
    await page.getByRole('button', { name: 'Importar CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Importar registros (CSV)' });
    await dialog.waitFor();
    // A file that is not .csv is refused before sending.
    await dialog.getByLabel('Importar CSV').setInputFiles({ name: 'contatos.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
    await dialog.getByRole('button', { name: 'Importar', exact: true }).click();
    await dialog.getByText('Somente arquivos .csv são aceitos.').waitFor();
    const csv = ['displayName;phone;email;channels', 'Importado Um;5511988880001;um@exemplo.com;whatsapp', ';5511988880002;;webchat', 'Importado Dois;;dois@exemplo.com;webchat|whatsapp'].join('\n');
    await dialog.getByLabel('Importar CSV').setInputFiles({ name: 'contatos.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await topScreenshot(page, 'registers-import-dialog');
    await dialog.getByRole('button', { name: 'Importar', exact: true }).click();
    // meta.hasErrors: the server's message, as a warning, naming the failing line.
    const severity = await closeToast(page, '2 registro(s) importado(s); 1 linha(s) com erro: Linha 3: Informe o nome de exibição');
    expect(severity).toMatch(/Warning/);
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('row').filter({ hasText: 'Importado Um' }).waitFor();
    await page.getByRole('row').filter({ hasText: 'Importado Dois' }).waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Baixar CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('contacts.csv');
    const text = (await readFile((await download.path())!, 'utf8')).replace(/^\ufeff/, '');
    const lines = text.trim().split(/\r?\n/);
    // Raw CSV: the header names the fields, so the file imports back as it is.
    expect(lines[0]!.split(';')).toEqual(expect.arrayContaining(['id', 'displayName', 'phone', 'email', 'channels']));
    expect(lines.some((l) => l.includes('Importado Um') && l.includes('5511988880001'))).toBe(true);
    expect(lines.some((l) => l.includes('Importado Dois') && l.includes('webchat|whatsapp'))).toBe(true);
    expect(lines.some((l) => l.includes('Maria Aparecida'))).toBe(true);
    // Deleted rows are not exported.
    expect(lines.some((l) => l.includes('Maria Cópia'))).toBe(false);

    // Print list: the PDF preview opens in a dialog, and the page's CSP lets it load.
    const violations: string[] = [];
    const onConsole = (msg: { text(): string }) => /Content Security Policy|Refused to frame/i.test(msg.text()) && violations.push(msg.text());
    page.on('console', onConsole);
    await page.getByRole('button', { name: 'Imprimir lista' }).click();
    const preview = page.getByRole('dialog', { name: 'Imprimir lista' });
    const frame = preview.locator('iframe[title="Imprimir lista"]');
    await frame.waitFor();
    expect(await frame.getAttribute('src')).toMatch(/^blob:/);
    await expect.poll(() => violations, { timeout: 3000 }).toEqual([]);
    await topScreenshot(page, 'registers-print-preview');
    page.off('console', onConsole);
    await preview.getByRole('button', { name: 'Fechar' }).click();
    await preview.waitFor({ state: 'detached' });
  });
});

describe('Contatos: remover clientes', () => {
  it('unlinks a client from a contact from its row', async () => {
    const { page } = admin;
    const token = await t.tokenFor('acme', 'acme-admin');
    const ids: string[] = [];
    for (const name of ['ACME SA', 'Beta Ltda']) ids.push((await t.api('/api/clients', { method: 'POST', token, body: { displayName: name, CGC: ['12.345.678-90'] } })).body.id);
    const contact = await t.api('/api/contacts', { method: 'POST', token, body: { displayName: 'Ana Com Clientes', channels: ['webchat'], clients: ids } });
    expect(contact.status).toBe(201);
    await goTo(page, '/contacts');
    const row = page.getByRole('row').filter({ hasText: 'Ana Com Clientes' });
    await row.getByRole('button', { name: 'Remover clientes' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remover clientes do contato' });
    await dialog.getByRole('checkbox', { name: 'ACME SA' }).check();
    await dialog.getByRole('button', { name: 'Remover', exact: true }).click();
    await closeToast(page, 'Clientes removidos do contato.');
    const stored = await t.api(`/api/contacts/${contact.body.id}`, { token });
    expect(stored.body).toMatchObject({ clients: [ids[1]], removedClients: [ids[0]] });
  });
});

describe('live updates', () => {
  it("shows another user's new, changed and deleted contacts without a reload", async () => {
    const { page } = admin;
    await goTo(page, '/contacts');
    await page.getByRole('row').filter({ hasText: 'Maria Aparecida' }).waitFor();
    // The page must not reload: a marker on window survives only in-app updates.
    await page.evaluate(() => ((window as unknown as { liveMarker: number }).liveMarker = 1));
    const token = await t.tokenFor('acme', 'acme-admin');
    const created = await t.api('/api/contacts', { method: 'POST', token, body: { displayName: 'Ao Vivo Um', channels: ['webchat'] } });
    expect(created.status).toBe(201);
    await page.getByRole('row').filter({ hasText: 'Ao Vivo Um' }).waitFor({ timeout: 10_000 });
    await t.api(`/api/contacts/${created.body.id}`, { method: 'PATCH', token, body: { displayName: 'Ao Vivo Dois' } });
    await page.getByRole('row').filter({ hasText: 'Ao Vivo Dois' }).waitFor({ timeout: 10_000 });
    await t.api(`/api/contacts/${created.body.id}`, { method: 'DELETE', token });
    await page.getByRole('row').filter({ hasText: 'Ao Vivo Dois' }).waitFor({ state: 'detached', timeout: 10_000 });
    expect(await page.evaluate(() => (window as unknown as { liveMarker?: number }).liveMarker)).toBe(1);
  });
});

describe('Departamentos in the browser', () => {
  it('creates through a validation error, lists, edits, duplicates and deletes', async () => {
    const { page } = admin;
    await goTo(page, '/departaments');
    await page.getByRole('heading', { name: 'Departamentos', level: 1 }).waitFor();
    // The fixture departments.
    await page.getByRole('row').filter({ hasText: 'Vendas' }).waitFor();

    await page.getByRole('button', { name: 'Novo', exact: true }).click();
    await waitForPath(page, '/departaments/create');
    await page.getByRole('heading', { name: 'Novo Departamento' }).waitFor();
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Informe o nome de exibição').first().waitFor();
    await topScreenshot(page, 'registers-department-invalid');
    expect(new URL(page.url()).pathname).toBe('/departaments/create');

    await textBox(page, 'Nome').fill('Pós-venda');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await closeToast(page, 'Registro Salvo!');
    await waitForPath(page, '/departaments');
    const row = page.getByRole('row').filter({ hasText: 'Pós-venda' });
    await row.waitFor();

    await row.getByRole('button', { name: 'Editar' }).click();
    await page.getByRole('heading', { name: 'Editar Departamento' }).waitFor();
    await expect.poll(() => textBox(page, 'Nome').inputValue()).toBe('Pós-venda');
    await textBox(page, 'Nome').fill('Pós-venda Sul');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await closeToast(page, 'Registro Salvo!');
    await waitForPath(page, '/departaments');
    const edited = page.getByRole('row').filter({ hasText: 'Pós-venda Sul' });
    await edited.waitFor();
    const id = (await t.server.db('departments').where({ display_name: 'Pós-venda Sul' }).first()).id as string;
    // Saving a department creates its queue (seed 001 §3).
    expect(await t.server.db('queues').where({ id: `depto${id}` }).first()).toBeTruthy();

    await edited.getByRole('button', { name: 'Duplicar' }).click();
    await page.getByRole('heading', { name: 'Novo Departamento' }).waitFor();
    await expect.poll(() => textBox(page, 'Nome').inputValue()).toBe('Pós-venda Sul');
    await textBox(page, 'Nome').fill('Pós-venda Norte');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await closeToast(page, 'Registro Salvo!');
    await waitForPath(page, '/departaments');
    const copy = page.getByRole('row').filter({ hasText: 'Pós-venda Norte' });
    await copy.waitFor();

    await copy.getByRole('button', { name: 'Excluir' }).click();
    await confirmDelete(page);
    await closeToast(page, 'Registro Deletado!');
    await copy.waitFor({ state: 'detached' });
    await edited.waitFor();

    // Bulk delete: select, confirm, 'Registros Deletados!'.
    await edited.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Excluir selecionados' }).click();
    await confirmDelete(page);
    await closeToast(page, 'Registros Deletados!');
    await edited.waitFor({ state: 'detached' });
    const gone = await t.server.db('departments').where({ id }).first();
    expect(gone.deleted_at).toBeTruthy();
  });
});

/**
 * Every register of the issue: its list opens (title, table or the empty text) and its create
 * form refuses one invalid submit with the seed's message (000 §5, 001 §5).
 */
interface RegisterCase {
  name: string;
  label: string;
  /** The create form's title ('Novo Contato', 'Nova Categoria'). */
  title: string;
  /** Fills what the case needs before Salvar (nothing: an empty submit). */
  fill?: (page: Page) => Promise<void>;
  messages: string[];
}

const CASES: RegisterCase[] = [
  { name: 'contacts', label: 'Contatos', title: 'Novo Contato', messages: ['Informe o nome de exibição'] },
  { name: 'clients', label: 'Clientes', title: 'Novo Cliente', messages: ['Informe o nome de exibição', 'Informe um CGC'] },
  { name: 'agents', label: 'Agentes', title: 'Novo Agente', fill: (p) => textBox(p, 'Senha').fill('123'), messages: ['Informe o nome de exibição', 'Informe o e-mail', 'A senha deve conter pelo menos 6 caracteres'] },
  { name: 'departaments', label: 'Departamentos', title: 'Novo Departamento', messages: ['Informe o nome de exibição'] },
  { name: 'queues', label: 'Filas', title: 'Nova Fila', messages: ['Campo obrigatório'] },
  { name: 'tags', label: 'Tags', title: 'Nova Tag', messages: ['Campo obrigatório'] },
  { name: 'flows', label: 'Fluxos', title: 'Novo Fluxo', messages: ['Campo obrigatório'] },
  { name: 'faq', label: 'FAQ', title: 'Novo FAQ', messages: ['Campo obrigatório'] },
  { name: 'faqCategories', label: 'Categorias do FAQ', title: 'Nova Categoria', fill: (p) => textBox(p, 'Nome').fill('x'.repeat(25)), messages: ['O nome não pode ultrapassar 24 caracteres'] },
  { name: 'faqQuestions', label: 'Perguntas do FAQ', title: 'Nova Pergunta', fill: (p) => textBox(p, 'Pergunta').fill('y'.repeat(73)), messages: ['A pergunta não pode ultrapassar 72 caracteres'] },
  { name: 'fixedMessages', label: 'Mensagens Fixas', title: 'Nova Mensagem Fixa', fill: (p) => textBox(p, 'Mensagem').fill('1 começa com número'), messages: ['valor inválido'] },
  { name: 'dm_qrcodes', label: 'QR Codes', title: 'Novo QR Code', messages: ['Informe um tipo', 'Informe um canal'] },
  { name: 'contingecies', label: 'Contingências', title: 'Nova Contingência', fill: async (p) => { await textBox(p, 'Data inicial').fill('24122026'); await textBox(p, 'Hora inicial').fill('2500'); }, messages: ['Formato Invalido (23:59)', 'Campo obrigatório'] },
  { name: 'employees', label: 'Funcionários', title: 'Novo Funcionário', messages: ['Campo obrigatório'] },
  { name: 'products', label: 'Produtos', title: 'Novo Produto', messages: ['Campo obrigatório'] },
  { name: 'participants', label: 'Participantes', title: 'Novo Participante', messages: ['Informe o nome de exibição'] },
  { name: 'stores', label: 'Lojas', title: 'Nova Loja', messages: ['Informe o nome da loja'] },
  { name: 'negotiations', label: 'Negociações', title: 'Nova Negociação', messages: ['Informe o nome de exibição'] },
];

describe('every register as admin', () => {
  it('opens its list, downloads it as CSV, opens its create form, and an invalid submit shows the seed message', async () => {
    const { page } = admin;
    const failures: string[] = [];
    for (const c of CASES) {
      try {
        await goTo(page, `/${c.name}`);
        await page.getByRole('heading', { name: c.label, level: 1 }).or(page.getByRole('tab', { name: c.label, selected: true })).first().waitFor({ timeout: 10_000 });
        await page.getByRole('table').or(page.getByText('Esta lista está vazia')).first().waitFor({ timeout: 10_000 });
        await topScreenshot(page, `registers-list-${c.name}`);
        // Every register downloads its list as CSV from the toolbar.
        const [download] = await Promise.all([page.waitForEvent('download', { timeout: 10_000 }), page.getByRole('button', { name: 'Baixar CSV' }).click()]);
        expect(download.suggestedFilename()).toBe(`${c.name}.csv`);
        expect((await readFile((await download.path())!, 'utf8')).replace(/^\ufeff/, '').split(/\r?\n/)[0]).toMatch(/^id;/);
        await page.getByRole('button', { name: 'Novo', exact: true }).click();
        await waitForPath(page, `/${c.name}/create`);
        await page.getByRole('heading', { name: c.title, exact: true }).waitFor({ timeout: 10_000 });
        await c.fill?.(page);
        await page.getByRole('button', { name: 'Salvar' }).click();
        for (const message of c.messages) await page.getByText(message, { exact: true }).first().waitFor({ timeout: 5_000 });
        expect(new URL(page.url()).pathname).toBe(`/${c.name}/create`);
        await topScreenshot(page, `registers-form-${c.name}`);
      } catch (error) {
        failures.push(`${c.name}: ${(error as Error).message.split('\n')[0]}`);
        await topScreenshot(page, `registers-failed-${c.name}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

describe('Agentes: status history export', () => {
  it("e-mails the agents' status history for a period through the real SMTP path", async () => {
    const { page } = admin;
    await goTo(page, '/agents');
    await page.getByRole('row').filter({ hasText: 'Suporte Acme' }).waitFor();
    await page.getByRole('button', { name: 'Exportar histórico' }).click();
    const dialog = page.getByRole('dialog', { name: 'Exportar histórico de status' });
    await dialog.waitFor();
    await dialog.getByRole('textbox', { name: 'Data inicial' }).fill('01012026');
    await dialog.getByRole('textbox', { name: 'Data final' }).fill('01062026');
    await dialog.getByRole('button', { name: 'Exportar' }).click();
    await dialog.getByText('Selecione o período (até 90 dias)').waitFor();
    await topScreenshot(page, 'registers-status-export-dialog');
    const today = new Date().toISOString().slice(0, 10).split('-').reverse().join('');
    await dialog.getByRole('textbox', { name: 'Data final' }).fill(today);
    await dialog.getByRole('textbox', { name: 'Data inicial' }).fill(today);
    t.smtp.inbox.length = 0;
    await dialog.getByRole('button', { name: 'Exportar' }).click();
    await closeToast(page, 'Exportação solicitada!');
    const mail = await t.smtp.waitFor('admin@acme.test');
    expect(mail.subject).toBe('Exportação: Agentes - status');
  });
});

describe('Negociações in the browser', () => {
  it("shows a negotiation read-only with its photos carousel and the order and sheet links", async () => {
    const { page } = admin;
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    const photos = [];
    for (const description of ['Frente', 'Lateral']) photos.push({ src: (await t.server.services.blobs.put('acme', png, 'png')).url, description });
    const token = await t.tokenFor('acme', 'acme-admin');
    const created = await t.api('/api/negotiations', {
      method: 'POST', token,
      body: { displayName: 'Negociação Frota', photos, order: { link: 'https://erp.exemplo.com/pedidos/1' }, sheet: { link: 'https://erp.exemplo.com/fichas/1' } },
    });
    expect(created.status).toBe(201);
    await goTo(page, '/negotiations');
    await page.getByRole('row').filter({ hasText: 'Negociação Frota' }).getByRole('button', { name: 'Visualizar' }).click();
    await waitForPath(page, `/negotiations/${created.body.id}/show`);
    const carousel = page.getByRole('region', { name: 'Fotos' });
    await carousel.getByRole('img', { name: 'Frente' }).waitFor();
    // The stored image really loads (same-origin file route, CSP allows it).
    await expect.poll(() => carousel.getByRole('img', { name: 'Frente' }).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
    await carousel.getByRole('button', { name: 'Próxima' }).click();
    await carousel.getByRole('img', { name: 'Lateral' }).waitFor();
    expect(await page.getByRole('link', { name: 'Pedido' }).getAttribute('href')).toBe('https://erp.exemplo.com/pedidos/1');
    expect(await page.getByRole('link', { name: 'Ficha da negociação' }).getAttribute('href')).toBe('https://erp.exemplo.com/fichas/1');
    // Read-only: no Salvar.
    expect(await page.getByRole('button', { name: 'Salvar' }).count()).toBe(0);
    await topScreenshot(page, 'registers-negotiation-show');
  });
});

describe('a non-admin agent', () => {
  it('typing a register URL lands on /', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, t.baseUrl, 'suporte@acme.test');
    for (const name of ['contacts', 'agents', 'departaments/create']) {
      await page.goto(`${t.baseUrl}/${name}`);
      await waitForPath(page, '/');
      await page.getByRole('navigation', { name: 'Menu' }).waitFor();
    }
    expect(await page.getByRole('heading', { name: 'Contatos', level: 1 }).count()).toBe(0);
    // Fixed messages need no admin (seed 000 §2): the agent opens them.
    await page.goto(`${t.baseUrl}/fixedMessages`);
    await waitForPath(page, '/fixedMessages');
    await page.getByRole('heading', { name: 'Mensagens Fixas', level: 1 }).waitFor();
    await context.close();
  });
});
