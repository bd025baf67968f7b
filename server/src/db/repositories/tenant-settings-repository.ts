import { randomUUID } from 'node:crypto';
import type { AppConfig } from '@atendimento/schemas';
import { parseJson, toJson, type Db, type Executor } from '../knex';

export interface AuditRow {
  id: string;
  at: string;
  userId: string;
  userName: string;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

/**
 * The settings screen's writes (docs/tenancy.md "Settings"): the new configuration and its
 * audit entry in the caller's transaction, so neither exists without the other.
 */
export function createTenantSettingsRepository(db: Db) {
  return {
    async appConfig(tenantId: string, q: Executor = db): Promise<{ config: AppConfig; updatedAt: string } | null> {
      const row = await q('tenants').where({ id: tenantId }).first('app_config', 'updated_at');
      return row ? { config: parseJson<AppConfig>(row.app_config, {} as AppConfig), updatedAt: String(row.updated_at) } : null;
    },

    async save(q: Executor, tenantId: string, config: AppConfig, audit: Omit<AuditRow, 'id'>): Promise<void> {
      await q('tenants').where({ id: tenantId }).update({ app_config: toJson(config), updated_at: audit.at });
      await q('tenant_settings_audit').insert({
        id: randomUUID(), tenant_id: tenantId, user_id: audit.userId, user_name: audit.userName, at: audit.at, before: JSON.stringify(audit.before), after: JSON.stringify(audit.after),
      });
    },

    /** Newest first. */
    async audit(tenantId: string, limit: number): Promise<AuditRow[]> {
      const rows = await db('tenant_settings_audit').where({ tenant_id: tenantId }).orderBy('at', 'desc').limit(limit);
      return rows.map((r) => ({ id: String(r.id), at: String(r.at), userId: String(r.user_id), userName: String(r.user_name), before: parseJson(r.before, {}), after: parseJson(r.after, {}) }));
    },
  };
}

export type TenantSettingsRepository = ReturnType<typeof createTenantSettingsRepository>;
