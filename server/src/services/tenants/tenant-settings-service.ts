import { Ajv } from 'ajv';
import { AJV_OPTIONS, configureAjv, fieldErrors, type RegisterSchema } from '@atendimento/schemas/registers/index';
import { applySettings, settingsDiff, settingsOf, settingsRuleErrors, TENANT_SETTINGS_SCHEMA, type AppConfig, type SettingsAuditEntry } from '@atendimento/schemas';
import { forbidden, validationError } from '../../errors';
import type { TenantRow } from '../../db/repositories/tenant-repository';
import type { TenantSettingsRepository } from '../../db/repositories/tenant-settings-repository';
import type { ChangeFeed } from '../changes/change-feed';
import type { LiveCollection, LiveRecord } from '../changes/live-collection';
import type { Clock } from '../../clock';
import type { TenantService } from './tenant-service';

/** Live collection telling every signed-in app that its tenant's configuration changed. */
export const APP_CONFIG_COLLECTION = 'appConfig';

const ajv = configureAjv(new Ajv({ ...AJV_OPTIONS }));
const validate = ajv.compile(TENANT_SETTINGS_SCHEMA);

/**
 * The settings screen (docs/tenancy.md "Settings"): read the configuration as the grouped
 * settings document, validate a save with the screen's own JSON Schema (then its cross-field
 * rules, `settingsRuleErrors`), apply it, record the audit entry and an `appConfig` change in
 * one transaction. Every process drops its tenant cache when the change reaches it, and every
 * signed-in app re-reads its configuration.
 */
export function createTenantSettingsService(deps: { repo: TenantSettingsRepository; changes: ChangeFeed; clock: Clock; tenants: TenantService }) {
  const { repo, changes, clock, tenants } = deps;

  // Any process (this one or another on the same database) learns of a change through the feed.
  changes.onChanges((_tenantId, events) => {
    if (events.some((e) => e.collection === APP_CONFIG_COLLECTION)) tenants.invalidate();
  });

  const appConfigCollection: LiveCollection = {
    name: APP_CONFIG_COLLECTION,
    resolve(tenant, principal) {
      if (principal.kind !== 'user') throw forbidden();
      return { filter: { field: 'id', op: '==', value: tenant.id }, orderBy: [{ field: 'id', direction: 'asc' }], limit: 1 };
    },
    // Only a version: the configuration itself is read from its route (it is public per host).
    async snapshot(trx, tenantId) {
      const found = await repo.appConfig(tenantId, trx);
      return found ? [{ id: tenantId, updatedAt: found.updatedAt } as LiveRecord] : [];
    },
    async load(tenantId, ids) {
      if (!ids.includes(tenantId)) return [];
      const found = await repo.appConfig(tenantId);
      return found ? [{ id: tenantId, updatedAt: found.updatedAt } as LiveRecord] : [];
    },
  };

  return {
    liveCollections: [appConfigCollection],

    async read(tenant: TenantRow) {
      const found = await repo.appConfig(tenant.id);
      return settingsOf(found?.config ?? tenant.appConfig);
    },

    async save(tenant: TenantRow, user: { id: string; displayName: string }, input: unknown): Promise<{ settings: ReturnType<typeof settingsOf>; config: AppConfig }> {
      if (!validate(input)) throw validationError(fieldErrors(TENANT_SETTINGS_SCHEMA as unknown as RegisterSchema, validate.errors ?? []));
      // What the schema cannot say: retention media ≤ chats, one entry per chat tab, 'Meus' never hidden.
      const ruleErrors = settingsRuleErrors(input);
      if (ruleErrors.length) throw validationError(ruleErrors);
      const at = clock.now().toISOString();
      let result: { settings: ReturnType<typeof settingsOf>; config: AppConfig } | null = null;
      await changes.transaction(tenant.id, async (trx, record) => {
        const current = (await repo.appConfig(tenant.id, trx))?.config ?? tenant.appConfig;
        const before = settingsOf(current);
        const config = applySettings(current, input as ReturnType<typeof settingsOf>);
        const after = settingsOf(config);
        await repo.save(trx, tenant.id, config, { at, userId: user.id, userName: user.displayName, before, after });
        record({ collection: APP_CONFIG_COLLECTION, id: tenant.id, op: 'upsert' });
        result = { settings: after, config };
      });
      tenants.invalidate();
      return result!;
    },

    async audit(tenant: TenantRow, limit = 100): Promise<SettingsAuditEntry[]> {
      return (await repo.audit(tenant.id, limit)).map((row) => ({ id: row.id, at: row.at, userId: row.userId, userName: row.userName, changes: settingsDiff(row.before, row.after) }));
    },
  };
}

export type TenantSettingsService = ReturnType<typeof createTenantSettingsService>;
