import { createChannelAdapter, hasChannelAdapter, type ChannelAdapter, type ChannelConfig } from '@atendimento/integrations';
import { adapterOf, type Channel } from '@atendimento/schemas';
import type { Executor } from '../../db/knex';
import type { ChannelProviderRepository } from '../../db/repositories/channel-provider-repository';
import type { Logger } from '../../logger';

/**
 * How long a webhook delivery may verify against a channel read this long ago. Short next to
 * the 24 hours a replaced secret stays accepted anyway (docs/channels.md), and edits made on
 * the channels screen are forgotten at once.
 */
export const WEBHOOK_CHANNEL_TTL_MS = 2_000;

/** A channel served by a provider adapter, with the settings to talk to it. */
interface ProviderChannel {
  channel: Channel;
  /** The adapter kind its type's row names (schemas/src/chat/channel.ts). */
  kind: string;
  config: ChannelConfig;
}

export interface ProviderOptions {
  /** The SSRF-safe client (server-wide trusted hosts only: explicit test/dev configuration). */
  fetch: typeof fetch;
  /** Our public base URL: providers download outbound media from `${publicUrl}/api/files/...`. */
  publicUrl: string;
  /** Back-off of retried sends (throttling 130429/131056, transient errors); default 3 attempts from 500 ms. */
  retry?: { attempts: number; baseDelayMs: number };
}

/**
 * Finds a channel's provider adapter (docs/channels.md): the type's row in the channel table
 * names the adapter kind, the integrations registry builds it, the channel row's settings
 * configure it. No list of types here: a type with a registered adapter is a provider channel.
 */
export function createProviderChannels(deps: { channels: ChannelProviderRepository; logger: Logger; fetch: typeof fetch }) {
  const adapterLogger = {
    info: (obj: object, msg?: string) => deps.logger.info(obj, msg),
    warn: (obj: object, msg?: string) => deps.logger.warn(obj, msg),
    error: (obj: object, msg?: string) => deps.logger.error(obj, msg),
  };
  async function find(tenantId: string, channelId: string, q?: Executor): Promise<ProviderChannel | null> {
    const found = await deps.channels.findActive(tenantId, channelId, q);
    if (!found) return null;
    const kind = adapterOf(found.channel.type);
    const config = found.settings as ChannelConfig | null;
    if (!hasChannelAdapter(kind) || !config || typeof config.baseUrl !== 'string') return null;
    return { channel: found.channel, kind, config };
  }
  const adapter = (found: ProviderChannel): ChannelAdapter => createChannelAdapter(found.kind, { fetch: deps.fetch, logger: adapterLogger, config: found.config });

  /** Webhook lookups of the last WEBHOOK_CHANNEL_TTL_MS, by tenant and channel. */
  const recent = new Map<string, { at: number; found: Promise<{ found: ProviderChannel; adapter: ChannelAdapter } | null> }>();
  const keyOf = (tenantId: string, channelId: string) => `${tenantId}\u0000${channelId}`;

  return {
    /** The active channel with its adapter kind and settings; null without either (not a provider channel, not configured). */
    find,
    adapter,

    /**
     * `find` and `adapter` for webhook deliveries, remembered for a moment (docs/ingest.md): on
     * SQLite's one connection a read outside the ingest transaction waits for the commit in
     * flight, so a per-delivery read kept deliveries from sharing a group commit; it also
     * decrypted the settings every time. Channel edits (channels screen) call `forget` through
     * the change feed, in every process; anything else is seen within the TTL.
     */
    forWebhook(tenantId: string, channelId: string): Promise<{ found: ProviderChannel; adapter: ChannelAdapter } | null> {
      const key = keyOf(tenantId, channelId);
      const now = performance.now();
      const hit = recent.get(key);
      if (hit && now - hit.at < WEBHOOK_CHANNEL_TTL_MS) return hit.found;
      const found = find(tenantId, channelId).then((f) => (f ? { found: f, adapter: adapter(f) } : null));
      // A failed read is not remembered.
      found.catch(() => recent.get(key)?.found === found && recent.delete(key));
      if (recent.size >= 10_000) recent.clear();
      recent.set(key, { at: now, found });
      return found;
    },

    /** Drops the remembered webhook lookup of a channel. */
    forget(tenantId: string, channelId: string): void {
      recent.delete(keyOf(tenantId, channelId));
    },
  };
}

export type ProviderChannels = ReturnType<typeof createProviderChannels>;
