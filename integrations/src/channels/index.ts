import type { AdapterContext, ChannelAdapter } from './contract';
import { createDialog360Adapter } from './dialog360-adapter';
import { createMetaAdapter } from './meta-adapter';
import { createZApiAdapter } from './zapi-adapter';

export * from './contract';
export { ProviderError, CLOUD_API_ERRORS_PT_BR } from './provider-error';
export { hubSignature, safeEqual } from './signature';

type ChannelAdapterFactory = (ctx: AdapterContext) => ChannelAdapter;

/**
 * The adapter registry, keyed by the adapter kind a channel type's row names
 * (schemas/src/chat/channel.ts `adapter`). Built-in providers are here; a test's fake provider
 * or a plug-in adds itself with `registerChannelAdapter`.
 */
const factories = new Map<string, ChannelAdapterFactory>([
  ['meta', createMetaAdapter],
  ['dialog360', createDialog360Adapter],
  ['zApi', createZApiAdapter],
]);

/** Adds (or replaces) the adapter of a kind. */
export function registerChannelAdapter(kind: string, factory: ChannelAdapterFactory): void {
  factories.set(kind, factory);
}

/** True when an adapter of this kind is registered. */
export function hasChannelAdapter(kind: string | null | undefined): kind is string {
  return typeof kind === 'string' && factories.has(kind);
}

/** The adapter for a channel kind; throws naming the known kinds for anything else. */
export function createChannelAdapter(kind: string, ctx: AdapterContext): ChannelAdapter {
  const factory = factories.get(kind);
  if (!factory) throw new Error(`createChannelAdapter: unknown channel kind "${kind}". Known: ${[...factories.keys()].join(', ')}.`);
  return factory(ctx);
}
