import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../e2e/browser';
import { signIn } from '../e2e/shell-helpers';
import { randomUUID } from 'node:crypto';
import { channelRow } from '../helpers/rows';
import { startTestServer, TEST_PASSWORD } from '../helpers/test-server';
import type { BenchLine } from './report';
import { seedRooms } from './rooms.bench';

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
    // BENCH_SCRIPTS=1 lists what each page loaded, largest first: where the next kilobytes are.
    if (process.env.BENCH_SCRIPTS) {
      for (const [id, scripts] of [['B10a', loginScripts], ['B10b', homeScripts]] as const) {
        for (const [script, size] of [...scripts].map((p) => [p, gzipSize(path.join(dist, p))] as const).sort((a, b) => b[1] - a[1])) {
          console.log(`  ${id} ${script} ${kb(size).toFixed(1)} kB`);
        }
      }
    }
    return [
      { id: 'B10a', name: 'initial JS of /login, gzip', value: kb(loginSize), unit: 'kB', baselineName: 'index.html entry', baseline: kb(entrySize), ratio: loginSize / entrySize, target: '<= 200 kB', met: kb(loginSize) <= 200, note: `${loginScripts.size} scripts from Chromium's network log` },
      { id: 'B10b', name: 'initial JS of / (signed in), gzip', value: kb(homeSize), unit: 'kB', baselineName: 'index.html entry', baseline: kb(entrySize), ratio: homeSize / entrySize, target: '<= 200 kB', met: kb(homeSize) <= 200, note: `${homeScripts.size} scripts` },
    ];
  } finally {
    await browser.close();
    await t.close();
  }
}

/**
 * B10c: the longest main-thread stall while an admin scrolls the 'Fila' list of the console
 * through `rooms` rooms in Chromium (wheel events for `seconds`, pages loading as the end comes
 * into view). Measured in the page as the longest gap between animation frames (any task that
 * blocks the thread shows there) plus the browser's own long-task entries. Baseline: the same
 * gap on the page standing still for a second before the scroll.
 */
export async function scrollBench(seconds: number, rooms = Number(process.env.BENCH_ROOMS ?? 100_000)): Promise<BenchLine[]> {
  if (!existsSync(path.join(dist, 'index.html'))) return [];
  const t = await startTestServer({ staticDir: dist });
  const browser = await launchBrowser();
  try {
    const iso = t.server.clock.now().toISOString();
    await t.server.db('channels').insert(channelRow('acme', { id: 'site', type: 'webchat', displayName: 'Site', departmentId: null }, iso));
    const session = await t.api('/api/webchat/site/session', { method: 'POST', host: t.hosts.acme, body: { text: 'Olá, quero saber do meu pedido', displayName: 'Visitante', clientId: randomUUID() } });
    if (session.status !== 200) throw new Error(`bench scroll: session answered ${session.status}`);
    const seedStart = performance.now();
    await seedRooms(t.server, rooms - 1, 1);
    const seedMs = performance.now() - seedStart;

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'pt-BR' });
    const page = await context.newPage();
    await signIn(page, `http://${t.hosts.acme}`, 'admin@acme.test');
    await page.getByRole('tablist', { name: 'Abas de chats' }).getByRole('tab', { name: 'Fila', exact: true }).click();
    const list = page.getByRole('list', { name: 'Lista de chats' }).or(page.getByLabel('Lista de chats')).first();
    await list.waitFor();
    // Frame gaps and long tasks, recorded inside the page from now on.
    // A string, not a function: tsx would wrap named inner functions in a helper the page lacks.
    await page.evaluate(`(() => {
      window.__gaps = [];
      window.__long = [];
      new PerformanceObserver((list) => list.getEntries().forEach((e) => window.__long.push(e.duration))).observe({ type: 'longtask' });
      let last = performance.now();
      const tick = (now) => { window.__gaps.push(now - last); last = now; requestAnimationFrame(tick); };
      requestAnimationFrame(tick);
    })()`);
    await page.waitForTimeout(1000);
    const still = await page.evaluate(() => Math.max(...(window as unknown as { __gaps: number[] }).__gaps));
    await page.evaluate(() => {
      const w = window as unknown as { __gaps: number[]; __long: number[] };
      w.__gaps = [];
      w.__long = [];
    });
    // BENCH_CPU_PROF=/dir also writes the page's CPU profile of the scroll (open it in Chrome's DevTools).
    const cdp = process.env.BENCH_CPU_PROF ? await context.newCDPSession(page) : null;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.start');
    }
    const box = (await list.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const until = Date.now() + seconds * 1000;
    while (Date.now() < until) {
      // A fast fling: ~10 cards of 118 px per step, 20 steps a second.
      await page.mouse.wheel(0, 1200);
      await page.waitForTimeout(50);
    }
    if (cdp) {
      const { profile } = await cdp.send('Profiler.stop');
      writeFileSync(path.join(process.env.BENCH_CPU_PROF!, `b10c-scroll-${Date.now()}.cpuprofile`), JSON.stringify(profile));
    }
    const result = await page.evaluate(() => {
      const w = window as unknown as { __gaps: number[]; __long: number[] };
      return { gap: Math.max(...w.__gaps), frames: w.__gaps.length, dropped: w.__gaps.filter((g) => g > 25).length, long: w.__long.length, longest: Math.max(0, ...w.__long), scrolled: Math.max(0, ...[...document.querySelectorAll('[aria-label="Lista de chats"]')].map((e) => e.scrollTop)) };
    });
    await context.close();
    return [
      {
        id: 'B10c', name: `longest main-thread stall scrolling 'Fila' (${rooms / 1000}k rooms)`, value: result.gap, unit: 'ms', baselineName: 'page standing still', baseline: still, ratio: result.gap / still,
        target: '<= 50 ms', met: result.gap <= 50,
        note: `${result.frames} frames in ${seconds} s (${result.dropped} over 25 ms), ${result.long} long tasks (longest ${result.longest.toFixed(0)} ms), scrolled ${Math.round(result.scrolled / 1000)}k px; seeded in ${(seedMs / 1000).toFixed(1)} s`,
      },
    ];
  } finally {
    await browser.close();
    await t.close();
  }
}
