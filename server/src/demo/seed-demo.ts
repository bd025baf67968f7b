import type { AppConfig } from '@atendimento/schemas';
import type { Db } from '../db/knex';
import { DEMO_SALESMAN_CODE, FIRST, JUSTIFIES, LAST, insertDemoData } from '../db/seeds/demo-data';
import { createTenantRepository } from '../db/repositories/tenant-repository';
import { createUserRepository } from '../db/repositories/user-repository';
import { defaultAppConfig } from '../services/tenants/default-app-config';
import { hashPassword } from '../services/auth/password';
import { seededRandom } from '@atendimento/integrations/seeded-random';

/** The accounts `npm start` prints; passwords are demo-only. */
export const DEMO_ACCOUNTS = [
  { role: 'admin', email: 'admin@exemplo.com.br', password: 'admin123', displayName: 'Ana Administradora' },
  { role: 'supervisor', email: 'supervisor@exemplo.com.br', password: 'supervisor123', displayName: 'Sérgio Supervisor' },
  { role: 'agente', email: 'agente@exemplo.com.br', password: 'agente123', displayName: 'Amanda Agente' },
] as const;

/** The demo tenant's configuration: most features on, so a newcomer sees the product whole. */
function demoAppConfig(tenantId: string): AppConfig {
  return {
    ...defaultAppConfig(tenantId, 'Demonstração Atendimento'),
    claims: {
      publicRegister: true, allowFollowMe: true, fixedMessages: true, enableChatOnHold: true, inbox: true,
      queues: true, clients: true, metaChannel: true, flowsView: true, sumarizeRoom: true, askResearch: true,
      hasNextContact: true, fixedDDI: true, transferWithQueue: true, askResearchCsat: true, multiTags: true,
      // The chat menu's 'Voltar ao início do bot' and the 'Bot' tab for every agent (docs/console-operations.md "Bot").
      backBeggining: true, enableBotTab: true,
      // The dashboard's flow charts over the demo bot's runs (docs/flows.md).
      flowCharts: true, flowResultCharts: true, flowExpectedResult: true,
      // 'Entrar com Google' through the local OpenID provider of npm start (demo/google-demo.ts).
      googleSignIn: true,
    },
    closeJustify: { justifies: JUSTIFIES, obsRules: [], reportOnly: false, nextMaxDate: 5000 },
    transferJustify: ['Fora do horário do setor', 'Assunto de outro departamento', 'Pedido do cliente'],
    demoDatabase: true,
    footer: { name: 'Atendimento', link: '/novidades' },
    api: true,
  };
}

/**
 * Creates the demo tenant on first start (deterministic: seeded random, fixed base date).
 * Does nothing when the tenant already exists, so a second `npm start` keeps the data.
 */
export async function seedDemo(db: Db, options: { tenantId?: string; now?: Date; hosts?: string[] } = {}): Promise<boolean> {
  const tenantId = options.tenantId ?? 'demo';
  const tenants = createTenantRepository(db);
  if (await tenants.findById(tenantId)) return false;
  const now = options.now ?? new Date();
  const base = now.getTime() - 3 * 24 * 3600_000;
  const rnd = seededRandom(20261122);
  const users = createUserRepository(db);

  await tenants.create({ id: tenantId, name: 'Demonstração Atendimento', active: true, appConfig: demoAppConfig(tenantId) }, options.hosts ?? [], now);

  // Users: the three printed accounts plus eight more agents.
  const passwordHashes = new Map<string, string>();
  for (const account of DEMO_ACCOUNTS) passwordHashes.set(account.email, await hashPassword(account.password));
  const otherHash = await hashPassword(rnd.id());
  await users.create(tenantId, { id: 'u-admin', email: DEMO_ACCOUNTS[0].email, displayName: DEMO_ACCOUNTS[0].displayName, passwordHash: passwordHashes.get(DEMO_ACCOUNTS[0].email)!, emailVerified: true, claims: { admin: true } }, now);
  const supervisor = await users.create(tenantId, { id: 'u-supervisor', email: DEMO_ACCOUNTS[1].email, displayName: DEMO_ACCOUNTS[1].displayName, passwordHash: passwordHashes.get(DEMO_ACCOUNTS[1].email)!, emailVerified: true, claims: { dashboard: true, enableBotTab: true, enableAllQueuesTab: true, showNPS: true } }, now);
  const agent = await users.create(tenantId, { id: 'u-agente', email: DEMO_ACCOUNTS[2].email, displayName: DEMO_ACCOUNTS[2].displayName, passwordHash: passwordHashes.get(DEMO_ACCOUNTS[2].email)!, emailVerified: true, claims: { allowFollowMe: true, allowActiveMessage: true, vendHistory: true }, erpUserId: DEMO_SALESMAN_CODE }, now);
  const agents = [supervisor, agent];
  for (let i = 0; i < 8; i++) {
    const first = FIRST[(i * 7) % FIRST.length]!;
    const last = LAST[(i * 3 + 5) % LAST.length]!;
    agents.push(await users.create(tenantId, { id: `u-agent-${i + 1}`, email: `${first}.${last}.${i + 1}@exemplo.com.br`.toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, ''), displayName: `${first} ${last}`, passwordHash: otherHash, emailVerified: true }, now));
  }

  await insertDemoData(db, tenantId, { now, base, rnd, supervisor, agent, agents });
  return true;
}
