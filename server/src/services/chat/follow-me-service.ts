import { channelIs, format, messages as texts, type Channel, type Message } from '@atendimento/schemas';
import type { TenantRepository } from '../../db/repositories/tenant-repository';
import type { ProviderChannels } from '../whatsapp/provider-channels';
import type { ChatDeps } from './chat-deps';
import type { InboundItem } from './ingest-service';

/** Longest forwarded text: a phone notification, not the archive. */
const MAX_FORWARD = 1000;

/**
 * How long a tenant's follower list is trusted. Every inbound message consults it (is this a
 * follower's phone? does a follower attend this chat?), so the webhook path costs no extra
 * statement; a follow-me switched on is noticed within this time, an off is checked at once.
 */
const FOLLOWERS_TTL_MS = 30_000;

interface Followers {
  at: number;
  /** WhatsApp numbers and user ids of users with follow-me on (empty when the tenant does not allow it). */
  phones: Set<string>;
  ids: Set<string>;
}

/**
 * Follow-me ('Siga-me', docs/console-operations.md "Follow-me"): while a user's `followMe` is on
 * (tenant and user claim `allowFollowMe`, a WhatsApp number in the profile), each customer
 * message of a chat they attend is forwarded as text to their WhatsApp through the tenant's
 * WhatsApp channel (the chat's own when it is one). Best effort, after the message is stored:
 * a failure is logged, never a reason to refuse the customer's message.
 *
 * Replies from a follower's phone to that channel are not a customer writing: they are not
 * stored as a chat; the phone gets one line saying to answer in the console. Both checks read a
 * per-tenant follower list cached for FOLLOWERS_TTL_MS.
 */
export function createFollowMeService(deps: Pick<ChatDeps, 'directory' | 'rooms' | 'messages' | 'logger'> & { providers: ProviderChannels; tenants: Pick<TenantRepository, 'findById'> }) {
  const { directory, rooms, messages, providers, tenants, logger } = deps;
  const cache = new Map<string, Followers>();

  async function allowedTenant(tenantId: string): Promise<boolean> {
    return Boolean((await tenants.findById(tenantId))?.appConfig.claims?.allowFollowMe);
  }

  async function followersOf(tenantId: string): Promise<Followers> {
    const hit = cache.get(tenantId);
    if (hit && Date.now() - hit.at < FOLLOWERS_TTL_MS) return hit;
    const list = (await allowedTenant(tenantId)) ? (await directory.followers(tenantId, null)).filter((f) => f.allowed) : [];
    const fresh = { at: Date.now(), phones: new Set(list.map((f) => f.whatsapp)), ids: new Set(list.map((f) => f.id)) };
    cache.set(tenantId, fresh);
    return fresh;
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
      const cached = await followersOf(tenantId);
      const mine = new Set([...phones].filter((p) => cached.phones.has(p)));
      if (mine.size === 0) return items;
      const found = await providers.find(tenantId, channel.id);
      for (const phone of new Set(items.filter((i) => i.contact.phone && mine.has(i.contact.phone)).map((i) => i.contact.phone!))) {
        if (found) void providers.adapter(found).sendText(phone, texts.chatServer.followMeReply).catch((err: unknown) => logger.warn({ err, tenantId }, 'followme.reply_notice_failed'));
      }
      return items.filter((i) => !(i.contact.phone && mine.has(i.contact.phone)));
    },

    /** After the customer's messages are stored: forwards each to the followers attending its chat. */
    async forward(tenantId: string, results: { messageId: string | null; roomId: string | null; created: boolean; agents?: string[] }[]): Promise<void> {
      for (const result of results) {
        if (!result.created || !result.messageId || !result.roomId || !result.agents?.length) continue;
        const cached = await followersOf(tenantId);
        if (!result.agents.some((id) => cached.ids.has(id))) continue;
        // The cache says a follower attends it: the current switches decide.
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
