import { channelIs, format, messages as texts, type Channel, type Message } from '@atendimento/schemas';
import type { TenantRepository } from '../../db/repositories/tenant-repository';
import type { ProviderChannels } from '../whatsapp/provider-channels';
import type { ChatDeps } from './chat-deps';
import type { InboundItem } from './ingest-service';

/** Longest forwarded text: a phone notification, not the archive. */
const MAX_FORWARD = 1000;

/**
 * Follow-me ('Siga-me', docs/console-operations.md "Follow-me"): while a user's `followMe` is on
 * (tenant and user claim `allowFollowMe`, a WhatsApp number in the profile), each customer
 * message of a chat they attend is forwarded as text to their WhatsApp through the tenant's
 * WhatsApp channel (the chat's own when it is one). Best effort, after the message is stored:
 * a failure is logged, never a reason to refuse the customer's message.
 *
 * Replies from a follower's phone to that channel are not a customer writing: they are not
 * stored as a chat; the phone gets one line saying to answer in the console.
 */
export function createFollowMeService(deps: Pick<ChatDeps, 'directory' | 'rooms' | 'messages' | 'logger'> & { providers: ProviderChannels; tenants: Pick<TenantRepository, 'findById'> }) {
  const { directory, rooms, messages, providers, tenants, logger } = deps;

  async function allowedTenant(tenantId: string): Promise<boolean> {
    return Boolean((await tenants.findById(tenantId))?.appConfig.claims?.allowFollowMe);
  }

  /** The channel to send through: the chat's WhatsApp channel, else the tenant's first configured one. */
  async function channelFor(tenantId: string, preferred: string | null) {
    if (preferred) {
      const own = await providers.find(tenantId, preferred);
      if (own && channelIs(own.channel.type, 'whatsapp')) return own;
    }
    for (const c of await directory.channels(tenantId)) {
      if (!c.active || !channelIs(c.type, 'whatsapp')) continue;
      const found = await providers.find(tenantId, c.id);
      if (found) return found;
    }
    return null;
  }

  function preview(message: Message): string {
    const label = (texts.lastMessageLabels as Record<string, string | undefined>)[message.type];
    const body = message.text?.trim() || message.caption?.trim() || label || message.type;
    return body.length > MAX_FORWARD ? `${body.slice(0, MAX_FORWARD)}…` : body;
  }

  return {
    /** The items a follower's phone sent (answered here, not ingested) and the rest. */
    async splitReplies(tenantId: string, channel: Channel, items: InboundItem[]): Promise<InboundItem[]> {
      if (!channelIs(channel.type, 'whatsapp') || items.length === 0) return items;
      const phones = new Set(items.map((i) => i.contact.phone).filter((p): p is string => Boolean(p)));
      if (phones.size === 0) return items;
      // The tenant's switch first: without it no user list is read for a customer's message.
      if (!(await allowedTenant(tenantId))) return items;
      const followers = (await directory.followers(tenantId, null)).filter((f) => f.allowed && phones.has(f.whatsapp));
      if (followers.length === 0) return items;
      const mine = new Set(followers.map((f) => f.whatsapp));
      const found = await providers.find(tenantId, channel.id);
      for (const phone of new Set(items.filter((i) => i.contact.phone && mine.has(i.contact.phone)).map((i) => i.contact.phone!))) {
        if (found) void providers.adapter(found).sendText(phone, texts.chatServer.followMeReply).catch((err: unknown) => logger.warn({ err, tenantId }, 'followme.reply_notice_failed'));
      }
      return items.filter((i) => !(i.contact.phone && mine.has(i.contact.phone)));
    },

    /** After the customer's messages are stored: forwards each to the followers attending its chat. */
    async forward(tenantId: string, results: { messageId: string | null; roomId: string | null; created: boolean }[]): Promise<void> {
      for (const result of results) {
        if (!result.created || !result.messageId || !result.roomId) continue;
        const room = await rooms.findById(tenantId, result.roomId);
        if (!room || room.internal || !room.active || room.agents.length === 0) continue;
        const followers = (await directory.followers(tenantId, room.agents.map((a) => a.id))).filter((f) => f.allowed);
        if (followers.length === 0 || !(await allowedTenant(tenantId))) continue;
        const message = await messages.findById(tenantId, result.messageId);
        if (!message || message.author.type !== 'client') continue;
        const preferred = Array.isArray(room.channelId) ? room.channelId[0] : room.channelId;
        const found = await channelFor(tenantId, preferred ? String(preferred) : null);
        if (!found) {
          logger.warn({ tenantId, roomId: room.id }, 'followme.no_whatsapp_channel');
          continue;
        }
        const text = format(texts.chatServer.followMeForward, { contact: room.author.displayName ?? room.chatId, chat: room.roomInc, text: preview(message) });
        for (const f of followers) {
          await providers.adapter(found).sendText(f.whatsapp, text).catch((err: unknown) => logger.warn({ err, tenantId, userId: f.id }, 'followme.forward_failed'));
        }
      }
    },
  };
}

export type FollowMeService = ReturnType<typeof createFollowMeService>;
