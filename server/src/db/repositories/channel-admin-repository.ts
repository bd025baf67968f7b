import type { Channel } from '@atendimento/schemas';
import { parseJson, toJson, type Db, type Executor } from '../knex';
import { channelFromRow } from './chat-directory-repository';
import { openProviderSettings, sealProviderSettings } from './channel-provider-repository';

/** A channel row for the channels screen: the public channel plus its plain provider settings. */
export interface ChannelAdminRow {
  channel: Channel;
  /** Plain settings (opened); the service decides what of them may leave the server. */
  settings: Record<string, unknown> | null;
}

/**
 * The channels screen's reads and writes (docs/channels.md "The channels screen"). Settings go
 * in sealed (secret-box.ts) and come out opened; the `channels` live collection reads its
 * records here too, without `data.provider`.
 */
export function createChannelAdminRepository(db: Db) {
  const live = (q: Executor, tenantId: string) => q('channels').where('tenant_id', tenantId).whereNull('deleted_at');
  const toRow = (row: Record<string, unknown>): ChannelAdminRow => ({
    channel: channelFromRow(row),
    settings: openProviderSettings(parseJson<Record<string, unknown>>(row.data, {}).provider),
  });
  return {
    async list(tenantId: string, q: Executor = db): Promise<ChannelAdminRow[]> {
      const rows = await live(q, tenantId).orderBy('display_name');
      return rows.map(toRow).sort((a, b) => a.channel.menuOrder - b.channel.menuOrder);
    },

    async find(tenantId: string, id: string, q: Executor = db): Promise<ChannelAdminRow | null> {
      const row = await live(q, tenantId).andWhere('id', id).first();
      return row ? toRow(row) : null;
    },

    /** Public channels (no provider settings) by id, deleted ones included (the hub removes them). */
    async channelsByIds(tenantId: string, ids: string[]): Promise<(Channel & { deleted: boolean })[]> {
      if (ids.length === 0) return [];
      const rows = await db('channels').where('tenant_id', tenantId).whereIn('id', ids);
      return rows.map((row) => ({ ...channelFromRow(row), deleted: row.deleted_at !== null }));
    },

    /** Public channels of the tenant in menu order. */
    async channels(tenantId: string, q: Executor = db): Promise<Channel[]> {
      const rows = await live(q, tenantId).orderBy('display_name');
      return rows.map(channelFromRow).sort((a, b) => a.menuOrder - b.menuOrder);
    },

    /** Departments a channel can route to (the form's list). */
    async departments(tenantId: string): Promise<{ id: string; displayName: string }[]> {
      const rows = await db('departments').where('tenant_id', tenantId).whereNull('deleted_at').orderBy('display_name').select('id', 'display_name');
      return rows.map((r) => ({ id: String(r.id), displayName: String(r.display_name) }));
    },

    async departmentExists(tenantId: string, id: string, q: Executor = db): Promise<boolean> {
      return Boolean(await q('departments').where({ tenant_id: tenantId, id }).whereNull('deleted_at').first('id'));
    },

    /** Inserts or replaces a channel; `settings` plain (sealed here), null = none. */
    async save(q: Executor, tenantId: string, channel: Channel, settings: Record<string, unknown> | null, now: string): Promise<void> {
      const existing = await live(q, tenantId).andWhere('id', channel.id).first('data', 'created_at');
      const previousData = existing ? parseJson<Record<string, unknown>>(existing.data, {}) : {};
      // Keep what the screen does not edit (synced templates, createdAt...).
      const { provider: _old, ...kept } = previousData;
      const data = {
        ...kept,
        ...channel,
        lifeControl: { ...((kept.lifeControl as object) ?? {}), createdAt: (kept.lifeControl as { createdAt?: string } | undefined)?.createdAt ?? now, updatedAt: now, deletedAt: null },
        ...(settings && { provider: sealProviderSettings(settings) }),
      };
      const columns = { type: channel.type, display_name: channel.displayName, active: channel.active, data: toJson(data), updated_at: now };
      if (existing) await q('channels').where({ tenant_id: tenantId, id: channel.id }).update(columns);
      else await q('channels').insert({ ...columns, id: channel.id, tenant_id: tenantId, created_at: now, deleted_at: null });
    },
  };
}

export type ChannelAdminRepository = ReturnType<typeof createChannelAdminRepository>;
