import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server';

/**
 * The built app's files (server/src/web/static-middleware.ts): a page path gets index.html (the
 * app routes it), a build file that exists is served, and one that does not is a 404 — a tab
 * opened before a deploy asks for chunks the new build no longer has.
 */
let t: TestServer;
beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'static-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>app</title>');
  writeFileSync(path.join(dir, 'assets', 'main-abc123.js'), 'export const ok = 1;');
  t = await startTestServer({ staticDir: dir });
});
afterAll(() => t?.close());

describe('static files', () => {
  it('a page path gets the app; a build file is served; a missing build file is a 404, not the app', async () => {
    const page = await t.api('/contacts/12/show');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<title>app</title>');
    const chunk = await t.api('/assets/main-abc123.js');
    expect(chunk.status).toBe(200);
    expect(chunk.text).toBe('export const ok = 1;');
    const gone = await t.api('/assets/ContactEditDialog-lqynXt_I.js');
    expect(gone.status).toBe(404);
    expect(gone.text).not.toContain('<title>app</title>');
  });
});
