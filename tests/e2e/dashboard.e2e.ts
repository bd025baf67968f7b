import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { format, messages } from '@atendimento/schemas';
import { ManualClock } from '@atendimento/server';
import { startChatServer, stopChatServer, visitorStarts, type ChatTest } from '../server/chat/chat-helpers';
import { launchBrowser, screenshot } from './browser';
import { newPage, signIn, waitForPath, goTo } from './shell-helpers';

/**
 * The supervisors' dashboard in Chromium (docs/reports.md): yesterday morning (São Paulo) two
 * chats of vendas are routed to its agent by 'Menor carga', answered after 2 and 4 minutes and
 * closed after 10 and 20 with NPS 10 and 8; one chat of suporte is answered by its own agent.
 * The supervisor of vendas opens /dashboard: 2 chats, first answer 3 min, TMA 15 min, NPS 50
 * (their department only), switches to lines and the monthly view, downloads a chart's CSV,
 * requests the export and the mail arrives. An agent without the permission cannot open it.
 */
let t: ChatTest;
let clock: ManualClock;
let browser: Browser;
const text = messages.dashboard;
const ZONE = 'America/Sao_Paulo';
const dayOf = (at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(at);
const today = dayOf(new Date());
const yesterday = new Date(Date.parse(`${today}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
const MINUTE = 60_000;

async function api(pathName: string, token: string, method = 'GET', body?: unknown) {
  const res = await t.api(pathName, { method: method as 'GET', body, token });
  expect(res.status, `${method} ${pathName}: ${res.text}`).toBeLessThan(300);
  return res.body;
}

async function chat(channel: string, name: string, agentToken: string, answerAfter: number, closeAfter: number, nps: number | null): Promise<string> {
  const start = clock.now().getTime();
  const session = await visitorStarts(t, channel, `Bom dia, sou ${name}`, name);
  await t.server.services.changes.idle();
  await t.server.services.routing.idle();
  clock.advance(answerAfter * MINUTE);
  await api(`/api/rooms/${session.roomId}/push`, agentToken, 'PATCH', {});
  await api(`/api/rooms/${session.roomId}/message`, agentToken, 'POST', { text: 'Olá! Como posso ajudar?' });
  clock.advance(start + closeAfter * MINUTE - clock.now().getTime());
  await api(`/api/rooms/${session.roomId}/close`, agentToken, 'PATCH', { closedBy: { justify: 'Resolvido' } });
  if (nps !== null) {
    await t.server.services.changes.transaction('acme', async (trx, record) => {
      await trx('rooms').where({ tenant_id: 'acme', id: session.roomId }).update({ nps_value: nps });
      record({ collection: 'rooms', id: session.roomId!, op: 'upsert' });
    });
  }
  clock.advance(5 * MINUTE);
  return session.roomId!;
}

beforeAll(async () => {
  clock = new ManualClock(new Date(`${yesterday}T09:00:00-03:00`));
  t = await startChatServer({ clock, staticDir: path.resolve('engine/dist'), env: { ACCESS_TOKEN_TTL: String(3 * 24 * 3600) } });
  await t.patchAppConfig({ claims: { publicRegister: true, allowFollowMe: true, queues: true, askResearch: true, flowsView: true, flowCharts: true } });
  await api('/api/departaments/vendas', t.tokens.admin, 'PATCH', { agents: ['acme-agente'], agentSelectionRule: 'load' });
  await api('/api/users/acme-agente/status', t.tokens.agente, 'POST', { status: 'online' });
  const one = await chat('site-vendas', 'Cliente Um', t.tokens.agente, 2, 10, 10);
  await api('/api/users/acme-agente/status', t.tokens.agente, 'POST', { status: 'online' });
  const two = await chat('site-vendas', 'Cliente Dois', t.tokens.agente, 4, 20, 8);
  const three = await chat('site-suporte', 'Cliente Três', t.tokens.suporte, 1, 5, null);
  // A bot ran flows in the three chats and reported them (docs/flows.md).
  const triagem = (await api('/api/flows', t.tokens.admin, 'POST', { name: 'Triagem inicial', active: true })).id as string;
  const suporte = (await api('/api/flows', t.tokens.admin, 'POST', { name: 'Diagnóstico técnico', active: true })).id as string;
  for (const [runId, roomId, flowId] of [['r1', one, triagem], ['r2', two, triagem], ['r3', three, suporte]] as const) {
    await api('/api/flow-runs', t.tokens.admin, 'POST', { runId, roomId, flowId, completed: true });
  }
  // Back to the real time: the browser signs in now.
  clock.advance(Math.max(0, Date.now() - clock.now().getTime()));
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await stopChatServer(t);
});

const kpi = (page: Page, id: string) => page.locator(`[data-kpi-value="${id}"]`);

describe('dashboard in the browser', () => {
  it("a supervisor sees their department's numbers, switches views, downloads a chart and gets the export by e-mail", async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, `http://${t.hosts.acme}`, 'supervisor@acme.test');
    await goTo(page, '/dashboard');
    await expect.poll(() => kpi(page, 'rooms').textContent(), { timeout: 20_000 }).toBe('2');
    expect(await kpi(page, 'firstAttend').textContent()).toBe('3 min');
    expect(await kpi(page, 'tma').textContent()).toBe('15 min');
    expect(await kpi(page, 'nps').textContent()).toBe('50');
    // Only vendas in the department filter's options.
    await page.getByTestId('filter-departments').click();
    expect(await page.getByRole('option').allTextContents()).toEqual(['Vendas']);
    await page.keyboard.press('Escape');
    // The flows of their department's chats only.
    const flows = page.locator('[data-chart="flows"]');
    await flows.getByText('Triagem inicial').first().waitFor();
    expect(await flows.getByText('Diagnóstico técnico').count()).toBe(0);

    for (const width of [1440, 2560]) {
      await page.setViewportSize({ width, height: 1100 });
      await expect.poll(() => page.locator('[data-layout]').getAttribute('data-layout')).toBe(width < 2400 ? 'small' : 'wide');
      await page.locator('[data-chart="rooms"] svg').first().waitFor();
      await screenshot(page, `dashboard-${width}`);
    }
    await page.setViewportSize({ width: 1440, height: 1100 });

    await page.getByRole('button', { name: text.line, exact: true }).click();
    expect(await page.getByRole('button', { name: text.line, exact: true }).getAttribute('aria-pressed')).toBe('true');
    await page.getByLabel(text.monthly).check();
    const [, month, year] = yesterday.split('-').reverse();
    await page.locator('[data-chart="rooms"]').getByText(`${month}/${year}`).first().waitFor();
    await screenshot(page, 'dashboard-lines-monthly-1440');

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: `${text.downloadCsv}: ${text.chartRooms}` }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toContain(text.chartRooms);
    const csv = readFileSync((await download.path())!, 'utf8').replace(/^\ufeff/, '');
    expect(csv.split('\r\n')[0]).toBe(`Data;${text.kpiRooms};${text.kpiContacts}`);
    expect(csv).toContain(`${month}/${year};`);

    await page.getByRole('button', { name: text.exportData }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: text.exportConfirm }).click();
    await dialog.getByText(messages.validation.exportPeriod).waitFor();
    await dialog.getByText(messages.validation.exportReferenceDate).waitFor();
    await dialog.getByTestId('export-from').fill(yesterday);
    await dialog.getByTestId('export-to').fill(yesterday);
    await dialog.getByRole('combobox', { name: text.exportReference }).click();
    await page.getByRole('option', { name: text.exportReferenceCreated }).click();
    await dialog.getByRole('button', { name: text.exportConfirm }).click();
    await page.getByRole('alert').filter({ hasText: format(text.exportNotice, { email: 'supervisor@acme.test' }) }).first().waitFor();
    const mail = await t.smtp.waitFor('supervisor@acme.test', 20_000);
    expect(mail.raw).toContain('chats (');
    await context.close();
  });

  it('an agent without the permission cannot open the dashboard (screen and API)', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, `http://${t.hosts.acme}`, 'agente@acme.test');
    await page.goto(`http://${t.hosts.acme}/dashboard`);
    await waitForPath(page, '/');
    expect((await t.api('/api/dashboard/reports', { token: t.tokens.agente })).status).toBe(403);
    await context.close();
  });
});
