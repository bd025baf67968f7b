import type { AdapterContext, ChannelAdapter, ChannelKind } from './contract';
import { createDialog360Adapter } from './dialog360-adapter';
import { createMetaAdapter } from './meta-adapter';
import { createZApiAdapter } from './zapi-adapter';

export * from './contract';
export { ProviderError, CLOUD_API_ERRORS_PT_BR } from './provider-error';
export { hubSignature, safeEqual } from './signature';

const factories: Record<ChannelKind, (ctx: AdapterContext) => ChannelAdapter> = {
  meta: createMetaAdapter,
  dialog360: createDialog360Adapter,
  zApi: createZApiAdapter,
};

/** The adapter for a channel kind; throws naming the known kinds for anything else. */
export function createChannelAdapter(kind: string, ctx: AdapterContext): ChannelAdapter {
  const factory = factories[kind as ChannelKind];
  if (!factory) throw new Error(`createChannelAdapter: unknown channel kind "${kind}". Known: ${Object.keys(factories).join(', ')}.`);
  return factory(ctx);
}
