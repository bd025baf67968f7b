import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Launch flags this machine needs (DEVELOPERS.md): no sandbox as root, no background networking. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Fixture tenants live on *.test hosts (acme.test, inativa.test...): resolve them to this
  // machine so a test can open http://inativa.test:PORT/ and the server sees that Host.
  '--host-resolver-rules=MAP *.test 127.0.0.1',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
}

/** Screenshots go to tests/screenshots/ (ignored by git) so a person can look at them. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const dir = path.resolve('tests/screenshots');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
