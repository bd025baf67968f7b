import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { launchBrowser, screenshot } from './browser';

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

it('serves the built app at any path that is not /api', async () => {
  const page = await browser.newPage();
  await page.goto(`${t.baseUrl}/login`);
  // The sign-in screen of the tenant: its name above the form.
  await page.getByRole('button', { name: 'Entrar', exact: true }).waitFor();
  await expect(page.getByText('Acme Atendimento').count()).resolves.toBe(1);
  // The same app answers a deep link; /api stays JSON.
  await page.goto(`${t.baseUrl}/qualquer/rota`);
  await page.getByRole('button', { name: 'Entrar', exact: true }).waitFor();
  const api = await page.request.get(`${t.baseUrl}/api/nao-existe`);
  expect(api.headers()['content-type']).toContain('application/json');
  await screenshot(page, 'smoke-login');
});
