import { startLocalErp, type LocalErp } from '@atendimento/integrations/erp/index';
import type { IntegrationDefinition } from '@atendimento/schemas/integrations/index';
import type { Db } from '../db/knex';
import { createTenantRepository } from '../db/repositories/tenant-repository';
import { createUserRepository } from '../db/repositories/user-repository';
import { createRoomRepository } from '../db/repositories/room-repository';
import type { Integrations } from '../services/integrations';
import type { RegisterService } from '../services/registers/register-service';
import type { Clock } from '../clock';

/**
 * `npm start` only: the local Protheus-shaped ERP (docs/erp.md) on loopback, so a newcomer can
 * try the ERP integrations (a list saved through the ERP, a PDF document, the contact panel's
 * 'Integrações') without a customer's ERP. DEMO_ERP=false turns it off.
 */
export async function startDemoErp(port = Number(process.env.DEMO_ERP_PORT ?? 0)): Promise<LocalErp> {
  return startLocalErp({ port, name: 'erp-demonstracao' });
}

const isLoopback = (url: string) => {
  try {
    return ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname);
  } catch {
    return false;
  }
};

/** The demo's order integration: records kept locally and at the ERP, a PDF per order, listed by chat. */
export const DEMO_ORDERS: Omit<IntegrationDefinition, 'id'> = {
  name: 'Pedidos (ERP)',
  register: 'pedidos',
  collection: 'pedidos',
  idField: 'numero',
  order: 10,
  active: true,
  menu: true,
  listTitle: 'Pedidos',
  noItems: 'Nenhum pedido ainda',
  findByChatId: { active: true, field: 'chatId', order: 'numero' },
  callToAction: [{ label: 'Gerar pedido em PDF', method: 'POST', path: '/documentos/pedido', field: 'URL', fileName: 'pedido', fileExt: 'pdf' }],
  vjsfSchemaMaster: {
    type: 'object',
    required: ['numero', 'cliente'],
    properties: {
      numero: { type: 'string', title: 'Número', order: 1 },
      cliente: { type: 'string', title: 'Cliente', order: 2 },
      chatId: { type: 'string', title: 'Telefone do chat', order: 3 },
      status: { type: 'string', title: 'Situação', enum: ['Em aberto', 'Faturado', 'Entregue'], order: 4 },
    },
  },
  vjsfSchemaItens: {
    type: 'object',
    title: 'Produtos',
    required: ['produto', 'quantidade'],
    properties: { produto: { type: 'string', title: 'Produto' }, quantidade: { type: 'integer', title: 'Quantidade', minimum: 1 } },
  },
};

/**
 * Points the tenant's ERP settings at the local ERP. Only a tenant without ERP URLs, or whose
 * every URL is on loopback (a previous demo start: the port changes each run), is touched: a
 * real ERP configuration is never overwritten. On the first start it also defines the demo
 * integration and two orders of the agent's first chat. Answers false when nothing was wired.
 */
export async function wireDemoErp(
  deps: { db: Db; clock: Clock; invalidateTenants: () => void; registers: RegisterService; integrations: Integrations['service'] },
  tenantId: string,
  erp: LocalErp,
  firstStart: boolean,
  /** The demo accounts (seed-demo.ts) that define the integration and own the chat. */
  accounts: { adminId: string; agentId: string } = { adminId: 'u-admin', agentId: 'u-agente' },
): Promise<boolean> {
  const tenants = createTenantRepository(deps.db);
  const tenant = await tenants.findById(tenantId);
  if (!tenant) return false;
  const urls = tenant.appConfig.erp?.urls ?? [];
  if (!urls.every(isLoopback)) return false;
  // The ERP's quotes page is the demo's 'Orçamentos' portal, unless a real portal is set.
  const quotesUrl = !tenant.appConfig.quotesUrl || isLoopback(tenant.appConfig.quotesUrl) ? `${erp.url}/orcamentos` : tenant.appConfig.quotesUrl;
  const appConfig = { ...tenant.appConfig, erp: { ...(tenant.appConfig.erp ?? {}), urls: [erp.url], timeoutMs: 10_000 }, quotesUrl };
  await tenants.updateAppConfig(tenantId, appConfig, deps.clock.now());
  deps.invalidateTenants();
  if (!firstStart) return true;

  const admin = await createUserRepository(deps.db).findById(tenantId, accounts.adminId);
  if (!admin) return true;
  const caller = { tenant: { ...tenant, appConfig }, user: admin, departments: [] as string[] };
  await deps.registers.create(caller, 'integrations', DEMO_ORDERS);
  // The orders belong to the demo agent's first open chat, so its contact panel lists them.
  const open = await createRoomRepository(deps.db).list(tenantId, { field: 'active', op: '==', value: true }, { order: 'asc', limit: 100 });
  const mine = open.filter((room) => room.agents.some((a) => a.id === accounts.agentId));
  const chatId = (mine.find((room) => room.channelId === 'whatsapp-comercial') ?? mine[0])?.chatId ?? null;
  const orders = [
    { numero: '000101', cliente: 'Mercado Boa Vista', status: 'Faturado', itens: [{ produto: 'Café torrado 500 g', quantidade: 24 }, { produto: 'Açúcar cristal 1 kg', quantidade: 30 }] },
    { numero: '000102', cliente: 'Mercado Boa Vista', status: 'Em aberto', itens: [{ produto: 'Leite integral 1 L', quantidade: 48 }] },
  ];
  for (const order of orders) await deps.integrations.save(caller, 'pedidos', { ...order, ...(chatId ? { chatId } : {}) });
  return true;
}
