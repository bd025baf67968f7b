import { randomUUID } from 'node:crypto';
import { defaultAppConfig } from './default-app-config';
import type { TenantRepository, TenantRow } from '../../db/repositories/tenant-repository';
import type { UserRepository } from '../../db/repositories/user-repository';
import type { ChangeFeed } from '../changes/change-feed';
import type { Clock } from '../../clock';
import { APP_CONFIG_COLLECTION } from './tenant-settings-service';

/** A refusal the command prints as is (pt-BR) and exits 1 with. */
export class TenantCommandError extends Error {}

const HOST = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function checkHost(value: unknown): string {
  const host = String(value ?? '').trim().toLowerCase();
  if (!HOST.test(host)) throw new TenantCommandError(`Host inválido: "${String(value ?? '')}". Use só o nome, ex.: atendimento.cliente.com.br (sem https:// nem porta).`);
  return host;
}

/** 'Cliente Ótimo Ltda' → 'cliente-otimo-ltda'. */
function slug(name: string): string {
  return name.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40) || 'empresa';
}

/**
 * The operators' tenant command (docs/tenancy.md "Tenants: the command"): create a tenant with
 * the default configuration and its first admin (who gets an e-mailed sign-in link), list,
 * disable, enable, add a host. Disabling records an `appConfig` change, so every process on
 * the same bus drops its tenant cache and answers 'Acesso Desabilitado.' (403) at once.
 */
export function createTenantAdmin(deps: {
  tenants: TenantRepository;
  users: UserRepository;
  changes: ChangeFeed;
  clock: Clock;
  /** Sends the admin's sign-in link (the auth domain's, with links on the tenant's own host). */
  sendSignInLink: (tenant: TenantRow, userId: string, host: string) => Promise<void>;
}) {
  const { tenants, users, changes, clock } = deps;

  async function find(idOrHost: string): Promise<TenantRow> {
    const byId = await tenants.findById(idOrHost);
    if (byId) return byId;
    const byHost = await tenants.findByHost(idOrHost.toLowerCase());
    if (byHost) return byHost;
    throw new TenantCommandError(`Empresa "${idOrHost}" não encontrada (informe o id ou um host; veja 'npm run tenant -- list').`);
  }

  async function announce(tenantId: string): Promise<void> {
    await changes.transaction(tenantId, async (_trx, record) => record({ collection: APP_CONFIG_COLLECTION, id: tenantId, op: 'upsert' }));
  }

  return {
    async create(input: { host?: string; name?: string; admin?: string; id?: string }): Promise<{ tenant: TenantRow; adminId: string }> {
      const host = checkHost(input.host);
      const name = String(input.name ?? '').trim();
      if (!name) throw new TenantCommandError('Informe o nome da empresa: --name "Cliente".');
      const email = String(input.admin ?? '').trim().toLowerCase();
      if (!EMAIL.test(email)) throw new TenantCommandError('Informe o e-mail do administrador: --admin ana@cliente.com.br.');
      if (await tenants.hostOwner(host)) throw new TenantCommandError(`O host ${host} já pertence a outra empresa.`);
      let id = input.id ? slug(input.id) : slug(name);
      if (input.id && (await tenants.findById(id))) throw new TenantCommandError(`Já existe uma empresa com o id ${id}.`);
      for (let n = 2; await tenants.findById(id); n++) id = `${slug(name)}-${n}`;
      const now = clock.now();
      const tenant: TenantRow = { id, name, active: true, appConfig: defaultAppConfig(id, name) };
      await tenants.create(tenant, [host], now);
      const admin = await users.create(id, { id: randomUUID(), email, displayName: email.split('@')[0]!, passwordHash: null, emailVerified: false, claims: { admin: true } }, now);
      await deps.sendSignInLink(tenant, admin.id, host);
      return { tenant, adminId: admin.id };
    },

    list: () => tenants.listWithHosts(),

    async setActive(idOrHost: string, active: boolean): Promise<TenantRow> {
      const tenant = await find(idOrHost);
      await tenants.setActive(tenant.id, active, clock.now());
      await announce(tenant.id);
      return { ...tenant, active };
    },

    async addHost(idOrHost: string, hostInput: string): Promise<TenantRow> {
      const tenant = await find(idOrHost);
      const host = checkHost(hostInput);
      const owner = await tenants.hostOwner(host);
      if (owner === tenant.id) return tenant;
      if (owner) throw new TenantCommandError(`O host ${host} já pertence a outra empresa.`);
      await tenants.addHost(tenant.id, host);
      await announce(tenant.id);
      return tenant;
    },
  };
}
