import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServer, loadConfig, startSmtpCatcher, type AppServer, type Clock, type SmtpCatcher } from '@atendimento/server';
import { createLogger } from '@atendimento/server/logger';
import { createMailer } from '@atendimento/server/services/mail/mailer';
import { hashPassword } from '@atendimento/server/services/auth/password';
import { defaultAppConfig } from '@atendimento/server/services/tenants/default-app-config';
import type { AppConfig } from '@atendimento/schemas';
import { createHttpClient, type HttpClient } from './http-client';
import { departmentRow } from './rows';
import { stopServerNow } from './stop-server';

/** Users every test tenant has; all share one password. */
export const TEST_PASSWORD = 'senha-forte-123';

export interface TestServer {
  server: AppServer;
  baseUrl: string;
  smtp: SmtpCatcher;
  api: HttpClient;
  /** Hosts of the fixture tenants: acme (active, publicRegister), outra (active), inativa (inactive). */
  hosts: { acme: string; outra: string; inativa: string };
  /** Signs a user in with the shared password and returns the access token. */
  login(email: string, host?: string): Promise<string>;
  /** An access token for a user without going through the password (fast, for matrices). */
  tokenFor(tenantId: string, userId: string): Promise<string>;
  /** Merges `patch` into a tenant's configuration (default acme), drops the tenant cache, and answers the configuration it replaced. */
  patchAppConfig(patch: Partial<AppConfig>, tenantId?: string): Promise<AppConfig>;
  close(): Promise<void>;
}

/**
 * Starts the real server on an isolated database (a temp SQLite file, or its own PostgreSQL
 * schema when DATABASE_URL is set) with a real SMTP catcher and fixture tenants:
 * - acme: admin@acme.test, supervisor@acme.test (supervisor of vendas), agente@acme.test
 *   (agent of vendas), suporte@acme.test (agent of suporte), inativo@acme.test (inactive)
 * - outra: admin@outra.test
 * - inativa: inactive tenant with admin@inativa.test
 */
export async function startTestServer(options: { clock?: Clock; env?: Record<string, string>; staticDir?: string | null; logger?: ReturnType<typeof createLogger>; server?: Pick<Parameters<typeof createServer>[0], 'startCampaigns' | 'campaignQueue'> } = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'atendimento-test-'));
  const schema = process.env.DATABASE_URL ? `t_${randomBytes(6).toString('hex')}` : null;
  const smtp = await startSmtpCatcher();
  const config = loadConfig(
    // Tests open many sockets from 127.0.0.1: the per-address caps are relaxed unless a test sets them (tests/reliability/connection-limits.spec.ts).
    { CONN_MAX_PER_IP: '100000', WS_MAX_PER_IP: '100000', ...process.env, ...options.env, DATA_DIR: dataDir, DATABASE_SCHEMA: schema ?? '', LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', BUS: options.env?.BUS ?? 'memory' },
    { port: 0, host: '127.0.0.1', jwtSecret: randomBytes(32).toString('hex'), defaultTenant: 'acme', staticDir: options.staticDir ?? null },
  );
  const logger = options.logger ?? createLogger(config.logLevel);
  const server = await createServer({ config, logger, clock: options.clock, mailer: createMailer(smtp.url, config.mailFrom, logger), ...options.server });
  await seedTestTenants(server);
  const baseUrl = await server.listen(0, '127.0.0.1');
  const port = new URL(baseUrl).port;
  const hosts = { acme: `acme.test:${port}`, outra: `outra.test:${port}`, inativa: `inativa.test:${port}` };
  const api = createHttpClient(baseUrl, { host: hosts.acme });

  return {
    server,
    baseUrl,
    smtp,
    api,
    hosts,
    async login(email, host = hosts.acme) {
      const res = await api('/api/auth/login', { method: 'POST', body: { email, password: TEST_PASSWORD }, host });
      if (res.status !== 200) throw new Error(`login(${email}) failed: ${res.status} ${res.text}`);
      return res.body.data.accessToken as string;
    },
    async tokenFor(tenantId, userId) {
      const sid = randomUUID();
      const now = server.clock.now();
      await server.repos.sessions.createSession(tenantId, { id: sid, userId, ip: null, userAgent: 'test' }, now);
      return server.services.tokens.sign({ sub: userId, tid: tenantId, sid, typ: 'user' }, now);
    },
    async patchAppConfig(patch, tenantId = 'acme') {
      const tenant = await server.repos.tenants.findById(tenantId);
      if (!tenant) throw new Error(`patchAppConfig: no tenant ${tenantId}`);
      await server.repos.tenants.updateAppConfig(tenantId, { ...tenant.appConfig, ...patch }, server.clock.now());
      // Tenant lookups are cached for a few seconds per process.
      server.services.tenants.invalidate();
      return tenant.appConfig;
    },
    async close() {
      await stopServerNow(server, { schema });
      server.services.mailer.close();
      await smtp.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function seedTestTenants(server: AppServer): Promise<void> {
  const now = server.clock.now();
  const iso = now.toISOString();
  const hash = await hashPassword(TEST_PASSWORD);
  const { tenants, users } = server.repos;
  const acmeConfig = defaultAppConfig('acme', 'Acme Atendimento');
  acmeConfig.claims = { publicRegister: true, allowFollowMe: true, queues: true };
  await tenants.create({ id: 'acme', name: 'Acme Atendimento', active: true, appConfig: acmeConfig }, ['acme.test'], now);
  await tenants.create({ id: 'outra', name: 'Outra Empresa', active: true, appConfig: defaultAppConfig('outra', 'Outra Empresa') }, ['outra.test'], now);
  await tenants.create({ id: 'inativa', name: 'Empresa Inativa', active: false, appConfig: defaultAppConfig('inativa', 'Empresa Inativa') }, ['inativa.test'], now);

  const mk = (tenantId: string, id: string, email: string, displayName: string, extra: Record<string, unknown> = {}) =>
    users.create(tenantId, { id, email, displayName, passwordHash: hash, emailVerified: true, ...extra }, now);
  await mk('acme', 'acme-admin', 'admin@acme.test', 'Admin Acme', { claims: { admin: true } });
  await mk('acme', 'acme-supervisor', 'supervisor@acme.test', 'Supervisora Acme', { claims: { dashboard: true } });
  await mk('acme', 'acme-agente', 'agente@acme.test', 'Agente Acme', { claims: { allowFollowMe: true } });
  await mk('acme', 'acme-suporte', 'suporte@acme.test', 'Suporte Acme');
  await mk('acme', 'acme-inativo', 'inativo@acme.test', 'Inativo Acme', { active: false });
  await mk('outra', 'outra-admin', 'admin@outra.test', 'Admin Outra', { claims: { admin: true } });
  await mk('inativa', 'inativa-admin', 'admin@inativa.test', 'Admin Inativa', { claims: { admin: true } });

  const db = server.db;
  await db('departments').insert([
    departmentRow('acme', { id: 'vendas', displayName: 'Vendas', agents: ['acme-agente'], supervisors: ['acme-supervisor'] }, iso),
    departmentRow('acme', { id: 'suporte', displayName: 'Suporte', agents: ['acme-suporte'] }, iso),
  ]);
  await db('department_members').insert([
    { tenant_id: 'acme', department_id: 'vendas', user_id: 'acme-agente', role: 'agent' },
    { tenant_id: 'acme', department_id: 'vendas', user_id: 'acme-supervisor', role: 'supervisor' },
    { tenant_id: 'acme', department_id: 'suporte', user_id: 'acme-suporte', role: 'agent' },
  ]);
}
