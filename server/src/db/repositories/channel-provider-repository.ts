import type { Channel } from '@atendimento/schemas';
import { parseJson, toJson, type Db, type Executor } from '../knex';
import { channelFromRow } from './chat-directory-repository';

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
      const settings = parseJson<Record<string, unknown>>(row.data, {}).provider;
      return { channel: channelFromRow(row), settings: settings && typeof settings === 'object' ? (settings as Record<string, unknown>) : null };
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
      const settings = parseJson<Record<string, unknown>>(row.data, {}).provider;
      return { settings: settings && typeof settings === 'object' ? (settings as Record<string, unknown>) : null };
    },

    /** Replaces `data.provider`, keeping the rest of the record. */
    async saveSettings(tenantId: string, channelId: string, settings: Record<string, unknown>): Promise<void> {
      await db.transaction(async (trx) => {
        const row = await live(trx, tenantId).andWhere('id', channelId).first('data');
        if (!row) return;
        const data = parseJson<Record<string, unknown>>(row.data, {});
        await trx('channels').where({ tenant_id: tenantId, id: channelId }).update({ data: toJson({ ...data, provider: settings }) });
      });
    },
  };
}

export type ChannelProviderRepository = ReturnType<typeof createChannelProviderRepository>;
