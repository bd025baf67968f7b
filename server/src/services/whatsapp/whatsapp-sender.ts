import { messages as texts } from '@atendimento/schemas';
import type { Clock } from '../../clock';
import type { ChatContactRepository } from '../../db/repositories/chat-contact-repository';
import { createAdapterSender, SendFailure, type ChannelSender, type OutboundContext } from '../chat/channel-senders';
import { assertWindowOpen } from './messaging-window';
import type { ProviderChannels, ProviderOptions } from './provider-channels';

/**
 * The sender of provider channels (every type whose row names a registered adapter): the
 * channel's adapter, with its settings loaded per send (an admin may change them), plus the
 * 24-hour window check `beforeSend`.
 */
export function createProviderSender(deps: { providers: ProviderChannels; contacts: ChatContactRepository; clock: Clock }, options: ProviderOptions): ChannelSender {
  const { providers } = deps;
  const absolute = (path: string) => (/^https?:\/\//.test(path) ? path : `${options.publicUrl}${path}`);
  const through = async (ctx: OutboundContext): Promise<ChannelSender> => {
    const found = ctx.channel ? await providers.find(ctx.tenantId, ctx.channel.id) : null;
    return createAdapterSender(() => {
      if (!found) throw new SendFailure([{ title: 'channel not configured', titleptBR: texts.chat.sendFailed }]);
      return providers.adapter(found);
    }, absolute, options.retry);
  };
  return {
    inProcess: false,
    send: async (ctx) => (await through(ctx)).send(ctx),
    react: async (ctx, emoji) => (await through(ctx)).react(ctx, emoji),
    edit: async (ctx, text) => (await through(ctx)).edit(ctx, text),
    remove: async (ctx) => (await through(ctx)).remove(ctx),
    async markRead(tenantId, room, message) {
      const channelId = message.channelId ?? (Array.isArray(room.channelId) ? room.channelId[0] : room.channelId);
      const found = channelId && message.messageExtId ? await providers.find(tenantId, String(channelId)) : null;
      if (found) await providers.adapter(found).markRead(message.messageExtId!, room.chatId);
    },
    async beforeSend(trx, tenantId, room, kind) {
      // Templates are what the window allows; a channel without provider settings fails at send time ('Erro no Envio').
      if (kind === 'template') return;
      const channelId = Array.isArray(room.channelId) ? room.channelId[0] : room.channelId;
      if (channelId && (await providers.find(tenantId, String(channelId), trx))) await assertWindowOpen(deps, trx, tenantId, room);
    },
  };
}
