import { ALL_SECRET_PATHS, type Channel } from '@atendimento/schemas';
import { parseJson, toJson, type Db, type Executor } from '../knex';
import { openPaths, sealPaths } from '../secret-box';
import { channelFromRow } from './chat-directory-repository';

/**
 * `data.provider` as stored → plain settings. Secrets are sealed at rest (docs/channels.md
 * "Secrets"); `previous` holds the secrets replaced less than a grace period ago, so webhooks
 * signed with them still verify while the provider catches up.
 */
export function openProviderSettings(stored: unknown): Record<string, unknown> | null {
  if (!stored || typeof stored !== 'object') return null;
  const settings = openPaths(stored as Record<string, unknown>, ALL_SECRET_PATHS);
  const previous = settings.previous as Record<string, unknown> | undefined;
  if (previous && typeof previous === 'object') settings.previous = openPaths(previous, ALL_SECRET_PATHS);
  return settings;
}

/** Plain settings → as stored (secrets sealed, those already sealed kept). */
export function sealProviderSettings(settings: Record<string, unknown>): Record<string, unknown> {
  const sealed = sealPaths(settings, ALL_SECRET_PATHS);
  const previous = sealed.previous as Record<string, unknown> | undefined;
  if (previous && typeof previous === 'object') sealed.previous = sealPaths(previous, ALL_SECRET_PATHS);
  return sealed;
}

/**
 * A channel's provider settings (docs/channels.md): they live in the channel row's
 * `data.provider` (admin only). The chat directory strips that key, so a Channel object never
 * carries a credential; this repository is the one place that reads or writes it.
 */
interface ChannelWithSettings {
  channel: Channel;
  /** `data.provider` as stored, or null when the channel has none. */
  settings: Record<string, unknown> | null;
}

export function createChannelProviderRepository(db: Db) {
  const live = (q: Executor, tenantId: string) => q('channels').where('tenant_id', tenantId).whereNull('deleted_at');
  return {
    /** An active channel with its provider settings; null when deleted or switched off. */
    async findActive(tenantId: string, channelId: string, q: Executor = db): Promise<ChannelWithSettings | null> {
      const row = await live(q, tenantId).andWhere('id', channelId).first();
      if (!row || !row.active) return null;
      return { channel: channelFromRow(row), settings: openProviderSettings(parseJson<Record<string, unknown>>(row.data, {}).provider) };
    },

    /** Ids of the tenant's active channels of these types, by display name. */
    async activeIdsOfTypes(tenantId: string, types: string[]): Promise<string[]> {
      if (types.length === 0) return [];
      const rows = await live(db, tenantId).andWhere('active', true).whereIn('type', types).orderBy('display_name').select('id');
      return rows.map((r) => String(r.id));
    },

    /** Settings of a live channel whether active or not (null: no such channel). */
    async settings(tenantId: string, channelId: string): Promise<{ settings: Record<string, unknown> | null } | null> {
      const row = await live(db, tenantId).andWhere('id', channelId).first('data');
      if (!row) return null;
      return { settings: openProviderSettings(parseJson<Record<string, unknown>>(row.data, {}).provider) };
    },

    /**
     * Seals secrets stored before sealing existed (or by hand, as docs/whatsapp.md once said):
     * run at start-up; answers how many channels it changed.
     */
    async sealStoredSecrets(): Promise<number> {
      const rows = await db('channels').whereNull('deleted_at').select('tenant_id', 'id', 'data');
      let changed = 0;
      for (const row of rows) {
        const data = parseJson<Record<string, unknown>>(row.data, {});
        const provider = data.provider;
        if (!provider || typeof provider !== 'object') continue;
        const sealed = sealProviderSettings(provider as Record<string, unknown>);
        if (JSON.stringify(sealed) === JSON.stringify(provider)) continue;
        await db('channels').where({ tenant_id: row.tenant_id, id: row.id }).update({ data: toJson({ ...data, provider: sealed }) });
        changed += 1;
      }
      return changed;
    },

    /** Replaces `data.provider`, keeping the rest of the record. */
    async saveSettings(tenantId: string, channelId: string, settings: Record<string, unknown>): Promise<void> {
      await db.transaction(async (trx) => {
        const row = await live(trx, tenantId).andWhere('id', channelId).first('data');
        if (!row) return;
        const data = parseJson<Record<string, unknown>>(row.data, {});
        await trx('channels').where({ tenant_id: tenantId, id: channelId }).update({ data: toJson({ ...data, provider: sealProviderSettings(settings) }) });
      });
    },
  };
}

export type ChannelProviderRepository = ReturnType<typeof createChannelProviderRepository>;
