import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@atendimento/schemas';
import { startLocalGoogle, type LocalGoogle } from '@atendimento/server/demo/google-demo';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { launchBrowser, screenshot } from './browser';
import { newPage } from './shell-helpers';

/**
 * 'Entrar com Google' end to end (docs/auth.md "Google"): the login page opens the
 * authorization-code flow with PKCE in a popup; a local OpenID provider (oidc-provider) stands
 * in for Google. An existing agent is signed in by their verified e-mail; an e-mail the
 * provider has not verified is refused; closing the popup says so.
 */
let t: TestServer;
let google: LocalGoogle;
let browser: Browser;

beforeAll(async () => {
  t = await startTestServer({ staticDir: path.resolve('engine/dist') });
  await t.patchAppConfig({ claims: { publicRegister: true, allowFollowMe: true, queues: true, googleSignIn: true } });
  google = await startLocalGoogle({ redirectUris: [`http://${t.hosts.acme}/api/auth/google/callback`], unverified: ['naoverificado@acme.test'] });
  // The deployment's client, pointed at the stand-in (read per sign-in).
  t.server.config.google = { issuer: google.issuer, clientId: google.clientId, clientSecret: google.clientSecret };
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await google?.close();
});

async function signInWithGoogle(page: Page, email: string): Promise<void> {
  await page.goto(`http://${t.hosts.acme}/login`);
  const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Entrar com Google' }).click()]);
  await popup.waitForLoadState();
  await popup.locator('input[name="login"]').fill(email);
  await popup.locator('input[name="password"]').fill('qualquer');
  await popup.locator('button[type="submit"]').click();
  // The provider asks for consent once per client.
  await popup.locator('button[type="submit"]', { hasText: 'Continue' }).click();
  await popup.waitForEvent('close', { timeout: 20_000 });
}

describe('Google sign-in through the local OpenID provider', () => {
  it('signs in an existing agent by their verified e-mail', async () => {
    const { page } = await newPage(browser);
    await signInWithGoogle(page, 'agente@acme.test');
    await page.getByRole('navigation', { name: 'Menu' }).waitFor({ timeout: 20_000 });
    const me = await page.evaluate(async () => (await fetch('/api/auth/refresh', { method: 'POST' })).json());
    expect(me.data.user.email).toBe('agente@acme.test');
    expect(me.data.user.displayName).toBe('Agente Acme');
    await screenshot(page, 'google-signed-in');
  });

  it('refuses an e-mail the provider has not verified', async () => {
    const { page } = await newPage(browser);
    await signInWithGoogle(page, 'naoverificado@acme.test');
    await page.getByRole('alert').filter({ hasText: messages.auth.googleEmailUnverified }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    expect((await t.server.db('users').where({ tenant_id: 'acme', email: 'naoverificado@acme.test' })).length).toBe(0);
  });

  it('says so when the user closes the popup', async () => {
    const { page } = await newPage(browser);
    await page.goto(`http://${t.hosts.acme}/login`);
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Entrar com Google' }).click()]);
    await popup.waitForLoadState();
    await popup.close();
    await page.getByRole('alert').filter({ hasText: messages.auth.popupClosed }).waitFor();
  });
});
