import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_TAB_BY_ID } from '@atendimento/schemas';
import { startMetaGraphServer, type MetaGraphServer } from '@atendimento/integrations/providers/meta-graph-server';
import { toJson } from '@atendimento/server/db/knex';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { launchBrowser, screenshot } from './browser';
import { newPage, signIn } from './shell-helpers';

/**
 * Campaigns in Chromium (docs/campaigns.md): the admin uploads a CSV with 3 good and 2 bad rows,
 * sees the preview and the rejected rows with their reasons, confirms, watches the counters
 * move live to read (statuses posted by the local Graph server), pauses and unpauses; a
 * customer replies and the agent of the channel's department sees the chat with the
 * campaign's note and tag.
 */
const META = { appSecret: 'segredo-campanha-e2e', verifyToken: 'v', accessToken: 'token-campanha-e2e', phoneNumberId: 'PN-CAMP-E2E', businessAccountId: 'WABA-CAMP-E2E' };
const CHANNEL = 'wa-campanhas';
const POLL = { timeout: 30_000 };

let t: TestServer;
let graph: MetaGraphServer;
let browser: Browser;

beforeAll(async () => {
  graph = await startMetaGraphServer({ ...META, statusDelayMs: 300 });
  t = await startTestServer({ staticDir: path.resolve('engine/dist'), env: { PROVIDER_TRUSTED_HOSTS: new URL(graph.baseUrl).host } });
  const iso = t.server.clock.now().toISOString();
  await t.server.db('channels').insert({
    id: CHANNEL, tenant_id: 'acme', type: 'meta', display_name: 'WhatsApp Campanhas', active: true, created_at: iso, updated_at: iso, deleted_at: null,
    data: toJson({
      id: CHANNEL, type: 'meta', displayName: 'WhatsApp Campanhas', active: true, hide: false, color: '#25D366', menuOrder: 0, migrated: true, claims: {},
      // One message per second: the campaign is still sending when the admin pauses it.
      departmentId: 'vendas', phoneNumber: '5511999990000', provider: { baseUrl: graph.baseUrl, apiVersion: 'v21.0', messagesPerSecond: 1, ...META },
    }),
  });
  graph.setWebhookUrl(`http://${t.hosts.acme.replace(/^acme\.test/, '127.0.0.1')}/api/webhooks/whatsapp/${CHANNEL}`);
  const admin = await t.tokenFor('acme', 'acme-admin');
  expect((await t.api('/api/cronjob/proccess/syncTemplates', { method: 'POST', token: admin })).status).toBe(200);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await graph?.close();
});

describe('campaigns in the browser', () => {
  it('upload with preview and rejected rows, live counters to read, pause and unpause, a reply reaches the agent', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'campanha-e2e-'));
    const file = path.join(dir, 'campanha.csv');
    writeFileSync(file, ['chatId;nome', '5511987650001;Ana Campanha', '5511987650002;Bruno Campanha', '5511987650003;Carla Campanha', '123;Curto', '5511987650001;Ana de novo'].join('\n'));

    const { page } = await newPage(browser);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await signIn(page, `http://${t.hosts.acme}`, 'admin@acme.test');
    await page.goto(`http://${t.hosts.acme}/notifications`);
    await page.getByRole('switch', { name: 'Mostrar Notificações Externas' }).waitFor();
    expect(await page.getByRole('button', { name: 'Novo' }).isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Enviar CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Enviar CSV' });
    await dialog.getByRole('textbox', { name: 'Nome' }).fill('Campanha Verão');
    await dialog.getByRole('combobox', { name: 'Canal' }).click();
    await page.getByRole('option', { name: 'WhatsApp Campanhas' }).click();
    await dialog.getByRole('combobox', { name: 'Template' }).click();
    await page.getByRole('option', { name: 'boas_vindas (pt_BR)' }).click();
    await dialog.getByLabel('Arquivo CSV').setInputFiles(file);
    await dialog.getByRole('combobox', { name: 'Parâmetro {{1}}' }).click();
    await page.getByRole('option', { name: 'nome' }).click();
    await dialog.getByRole('textbox', { name: 'Etiqueta' }).fill('Verão');
    await dialog.getByRole('button', { name: 'Pré-visualização' }).click();

    const preview = dialog.getByTestId('campaign-preview');
    await preview.getByText('3 linhas válidas').waitFor();
    await preview.getByText('2 linhas rejeitadas').waitFor();
    await preview.getByText('Telefone inválido').waitFor();
    await preview.getByText('Número duplicado (mesmo número da linha 2)').waitFor();
    await screenshot(page, 'campaign-preview');
    // The rejected rows download as a CSV with the reason of each, in Portuguese.
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Baixar linhas rejeitadas' }).click()]);
    expect(download.suggestedFilename()).toBe('linhas-rejeitadas.csv');
    const rejected = readFileSync((await download.path())!, 'utf8');
    expect(rejected).toContain('Telefone inválido');
    expect(rejected).toContain('Número duplicado (mesmo número da linha 2)');
    expect(rejected.replace(/^\ufeff/, '').trim().split(/\r?\n/)).toHaveLength(3);
    expect(await dialog.getByRole('button', { name: 'Criar campanha' }).isDisabled()).toBe(true);
    await dialog.getByRole('checkbox', { name: 'Criar campanha só com as linhas válidas' }).check();
    await dialog.getByRole('button', { name: 'Criar campanha' }).click();

    // The detail screen: pause while it sends (1 msg/s), then unpause.
    await page.waitForURL(/\/notifications\/[\w-]+$/);
    await page.getByRole('button', { name: 'Pausar' }).click();
    await page.getByRole('button', { name: 'Retomar' }).waitFor();
    const sentWhilePaused = graph.sent.length;
    await page.waitForTimeout(2_000);
    expect(graph.sent.length).toBe(sentWhilePaused);
    await page.getByRole('button', { name: 'Retomar' }).click();

    // Counters move live to read (the provider posts sent → delivered → read).
    await expect.poll(() => page.getByLabel('Lidas', { exact: true }).textContent(), POLL).toBe('3');
    await expect.poll(() => page.getByText('Lido', { exact: true }).count(), POLL).toBe(3);
    expect(graph.sent).toHaveLength(3);
    expect(new Set(graph.sent.map((m) => m.to))).toEqual(new Set(['551187650001', '551187650002', '551187650003']));
    await screenshot(page, 'campaign-detail-read');

    // A customer replies: the agent of vendas sees the chat, from the campaign.
    await graph.customerSays({ phone: '551187650002', name: 'Bruno Campanha' }, { type: 'text', text: { body: 'Tenho interesse!' } });
    await expect.poll(() => page.getByLabel('Interagiram', { exact: true }).textContent(), POLL).toBe('1');

    const agent = await newPage(browser);
    await signIn(agent.page, `http://${t.hosts.acme}`, 'agente@acme.test');
    await agent.page.getByRole('tablist', { name: 'Abas de chats' }).getByRole('tab', { name: CHAT_TAB_BY_ID.queuesChats.label, exact: true }).click();
    const chatCard = agent.page.locator('[aria-label="Lista de chats"] [data-room-id]', { hasText: 'Bruno Campanha' });
    await chatCard.waitFor({ timeout: 30_000 });
    await chatCard.click();
    await agent.page.getByText('Resposta à campanha "Campanha Verão"').first().waitFor({ timeout: 30_000 });
    await agent.page.getByText('Verão', { exact: true }).first().waitFor({ timeout: 30_000 });
    await screenshot(agent.page, 'campaign-reply-agent');
    expect(errors).toEqual([]);
  }, 180_000);
});
