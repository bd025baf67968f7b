import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@atendimento/schemas';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { waitFor } from '../helpers/wait-for';
import { RawSocket } from './realtime/realtime-helpers';

/**
 * `npm run tenant -- ...` end to end (docs/tenancy.md "Tenants: the command"), as an operator
 * runs it: a separate process on the server's own database (SQLite file, or the PostgreSQL
 * schema with DATABASE_URL, where both use the pg bus). It creates a tenant whose admin gets a
 * sign-in link, lists, adds a host, disables (every route answers 403 'Acesso Desabilitado.'
 * detail at once) and enables again.
 */
const run = promisify(execFile);
/** Each command is a process start (tsx): slow on a loaded machine, so the cases get room. */
const SLOW = 240_000;
const pg = Boolean(process.env.DATABASE_URL);
let t: TestServer;
let env: NodeJS.ProcessEnv;
let dataDir: string;
/** The new tenant's admin, signed in through the e-mailed link. */
let anaToken = '';

beforeAll(async () => {
  t = await startTestServer({ env: pg ? { BUS: 'pg' } : {} });
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'tenant-cli-'));
  env = {
    ...process.env,
    DATA_DIR: dataDir,
    SQLITE_FILE: t.server.config.sqliteFile,
    DATABASE_SCHEMA: t.server.config.databaseSchema ?? '',
    SMTP_URL: t.smtp.url,
    BUS: pg ? 'pg' : 'memory',
    LOG_LEVEL: 'silent',
  };
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const tenant = async (...args: string[]) => {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'server/src/tenant-cli.ts', ...args], { env, cwd: process.cwd(), timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
};

describe('npm run tenant', () => {
  it('create: the tenant answers on its host with the default configuration; the admin gets a sign-in link that works', async () => {
    const port = new URL(t.baseUrl).port;
    const res = await tenant('create', '--host', 'atendimento.cliente.test', '--name', 'Cliente Ótimo', '--admin', 'Ana@Cliente.test', '--url', `http://atendimento.cliente.test:${port}`);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Empresa criada: cliente-otimo (Cliente Ótimo)');
    const host = `atendimento.cliente.test:${port}`;
    const config = await t.api('/api/master/tenants/current/appConfig', { host });
    expect(config.status).toBe(200);
    expect(config.body.data).toMatchObject({ tenantId: 'cliente-otimo', name: 'Cliente Ótimo', claims: {} });

    const mail = await t.smtp.waitFor('ana@cliente.test');
    const token = /\/finishSignUp\?token=([\w-]+)/.exec(mail.text)?.[1];
    expect(mail.text).toContain(`http://atendimento.cliente.test:${port}/finishSignUp?token=`);
    const done = await t.api('/api/auth/email-link/complete', { method: 'POST', host, body: { token, email: 'ana@cliente.test' } });
    expect(done.status, done.text).toBe(200);
    expect(done.body.data.user.claims.admin).toBe(true);
    anaToken = done.body.data.accessToken;
  }, SLOW);

  it('refuses bad input in Portuguese and changes nothing', async () => {
    expect((await tenant('create', '--host', 'https://x.com', '--name', 'X', '--admin', 'a@x.com')).stderr).toMatch(/Host inválido/);
    expect((await tenant('create', '--host', 'atendimento.cliente.test', '--name', 'Y', '--admin', 'a@y.com')).stderr).toMatch(/já pertence a outra empresa/);
    expect((await tenant('create', '--host', 'y.test', '--name', 'Y', '--admin', 'nao-e-email')).stderr).toMatch(/e-mail do administrador/);
    const bad = await tenant('disable', 'nao-existe');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/não encontrada/);
    expect((await tenant('frobnicate')).stderr).toMatch(/Comando desconhecido/);
  }, SLOW);

  it('list and add-host', async () => {
    const added = await tenant('add-host', 'cliente-otimo', '--host', 'sac.cliente.test');
    expect(added.code, added.stderr).toBe(0);
    const list = await tenant('list');
    expect(list.stdout).toMatch(/cliente-otimo\tativa\tCliente Ótimo\tatendimento\.cliente\.test, sac\.cliente\.test/);
    expect(list.stdout).toMatch(/inativa\tdesativada/);
    const port = new URL(t.baseUrl).port;
    const res = await t.api('/api/master/tenants/current/appConfig', { host: `sac.cliente.test:${port}` });
    expect(res.body.data.tenantId).toBe('cliente-otimo');
  }, SLOW);

  it("disable answers 403 'Acesso Desabilitado.' on every route, enable brings it back", async () => {
    const port = new URL(t.baseUrl).port;
    const host = `atendimento.cliente.test:${port}`;
    expect((await t.api('/api/master/tenants/current/appConfig', { host })).status).toBe(200);
    // An open /ws of the tenant: with a shared bus (pg) it is closed 4403 at once.
    const socket = new RawSocket(t.baseUrl, host);
    await socket.auth(anaToken);
    const off = await tenant('disable', 'atendimento.cliente.test');
    if (pg) expect((await socket.closedWith(5_000)).code).toBe(4403);
    socket.close();
    expect(off.stdout).toContain('Empresa cliente-otimo desativada.');
    // pg: the bus tells every process; SQLite: the file's change stamp (another connection
    // committed) drops the tenant cache, well before its 5 s.
    await waitFor(async () => (await t.api('/api/master/tenants/current/appConfig', { host })).status === 403, '403 after disable', 3_000);
    const refused = await t.api('/api/auth/login', { method: 'POST', host, body: { email: 'ana@cliente.test', password: 'x' } });
    expect(refused.status).toBe(403);
    expect(refused.body.errorMessage).toBe(messages.tenant.blockedDetail);
    await tenant('enable', 'cliente-otimo');
    await waitFor(async () => (await t.api('/api/master/tenants/current/appConfig', { host })).status === 200, '200 after enable', 3_000);
  }, SLOW);
});
