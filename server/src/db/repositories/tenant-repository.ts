import type { AppConfig } from '@atendimento/schemas';
import type { Db } from '../knex';
import { dialectOf, parseJson, toJson } from '../knex';

export interface TenantRow {
  id: string;
  name: string;
  active: boolean;
  appConfig: AppConfig;
}

function fromRow(row: Record<string, unknown>): TenantRow {
  return {
    id: String(row.id),
    name: String(row.name),
    active: Boolean(row.active),
    appConfig: parseJson<AppConfig>(row.app_config, {} as AppConfig),
  };
}

/** Tenants are the one table not scoped by tenant_id: they are the scope. */
export function createTenantRepository(db: Db) {
  const sqlite = dialectOf(db) === 'sqlite';
  return {
    /**
     * SQLite only: a number that changes whenever another connection (the tenant command,
     * another server process on the same file) committed since the last call. PostgreSQL
     * answers null: there the bus tells every process.
     */
    async externalChangeStamp(): Promise<number | null> {
      if (!sqlite) return null;
      const rows = (await db.raw('PRAGMA data_version')) as { data_version: number }[];
      return Number(rows[0]?.data_version ?? 0);
    },
    async findByHost(host: string): Promise<TenantRow | null> {
      const row = await db('tenants')
        .join('tenant_hosts', 'tenant_hosts.tenant_id', 'tenants.id')
        .where('tenant_hosts.host', host)
        .first('tenants.*');
      return row ? fromRow(row) : null;
    },
    async findById(id: string): Promise<TenantRow | null> {
      const row = await db('tenants').where({ id }).first();
      return row ? fromRow(row) : null;
    },
    async create(tenant: TenantRow, hosts: string[], now: Date): Promise<void> {
      const iso = now.toISOString();
      await db.transaction(async (trx) => {
        await trx('tenants').insert({
          id: tenant.id,
          name: tenant.name,
          active: tenant.active,
          app_config: toJson(tenant.appConfig),
          created_at: iso,
          updated_at: iso,
        });
        if (hosts.length) await trx('tenant_hosts').insert(hosts.map((host) => ({ host, tenant_id: tenant.id })));
      });
    },
    async setActive(id: string, active: boolean, now: Date): Promise<void> {
      await db('tenants').where({ id }).update({ active, updated_at: now.toISOString() });
    },
    /** Every tenant with its host names (the operators' `npm run tenant -- list`). */
    async listWithHosts(): Promise<(TenantRow & { hosts: string[] })[]> {
      const rows = await db('tenants').orderBy('id');
      const hosts = await db('tenant_hosts').orderBy('host').select('host', 'tenant_id');
      return rows.map((row) => ({ ...fromRow(row), hosts: hosts.filter((h) => h.tenant_id === row.id).map((h) => String(h.host)) }));
    },
    /** A tenant's host names, in name order. */
    async hostsOf(id: string): Promise<string[]> {
      return (await db('tenant_hosts').where({ tenant_id: id }).orderBy('host').select('host')).map((h) => String(h.host));
    },
    async hostOwner(host: string): Promise<string | null> {
      const row = await db('tenant_hosts').where({ host }).first('tenant_id');
      return row ? String(row.tenant_id) : null;
    },
    async addHost(id: string, host: string): Promise<void> {
      await db('tenant_hosts').insert({ host, tenant_id: id });
    },
    async updateAppConfig(id: string, appConfig: AppConfig, now: Date): Promise<void> {
      await db('tenants').where({ id }).update({ app_config: toJson(appConfig), updated_at: now.toISOString() });
    },
  };
}

export type TenantRepository = ReturnType<typeof createTenantRepository>;
