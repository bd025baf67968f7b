import type { ContactIdentity, InboundContent, InboundMessage } from '@atendimento/integrations';
import { isWebchat, messages as texts, type Channel, type Message, type Room } from '@atendimento/schemas';
import type { RecordChange } from '../changes/change-feed';
import type { ChatContact } from '../../db/repositories/chat-contact-repository';
import { retryOnConflict, type Transaction } from '../../db/knex';
import type { ChatDeps } from './chat-deps';
import { newId, newSecret } from './ids';
import { applyMessage, newMessage, newRoom } from './room-factory';

/** An inbound message as a channel parsed it; web chat adds the visitor's e-mail. */
export interface InboundItem extends InboundMessage {
  contact: ContactIdentity & { email?: string | null };
}

interface IngestResult {
  externalId: string;
  /** Null for reactions (they change their target) and for skipped items. */
  messageId: string | null;
  roomId: string | null;
  /** False when the external id was already stored (a duplicate delivery). */
  created: boolean;
  roomCreated: boolean;
}

/** The message's external id was already stored (seen at the insert): the transaction rolls back. */
class DuplicateDelivery extends Error {
  constructor(readonly externalId: string) {
    super(`duplicate delivery ${externalId}`);
  }
}

/** Media types the content may reference by URL once stored in our blob store. */
export function mediaFields(content: InboundContent): Partial<Message> {
  const media = content.media;
  if (!media) return {};
  const url = media.url ?? '';
  const mimeType = media.mimeType ?? 'application/octet-stream';
  if (!url.startsWith('/api/files/')) {
    // Not fetched (provider media is fetched before ingesting; this is the fallback): the error renderer offers 'recarregar'.
    return { error: { type: content.type, ...(media.mediaId && { mediaId: media.mediaId }), mimeType, ...(media.url && { url: media.url }) } };
  }
  switch (content.type) {
    case 'image':
      return { image: { imageUrl: url, caption: content.caption ?? null, mimeType } };
    case 'video':
      return { video: { videoUrl: url, mimeType, caption: content.caption ?? null, fileName: media.fileName ?? null } };
    case 'audio':
      return { audio: { audioUrl: url, mimeType } };
    case 'sticker':
      return { sticker: { stickerUrl: url } };
    default:
      return { document: { documentUrl: url, mimeType, fileName: media.fileName ?? 'arquivo' } };
  }
}

/** Maps a parsed content into the seed's message fields. */
function contentFields(content: InboundContent): { type: Message['type']; text: string | null; extra: Partial<Message> } {
  const extra: Partial<Message> = { caption: content.caption ?? null, ...mediaFields(content) };
  if (content.location) extra.location = { latitude: content.location.latitude, longitude: content.location.longitude, ...(content.location.name && { name: content.location.name }), ...(content.location.address && { address: content.location.address }) };
  if (content.contacts) extra.contacts = content.contacts as Message['contacts'];
  if (content.interactive) extra.interactive = content.interactive as Message['interactive'];
  if (content.referral) extra.referral = content.referral;
  if (content.button) extra.interactive = { type: 'button_reply', button_reply: { id: content.button.payload, title: content.button.text } };
  if (content.unsupported) return { type: 'text', text: `[${content.unsupported.providerType}]`, extra: { ...extra, error: { type: content.unsupported.providerType, text: content.unsupported.providerType } } };
  const known = ['text', 'image', 'document', 'audio', 'video', 'location', 'contacts', 'sticker', 'interactive', 'order'].includes(content.type);
  const type = (content.button ? 'interactive' : known ? content.type : 'text') as Message['type'];
  return { type, text: content.text ?? (content.button?.text ?? null), extra };
}

/** A date the provider gave, unless it is invalid or in the future. */
function whenOf(timestamp: string, now: string): string {
  const t = new Date(timestamp);
  if (Number.isNaN(t.getTime())) return now;
  const iso = t.toISOString();
  return iso > now ? now : iso;
}

/**
 * The one inbound path (docs/chat.md "Inbound"): for each parsed message, in ONE
 * transaction, find or create the contact and its open room (queued in the channel's
 * department queue), then store the message unique on (tenant, channel, external id). A
 * duplicate delivery changes nothing; changes are published after commit. The WhatsApp
 * webhook calls this after verifying and parsing.
 */
export function createIngestService(deps: ChatDeps) {
  const { feed, clock, rooms, messages, contacts, directory } = deps;

  async function contactFor(trx: Transaction, record: RecordChange, tenantId: string, channel: Channel, identity: InboundItem['contact'], now: string): Promise<ChatContact> {
    const key = identity.userId ?? identity.phone;
    if (!key) throw new Error('ingestInbound: an inbound message needs contact.userId or contact.phone. Fix the channel parser.');
    const bound = await contacts.findByIdentity(trx, tenantId, channel.id, key);
    let contact = bound.contact;
    if (!contact && identity.phone) contact = await contacts.findByPhone(trx, tenantId, identity.phone);
    if (!contact) {
      const id = newId();
      const displayName = (identity.displayName?.trim() || identity.phone || texts.webchat.visitor).slice(0, 200);
      contact = {
        id, displayName, name: displayName, phone: identity.phone, email: identity.email?.trim().toLowerCase() || null, photoUrl: null,
        channels: [isWebchat(channel.type) ? 'webchat' : 'whatsapp'], agents: [], clients: [], prospects: [], salesmen: [],
        vendId: null, group: false, chatId: identity.phone ?? null, active: true, blockedSending: false, blockedReceiving: false, autoBlocked: false,
        chatsHistory: [], clientsName: [], lifeControl: { createdAt: now, deletedAt: null },
      };
      await contacts.insert(trx, tenantId, contact);
      record({ collection: 'contacts', id, op: 'upsert' });
    }
    if (bound.boundId !== contact.id) await contacts.addIdentity(trx, tenantId, channel.id, key, contact.id, now);
    return contact;
  }

  async function roomFor(trx: Transaction, tenantId: string, channel: Channel, contact: ChatContact, chatId: string, now: string): Promise<{ room: Room; created: boolean }> {
    const open = await rooms.findOpen(trx, tenantId, channel.id, chatId);
    if (open) return { room: open, created: false };
    const departmentName = channel.departmentId ? await directory.departmentName(tenantId, channel.departmentId, trx) : null;
    const room = newRoom({
      id: newId(),
      roomInc: await rooms.nextRoomInc(trx, tenantId),
      channel,
      chatId,
      author: { id: contact.id, displayName: contact.displayName, photoUrl: contact.photoUrl, email: contact.email, chatId, phone: contact.phone, type: 'client', blockedSending: contact.blockedSending },
      department: channel.departmentId && departmentName ? { id: channel.departmentId, name: departmentName } : null,
      publicToken: newSecret(),
      now,
    });
    return { room, created: true };
  }

  /**
   * `checkFirst`: look the external id up before anything else (the retry after a duplicate,
   * and reactions, which are never stored under their own id). Otherwise the message insert
   * itself dedupes (`on conflict do nothing`) and a duplicate throws DuplicateDelivery, which
   * rolls back whatever this transaction wrote before it.
   */
  async function ingestOne(trx: Transaction, record: RecordChange, tenantId: string, channel: Channel, item: InboundItem, checkFirst: boolean): Promise<IngestResult> {
    const now = clock.now().toISOString();
    const skipped = { externalId: item.externalId, messageId: null, roomId: null, created: false, roomCreated: false };
    if (checkFirst || item.content.reaction) {
      const existing = await messages.findByExternalId(trx, tenantId, channel.id, item.externalId);
      if (existing) return { ...skipped, messageId: existing.id, roomId: existing.roomId };
    }

    const contact = await contactFor(trx, record, tenantId, channel, item.contact, now);
    const chatId = item.contact.phone ?? (isWebchat(channel.type) ? `webchat:${contact.id}` : item.contact.userId!);
    const { room, created: roomCreated } = await roomFor(trx, tenantId, channel, contact, chatId, now);

    if (item.content.reaction) {
      // A reaction changes its target; it is not a message of its own.
      const target = await messages.findInRoom(trx, tenantId, room.id, item.content.reaction.targetExternalId);
      if (!target || roomCreated) return skipped;
      const others = target.reactions.filter((r) => r.author.id !== contact.id);
      const emoji = item.content.reaction.emoji;
      const reactions = emoji ? [...others, { emoji, author: { id: contact.id, displayName: contact.displayName, type: 'client' as const }, at: now }] : others;
      await messages.save(trx, tenantId, { ...target, reactions, reaction: reactions[reactions.length - 1]?.emoji ?? null, lifeControl: { ...target.lifeControl, updatedAt: now } });
      record({ collection: 'messages', id: target.id, op: 'upsert' });
      return { ...skipped, messageId: target.id, roomId: room.id };
    }

    const { type, text, extra } = contentFields(item.content);
    const createdAt = whenOf(item.timestamp, now);
    let message = newMessage({
      id: newId(),
      room,
      author: { id: contact.id, displayName: contact.displayName, type: 'client', phone: contact.phone, email: contact.email },
      type,
      text,
      now: createdAt,
      fromContact: true,
      externalId: item.externalId,
      // Received by us = delivered to the console; 'read' when an agent reads the room.
      extra: { ...extra, status: { sent: true, delivered: true, sentAt: now, deliveredAt: now } },
    });
    if (item.replyToExternalId) {
      const target = await messages.findInRoom(trx, tenantId, room.id, item.replyToExternalId);
      if (target) message = { ...message, replyTo: target.messageExtId ?? target.id, replied: { id: target.id, messageExtId: target.messageExtId, type: target.type, text: target.text, author: { id: target.author.id, displayName: target.author.displayName, type: target.author.type } } };
    }
    const nextRoom = applyMessage(room, message, now);
    // The message row references its room: a new room is written first.
    if (roomCreated) await rooms.insert(trx, tenantId, nextRoom);
    if (!(await messages.insertIfNew(trx, tenantId, message))) throw new DuplicateDelivery(item.externalId);
    if (!roomCreated) await rooms.save(trx, tenantId, nextRoom, room, { changedOnly: true });
    await contacts.merge(trx, tenantId, contact.id, { [`${channel.id}LastReply`]: createdAt }, now);
    await deps.hooks.onInbound(trx, record, tenantId, { room: nextRoom, roomCreated, message, channel });
    record({ collection: 'rooms', id: room.id, op: 'upsert' });
    record({ collection: 'messages', id: message.id, op: 'upsert' });
    record({ collection: 'contacts', id: contact.id, op: 'upsert' });
    return { externalId: item.externalId, messageId: message.id, roomId: room.id, created: true, roomCreated };
  }

  return {
    async ingestInbound(tenantId: string, channel: Channel, parsedMessages: InboundItem[]): Promise<IngestResult[]> {
      if (parsedMessages.length === 0) return [];
      // First attempt without a dedupe select per message; a duplicate rolls the batch back and
      // it runs again looking each external id up first, so a duplicate changes nothing.
      for (let attempt = 1; ; attempt++) {
        try {
          return await retryOnConflict(() =>
            feed.transaction(tenantId, async (trx, record) => {
              const results: IngestResult[] = [];
              for (const item of parsedMessages) results.push(await ingestOne(trx, record, tenantId, channel, item, attempt > 1));
              return results;
            }),
          );
        } catch (error) {
          if (!(error instanceof DuplicateDelivery) || attempt >= 3) throw error;
        }
      }
    },
  };
}

export type IngestService = ReturnType<typeof createIngestService>;
