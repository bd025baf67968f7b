import { createChannelAdapter, hasChannelAdapter, type ChannelAdapter, type ChannelConfig } from '@atendimento/integrations';
import { adapterOf, type Channel } from '@atendimento/schemas';
import type { Executor } from '../../db/knex';
import type { ChannelProviderRepository } from '../../db/repositories/channel-provider-repository';
import type { Logger } from '../../logger';

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
  return {
    /** The active channel with its adapter kind and settings; null without either (not a provider channel, not configured). */
    async find(tenantId: string, channelId: string, q?: Executor): Promise<ProviderChannel | null> {
      const found = await deps.channels.findActive(tenantId, channelId, q);
      if (!found) return null;
      const kind = adapterOf(found.channel.type);
      const config = found.settings as ChannelConfig | null;
      if (!hasChannelAdapter(kind) || !config || typeof config.baseUrl !== 'string') return null;
      return { channel: found.channel, kind, config };
    },

    adapter(found: ProviderChannel): ChannelAdapter {
      return createChannelAdapter(found.kind, { fetch: deps.fetch, logger: adapterLogger, config: found.config });
    },
  };
}

export type ProviderChannels = ReturnType<typeof createProviderChannels>;
