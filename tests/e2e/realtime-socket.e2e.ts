import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, WebSocket } from 'playwright-core';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { launchBrowser } from './browser';
import { animationsDone, newPage, signIn, waitForPath } from './shell-helpers';

/**
 * One realtime client per signed-in tab (docs/engine.md): the console, a register list's live
 * refresh, the integration definitions, an integration's list and 'Agentes Online' all
 * subscribe on one socket to /ws, and sign-out closes it.
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

describe('the sockets of a signed-in tab', () => {
  it('are one to /ws across the console, a register list, an integration and Agentes Online, and none after sign-out', async () => {
    const token = await t.tokenFor('acme', 'acme-admin');
    const defined = await t.api('/api/integrations', {
      method: 'POST',
      token,
      body: {
        name: 'Pedidos',
        register: 'pedidos',
        collection: 'pedidos',
        menu: true,
        vjsfSchemaMaster: { type: 'object', required: ['numero'], properties: { numero: { type: 'string', title: 'Número' } } },
      },
    });
    expect(defined.status).toBe(201);

    const { context, page } = await newPage(browser);
    const sockets: { socket: WebSocket; open: boolean; subscribed: string[] }[] = [];
    let mostOpen = 0;
    page.on('websocket', (socket) => {
      if (new URL(socket.url()).pathname !== '/ws') return;
      const entry = { socket, open: true, subscribed: [] as string[] };
      sockets.push(entry);
      mostOpen = Math.max(mostOpen, sockets.filter((s) => s.open).length);
      socket.on('framesent', (frame) => {
        const data = JSON.parse(typeof frame.payload === 'string' ? frame.payload : frame.payload.toString('utf8')) as { type: string; collection?: string };
        if (data.type === 'subscribe') entry.subscribed.push(data.collection!);
      });
      socket.on('close', () => {
        entry.open = false;
      });
    });
    const subscribed = () => sockets.flatMap((s) => s.subscribed);
    /** Waits until the tab has subscribed to `collection` (the screen's live query went out). */
    const waitForSubscription = (collection: string) => expect.poll(() => subscribed(), { timeout: 15_000 }).toContain(collection);

    await signIn(page, t.baseUrl, 'admin@acme.test');
    await waitForPath(page, '/');
    await page.getByRole('heading', { name: 'Atendimento', level: 1 }).waitFor();
    await waitForSubscription('integration_views');
    await waitForSubscription('rooms');

    // A register list with live refresh.
    await page.getByRole('navigation', { name: 'Menu' }).getByRole('button', { name: 'Contatos' }).click();
    await waitForPath(page, '/contacts');
    await page.getByRole('heading', { name: 'Contatos', level: 1 }).waitFor();
    await waitForSubscription('contacts');

    // The integration's own list, from the drawer entry its definition adds.
    await page.getByRole('navigation', { name: 'Menu' }).getByRole('button', { name: 'Pedidos' }).click();
    await waitForPath(page, '/pedidos');
    await page.getByRole('heading', { name: 'Pedidos', level: 1 }).waitFor();

    // 'Agentes Online' reads the presence collection.
    await animationsDone(page);
    await page.getByRole('button', { name: 'Agentes Online' }).click();
    const dialog = page.getByRole('dialog', { name: 'Agentes Online' });
    await dialog.getByText('Admin Acme').waitFor();
    await waitForSubscription('presence');
    await dialog.getByRole('button', { name: 'Fechar' }).click();
    await dialog.waitFor({ state: 'detached' });

    expect(sockets.map((s) => s.open)).toEqual([true]);
    expect(mostOpen).toBe(1);

    // Sign-out closes it, and nothing opens another.
    await page.getByRole('button', { name: 'Sair' }).click();
    await waitForPath(page, '/login');
    await expect.poll(() => sockets.filter((s) => s.open).length, { timeout: 10_000 }).toBe(0);
    await page.getByRole('button', { name: 'Entrar', exact: true }).waitFor();
    expect(sockets).toHaveLength(1);
    await context.close();
  });
});
