import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../e2e/browser';
import { startTestServer, TEST_PASSWORD } from '../helpers/test-server';
import type { BenchLine } from './report';

const dist = path.resolve('engine/dist');

function gzipSize(file: string): number {
  return gzipSync(readFileSync(file), { level: 9 }).length;
}

/** Scripts the page loads (from the network log) until the network is idle. */
function recordScripts(page: Page): Set<string> {
  const scripts = new Set<string>();
  page.on('response', (res) => {
    if (res.request().resourceType() === 'script') scripts.add(new URL(res.url()).pathname);
  });
  return scripts;
}

const kb = (bytes: number) => bytes / 1000;
const total = (paths: Iterable<string>) => [...paths].reduce((sum, p) => sum + gzipSize(path.join(dist, p)), 0);

/**
 * B10: gzip size (level 9) of every script Chromium loads for /login and for / (signed in as
 * the admin) from the built engine. Baseline: the entry script and modulepreloads of
 * index.html alone (what a static parse would count).
 */
export async function frontendBench(): Promise<BenchLine[]> {
  if (!existsSync(path.join(dist, 'index.html'))) {
    console.log('bench: engine/dist missing (run `npm run build`); B10 skipped');
    return [];
  }
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const entry = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
  const entrySize = total(entry);
  const t = await startTestServer({ staticDir: dist });
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'pt-BR' });
    const login = await context.newPage();
    const recorded = recordScripts(login);
    await login.goto(`http://${t.hosts.acme}/login`, { waitUntil: 'networkidle' });
    await login.getByLabel('E-mail').waitFor();
    // What /login needed, before signing in starts loading the app.
    const loginScripts = new Set(recorded);
    await login.getByLabel('E-mail').fill('admin@acme.test');
    await login.getByLabel('Senha', { exact: true }).fill(TEST_PASSWORD);
    await login.getByRole('button', { name: 'Entrar', exact: true }).click();
    await login.getByRole('navigation', { name: 'Menu' }).waitFor();
    await login.close();

    const home = await context.newPage();
    const homeScripts = recordScripts(home);
    await home.goto(`http://${t.hosts.acme}/`, { waitUntil: 'networkidle' });
    await home.getByRole('navigation', { name: 'Menu' }).waitFor();
    await context.close();

    const loginSize = total(loginScripts);
    const homeSize = total(homeScripts);
    return [
      { id: 'B10a', name: 'initial JS of /login, gzip', value: kb(loginSize), unit: 'kB', baselineName: 'index.html entry', baseline: kb(entrySize), ratio: loginSize / entrySize, target: '<= 200 kB', met: kb(loginSize) <= 200, note: `${loginScripts.size} scripts from Chromium's network log` },
      { id: 'B10b', name: 'initial JS of / (signed in), gzip', value: kb(homeSize), unit: 'kB', baselineName: 'index.html entry', baseline: kb(entrySize), ratio: homeSize / entrySize, target: '<= 200 kB', met: kb(homeSize) <= 200, note: `${homeScripts.size} scripts` },
    ];
  } finally {
    await browser.close();
    await t.close();
  }
}
