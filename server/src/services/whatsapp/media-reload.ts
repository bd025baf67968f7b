import { createHash } from 'node:crypto';
import type { ChannelAdapter, InboundMessage, MediaRef } from '@atendimento/integrations';
import { messages as texts, type Message } from '@atendimento/schemas';
import { AppError, badRequest, notFound } from '../../errors';
import type { ChatDeps } from '../chat/chat-deps';
import { mediaFields } from '../chat/ingest-service';
import { canSee, type ChatScope } from '../chat/room-scope';
import type { ProviderChannels } from './provider-channels';

const EXT_OF_MIME: Record<string, string> = {
  'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp', 'image/gif': 'gif', 'video/mp4': 'mp4', 'video/3gpp': '3gp',
  'audio/ogg': 'ogg', 'audio/mpeg': 'mp3', 'audio/mp4': 'm4a', 'audio/aac': 'aac', 'application/pdf': 'pdf',
};

const MEDIA_TYPES = new Set(['image', 'video', 'audio', 'document', 'sticker']);

/** Provider sha256 (hex or base64) of the media bytes, when given. */
function shaMatches(expected: string | undefined, bytes: Buffer): boolean {
  if (!expected) return true;
  const digest = createHash('sha256').update(bytes).digest();
  return expected.toLowerCase() === digest.toString('hex') || expected === digest.toString('base64');
}

/**
 * Provider media into our blob store (docs/whatsapp.md "Media"): inbound media are fetched
 * at once (provider URLs expire); a failed fetch leaves the reference, and 'recarregar' tries
 * again from the reference WE stored.
 */
export function createMediaReload(deps: Pick<ChatDeps, 'feed' | 'blobs' | 'logger' | 'clock' | 'rooms' | 'messages'>, providers: ProviderChannels) {
  const { feed, blobs, logger, messages } = deps;

  /** Downloads provider media (sha256-checked when given) into our blob store. */
  async function fetchToBlob(tenantId: string, adapter: ChannelAdapter, media: MediaRef): Promise<MediaRef> {
    const file = await adapter.fetchMedia(media);
    if (!shaMatches(media.sha256, file.bytes)) throw new Error('sha256 mismatch');
    const mimeType = (media.mimeType ?? file.mimeType).split(';')[0]!.trim().toLowerCase();
    const ext = EXT_OF_MIME[mimeType] ?? (media.fileName?.split('.').pop()?.toLowerCase().replace(/[^a-z0-9]/g, '').slice(0, 8) || 'bin');
    const stored = await blobs.put(tenantId, file.bytes, ext);
    return { ...media, url: stored.url, mimeType: media.mimeType ?? file.mimeType };
  }

  return {
    /**
     * Fetches an inbound message's media into our blob store; on failure the reference stays
     * and the console shows the error renderer ('recarregar').
     */
    async storeInbound(tenantId: string, adapter: ChannelAdapter, item: InboundMessage): Promise<InboundMessage> {
      const media = item.content.media;
      if (!media || (!media.mediaId && !media.url)) return item;
      try {
        return { ...item, content: { ...item.content, media: await fetchToBlob(tenantId, adapter, media) } };
      } catch (error) {
        logger.warn({ err: error, tenantId, externalId: item.externalId }, 'whatsapp.media_fetch_failed');
        return item;
      }
    },

    /**
     * 'recarregar' (PATCH /api/rooms/{id}/reloadMessage): fetches again the media of an inbound
     * message whose first fetch failed, from the reference WE stored (never a URL the caller
     * sends), and replaces the error placeholder with the stored file.
     */
    async reload(scope: ChatScope, roomId: string, messageId: string): Promise<Message> {
      const { tenantId, viewer, config } = scope;
      const room = await deps.rooms.findById(tenantId, roomId);
      if (!room || !canSee(viewer, config, room)) throw notFound();
      const message = await messages.findById(tenantId, messageId);
      if (!message || message.roomId !== room.id) throw notFound();
      const ref = message.error as { type?: string; mediaId?: string; url?: string; mimeType?: string; fileName?: string } | null | undefined;
      if (!ref || (!ref.mediaId && !ref.url) || !MEDIA_TYPES.has(String(ref.type))) {
        throw badRequest('nothing_to_reload', texts.whatsapp.nothingToReload);
      }
      const channelId = message.channelId ?? (Array.isArray(room.channelId) ? room.channelId[0] : room.channelId);
      const found = channelId ? await providers.find(tenantId, String(channelId)) : null;
      if (!found) throw notFound('channel_not_found', texts.whatsapp.channelNotFound);
      let media: MediaRef;
      try {
        media = await fetchToBlob(tenantId, providers.adapter(found), { mediaId: ref.mediaId, url: ref.url, mimeType: ref.mimeType, fileName: ref.fileName });
      } catch (error) {
        logger.warn({ err: error, tenantId, messageId }, 'whatsapp.media_reload_failed');
        throw new AppError(502, 'media_fetch_failed', texts.whatsapp.mediaFetchFailed);
      }
      return feed.transaction(tenantId, async (trx, record) => {
        const current = await messages.findById(tenantId, messageId, trx);
        if (!current) throw notFound();
        const { error: _placeholder, ...rest } = current;
        const next = { ...rest, ...mediaFields({ type: String(ref.type), caption: current.caption ?? undefined, media }), lifeControl: { ...current.lifeControl, updatedAt: deps.clock.now().toISOString() } } as Message;
        await messages.save(trx, tenantId, next);
        record({ collection: 'messages', id: next.id, op: 'upsert' });
        return next;
      });
    },
  };
}

export type MediaReload = ReturnType<typeof createMediaReload>;
