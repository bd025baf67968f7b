import type { ContactIdentity, InboundContent, InboundMessage } from '@atendimento/integrations';
import { format, isWebchat, messages as texts, type Channel, type Message, type MessageError, type Room } from '@atendimento/schemas';
import type { RecordChange } from '../changes/change-feed';
import { lastReplyAt, lastReplyField, type ChatContact } from '../../db/repositories/chat-contact-repository';
import { newMessageInsert } from '../../db/repositories/message-repository';
import { retryOnConflict, type Transaction } from '../../db/knex';
import type { ChatDeps } from './chat-deps';
import type { SurveyService } from './survey-service';
import { newId, newSecret } from './ids';
import { applyMessage, newMessage, newRoom } from './room-factory';
import { createIngestReadAhead } from './ingest-read-ahead';

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
  /** The room's agents after the message (follow-me forwards to those who follow). */
  agents?: string[];
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
    // The file name is kept too: 'recarregar' stores the document under it (media-reload.ts).
    return { error: { type: content.type, ...(media.mediaId && { mediaId: media.mediaId }), mimeType, ...(media.url && { url: media.url }), ...(media.fileName && { fileName: media.fileName }) } };
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

const KNOWN_TYPES = new Set(['text', 'image', 'document', 'audio', 'video', 'location', 'contacts', 'sticker', 'interactive', 'order', 'system', 'unsupported']);

/** '+' and the digits of a phone, for the stored pt-BR text (the console formats it by country). */
const plus = (phone: string | undefined) => (phone ? `+${phone}` : '?');

/** The pt-BR text of a WhatsApp notice (also the chat card's preview and what search finds). */
function noticeText(system: NonNullable<Message['system']>): string {
  const k = texts.whatsappKinds;
  if (system.type === 'user_changed_number') return format(k.numberChanged, { old: plus(system.previousPhone), new: plus(system.newPhone) });
  if (system.type === 'user_changed_user_id') return format(k.userIdChanged, { old: system.previousUserId ?? '?', new: system.newUserId ?? '?' });
  if (system.type === 'customer_identity_changed') return k.identityChanged;
  return format(k.otherNotice, { body: system.body ?? system.type });
}

/** The pt-BR summary of content WhatsApp could not deliver to us: what it was, what to ask. */
function unsupportedText(providerType: string, errors: MessageError[] | undefined): string {
  const k = texts.whatsappKinds;
  const kind = k.kinds[providerType] ?? format(k.someKind, { type: providerType });
  const codes = new Set((errors ?? []).map((e) => Number(e.code)));
  const hint = codes.has(131052) ? k.mediaHint : codes.has(131051) || providerType !== 'unsupported' ? k.unsupportedHint : k.resendHint;
  return `${format(k.unsupportedTitle, { kind })} ${hint}`;
}

/** An order's total when every item has one currency (a mixed order has no single total). */
function orderTotal(order: NonNullable<InboundContent['order']>): number | undefined {
  const currencies = new Set(order.product_items.map((i) => i.currency));
  if (currencies.size !== 1) return undefined;
  return Math.round(order.product_items.reduce((sum, i) => sum + i.item_price * i.quantity, 0) * 100) / 100;
}

/**
 * The longest text or caption stored from a provider: WhatsApp's own limit for a typed message.
 * A longer one (a signed but broken or hostile delivery) is kept up to it with '…': refusing it
 * would lose the delivery's other messages, and megabytes of text would reach every console.
 */
export const INBOUND_TEXT_MAX = 65_536;

function clip<T extends string | null | undefined>(value: T): T {
  if (typeof value !== 'string' || value.length <= INBOUND_TEXT_MAX) return value;
  let end = INBOUND_TEXT_MAX;
  // Never cut a character in half (an emoji is two UTF-16 units).
  if (/[\uD800-\uDBFF]/.test(value[end - 1]!)) end -= 1;
  return `${value.slice(0, end)}…` as T;
}

/** Maps a parsed content into the seed's message fields; the provider's message is kept as `raw`. */
function contentFields(content: InboundContent): { type: Message['type']; text: string | null; extra: Partial<Message> } {
  const tooLong = (content.text?.length ?? 0) > INBOUND_TEXT_MAX || (content.caption?.length ?? 0) > INBOUND_TEXT_MAX;
  if (!tooLong) return contentFieldsAsGiven(content);
  // The provider's copy (`raw`) would keep the megabytes: only its type stays.
  const clipped = contentFieldsAsGiven({ ...content, text: clip(content.text), caption: clip(content.caption), raw: { type: content.type, clipped: true } });
  return { ...clipped, text: clip(clipped.text) };
}

function contentFieldsAsGiven(content: InboundContent): { type: Message['type']; text: string | null; extra: Partial<Message> } {
  const extra: Partial<Message> = { caption: content.caption ?? null, ...mediaFields(content) };
  if (content.raw !== undefined) extra.raw = content.raw;
  if (content.errors?.length) extra.providerErrors = content.errors.map((e) => ({ title: e.title, code: e.code, ...(e.details && { details: e.details }), ...(e.titleptBR && { titleptBR: e.titleptBR }) }));
  if (content.location) {
    const { latitude, longitude, name, address, url } = content.location;
    extra.location = { latitude, longitude, ...(name && { name }), ...(address && { address }), ...(url && /^https?:\/\//i.test(url) && { url }) };
  }
  if (content.contacts) extra.contacts = content.contacts as Message['contacts'];
  if (content.interactive) extra.interactive = content.interactive as Message['interactive'];
  if (content.referral) extra.referral = content.referral;
  if (content.button) extra.interactive = { type: 'button_reply', button_reply: { id: content.button.payload, title: content.button.text } };
  if (content.order) {
    const total = orderTotal(content.order);
    extra.order = { ...content.order, ...(total !== undefined && { total }) };
    return { type: 'order', text: content.order.text?.trim() || null, extra };
  }
  if (content.system) {
    const system: NonNullable<Message['system']> = { type: content.system.type, ...(content.system.body && { body: content.system.body }) };
    extra.system = system;
    return { type: 'system', text: noticeText(system), extra };
  }
  if (content.unsupported) {
    extra.unsupported = { providerType: content.unsupported.providerType };
    return { type: 'unsupported', text: unsupportedText(content.unsupported.providerType, extra.providerErrors), extra };
  }
  const type = (content.button ? 'interactive' : KNOWN_TYPES.has(content.type) ? content.type : 'text') as Message['type'];
  return { type, text: content.text ?? (content.button?.text ?? null), extra };
}

/** A date the provider gave, unless it is invalid or in the future. */
/**
 * Whether a customer's message at `at` restamps the channel's LastReply (the 24-hour window,
 * whatsapp/messaging-window.ts). A burst restamps it once a minute: the window may then close
 * up to a minute early, never late, and the burst's other messages skip an UPDATE, a change-log
 * row and a `contacts` event each (docs/ingest.md "The LastReply stamp, once a minute"). An older message
 * (delivered late) never moves it back.
 */
const LAST_REPLY_STEP_MS = 60_000;
function restampsLastReply(last: number, at: string): boolean {
  return !Number.isFinite(last) || Date.parse(at) - last >= LAST_REPLY_STEP_MS;
}

/**
 * A group chat after one of its members wrote: the member joins the room's 'Participantes' (the
 * group drawer) the first time, and a new subject the provider sent replaces the old one.
 */
function withParticipant(room: Room, group: NonNullable<InboundItem['group']>, member: InboundItem['contact']): Room {
  const data = room.groupData ?? { subject: room.author.displayName, participants: [] };
  const subject = group.subject?.trim() || data.subject;
  const phone = member.phone ?? member.userId;
  const known = !phone || data.participants.some((p) => p.phone === phone);
  if (known && subject === data.subject) return room;
  const participants = known ? data.participants : [...data.participants, { phone: phone!, displayName: member.displayName?.trim() || '' }];
  return { ...room, groupData: { subject, participants } };
}

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
export function createIngestService(deps: ChatDeps, surveys?: SurveyService) {
  const { feed, clock, rooms, messages, contacts, directory } = deps;
  const ahead = createIngestReadAhead(deps);

  async function contactFor(trx: Transaction, record: RecordChange, tenantId: string, channel: Channel, identity: InboundItem['contact'], now: string, group = false): Promise<ChatContact> {
    const key = identity.userId ?? identity.phone;
    if (!key) throw new Error('ingestInbound: an inbound message needs contact.userId or contact.phone. Fix the channel parser.');
    const bound = ahead.of(trx)?.contact(tenantId, channel.id, key) ?? (await contacts.findByIdentity(trx, tenantId, channel.id, key));
    let contact = bound.contact;
    if (!contact && identity.phone) contact = await contacts.findByPhone(trx, tenantId, identity.phone);
    if (!contact) {
      const id = newId();
      const displayName = (identity.displayName?.trim() || identity.phone || texts.webchat.visitor).slice(0, 200);
      contact = {
        id, displayName, name: displayName, phone: identity.phone, email: identity.email?.trim().toLowerCase() || null, photoUrl: null,
        channels: [isWebchat(channel.type) ? 'webchat' : 'whatsapp'], agents: [], clients: [], prospects: [], salesmen: [],
        vendId: null, group, chatId: identity.phone ?? (group ? key : null), active: true, blockedSending: false, blockedReceiving: false, autoBlocked: false,
        chatsHistory: [], clientsName: [], lifeControl: { createdAt: now, deletedAt: null },
      };
      await contacts.insert(trx, tenantId, contact);
      record({ collection: 'contacts', id, op: 'upsert' });
    }
    if (bound.boundId !== contact.id) await contacts.addIdentity(trx, tenantId, channel.id, key, contact.id, now);
    return contact;
  }

  /** The chat's open room (`open`, already looked up under the transaction's lock), or a new one. */
  async function roomFor(trx: Transaction, tenantId: string, channel: Channel, contact: ChatContact, chatId: string, now: string, open: Room | null, group: InboundItem['group'] = null): Promise<{ room: Room; created: boolean }> {
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
    if (group) Object.assign(room, { group: true, groupData: { subject: group.subject?.trim() || contact.displayName, participants: [] } });
    return { room, created: true };
  }

  /**
   * The customer changed number (or business-scoped user id): the new one becomes an identity
   * of the SAME contact (its history follows), the old one stays bound as an alias, and the
   * open room on this channel moves to the new chat id so replies reach the new number.
   * Answers the identity the notice belongs to and the notice's before/after values.
   */
  async function followIdentity(trx: Transaction, record: RecordChange, tenantId: string, channel: Channel, item: InboundItem, now: string): Promise<{ identity: InboundItem['contact']; notice: Partial<NonNullable<Message['system']>> } | null> {
    const system = item.content.system!;
    const oldPhone = item.contact.phone;
    const byPhone = system.type === 'user_changed_number' && system.newPhone && oldPhone && system.newPhone !== oldPhone;
    const byUserId = system.type === 'user_changed_user_id' && system.newUserId && system.previousUserId && system.newUserId !== system.previousUserId;
    if (!byPhone && !byUserId) return null;
    const oldKey = byPhone ? oldPhone! : system.previousUserId!;
    const newKey = byPhone ? system.newPhone! : system.newUserId!;
    const bound = await contacts.findByIdentity(trx, tenantId, channel.id, oldKey);
    const contact = bound.contact ?? (byPhone ? await contacts.findByPhone(trx, tenantId, oldPhone!) : null);
    const identity = byPhone ? { ...item.contact, phone: newKey, userId: null } : { ...item.contact, userId: newKey };
    const notice = byPhone ? { previousPhone: oldKey, newPhone: newKey } : { previousUserId: oldKey, newUserId: newKey };
    if (!contact) return { identity, notice };
    if (!bound.contact) await contacts.addIdentity(trx, tenantId, channel.id, oldKey, contact.id, now);
    await contacts.bindIdentity(trx, tenantId, channel.id, newKey, contact.id, now);
    if (byPhone) {
      const aliases = [...new Set([...((contact.phoneAliases as string[] | undefined) ?? []), oldKey])];
      await contacts.changePhone(trx, tenantId, contact.id, newKey, { chatId: newKey, phoneAliases: aliases }, now);
      record({ collection: 'contacts', id: contact.id, op: 'upsert' });
    }
    const open = await rooms.findOpen(trx, tenantId, channel.id, oldKey);
    if (open && !(await rooms.findOpen(trx, tenantId, channel.id, newKey))) {
      const author = { ...open.author, chatId: newKey, ...(byPhone && { phone: newKey }) };
      await rooms.save(trx, tenantId, { ...open, chatId: newKey, author, lifeControl: { ...open.lifeControl, updatedAt: now } }, open);
      record({ collection: 'rooms', id: open.id, op: 'upsert' });
    }
    return { identity, notice };
  }

  /**
   * An edit or a delete-for-everyone of one of the customer's own messages: the stored message
   * changes (an edit keeps the earlier text in `versions`; a delete keeps the content aside for
   * seeDeletedMessages, as an agent's delete does). Targets we never stored: an edit is kept as
   * a new message so its text is not lost; a delete changes nothing.
   */
  async function changeOwnMessage(trx: Transaction, record: RecordChange, tenantId: string, room: Room, roomCreated: boolean, contact: ChatContact, item: InboundItem, now: string): Promise<string | null> {
    const ref = item.content.edit?.targetExternalId ?? item.content.revoke!.targetExternalId;
    const target = roomCreated ? null : await messages.findInRoom(trx, tenantId, room.id, ref);
    const own = target && target.author.id === contact.id && !target.status?.deleted ? target : null;
    if (!own) return null;
    let next: Message;
    if (item.content.edit) {
      const edited = item.content.edit.content;
      const text = clip(edited.text) ?? own.text;
      const caption = clip(edited.caption) ?? own.caption;
      if (text === own.text && caption === own.caption) return own.id; // a repeated delivery of the same edit
      next = {
        ...own,
        text,
        caption,
        ...(own.image && { image: { ...own.image, caption } }),
        ...(own.video && { video: { ...own.video, caption } }),
        versions: [...own.versions, { text: own.text, caption: own.caption, editedAt: now, editedBy: contact.id }],
        raw: item.content.raw,
        lifeControl: { ...own.lifeControl, updatedAt: now },
      };
      await messages.save(trx, tenantId, next);
    } else {
      const kept = { text: own.text, caption: own.caption, image: own.image, audio: own.audio, video: own.video, document: own.document, raw: own.raw };
      next = {
        ...own, text: null, caption: null, image: undefined, audio: undefined, video: undefined, document: undefined, raw: item.content.raw,
        status: { ...(own.status ?? {}), deleted: true },
        lifeControl: { ...own.lifeControl, updatedAt: now, deletedAt: now, deletedBy: contact.id },
      };
      await messages.save(trx, tenantId, next, { deletedData: kept });
    }
    record({ collection: 'messages', id: own.id, op: 'upsert' });
    if (room.lastMessage?.messageId === own.id) {
      await rooms.save(trx, tenantId, { ...room, lastMessage: { ...room.lastMessage, text: next.status?.deleted ? texts.chat.messageDeleted : (next.text ?? next.caption ?? room.lastMessage.text) } }, room);
      record({ collection: 'rooms', id: room.id, op: 'upsert' });
    }
    return own.id;
  }

  /** A message of one of this customer's earlier chats on the channel, by its provider id (a reaction's target). */
  async function earlierChatMessage(trx: Transaction, tenantId: string, channelId: string, chatId: string, externalId: string): Promise<Message | null> {
    const found = await messages.findByExternalId(trx, tenantId, channelId, externalId);
    if (!found) return null;
    const home = await rooms.findById(tenantId, found.roomId, trx);
    return home?.chatId === chatId ? found : null;
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

    // A group conversation (Z-API): one chat per group, whose contact is the group; the member
    // who wrote is the message's author and one of its participants.
    const group = item.group ?? null;
    // A notice may move identities and rooms between contacts: what the group read ahead is stale after it.
    if (item.content.system && !group) ahead.of(trx)?.clear();
    const moved = item.content.system && !group ? await followIdentity(trx, record, tenantId, channel, item, now) : null;
    const identity = group ? { phone: null, userId: group.id, displayName: group.subject ?? null } : (moved?.identity ?? item.contact);
    const contact = await contactFor(trx, record, tenantId, channel, identity, now, Boolean(group));
    // A message that names the customer only by a user id (Meta's BSUID, a Z-API LID, a changed
    // user id's notice) belongs to the chat of the contact's number when the contact has one:
    // the chat key follows the contact, not the form of id this delivery used.
    const chatId = group ? group.id : identity.phone ?? (isWebchat(channel.type) ? `webchat:${contact.id}` : contact.phone ?? identity.userId!);
    const readOpen = ahead.of(trx)?.openRoom(tenantId, channel.id, chatId);
    const open = readOpen !== undefined ? readOpen : await rooms.findOpen(trx, tenantId, channel.id, chatId);
    // A survey waiting on the chat's last closed room takes the customer's next message as its
    // answer; only when no room is open (an open chat's messages belong to it).
    if (!open && surveys && !item.content.system && !item.content.reaction && !item.content.edit && !item.content.revoke) {
      const answered = await surveys.takeAnswer(trx, record, tenantId, async () => ({ claims: await directory.tenantClaims(tenantId, trx) }), channel.id, chatId, (closed) => {
        const { type, text, extra } = contentFields(item.content);
        return newMessage({
          id: newId(), room: closed, author: { id: contact.id, displayName: contact.displayName, type: 'client', phone: contact.phone, email: contact.email },
          type, text, now: whenOf(item.timestamp, now), fromContact: true, externalId: item.externalId,
          extra: { ...extra, status: { sent: true, delivered: true, sentAt: now, deliveredAt: now } },
        });
      });
      if (answered) {
        record({ collection: 'contacts', id: contact.id, op: 'upsert' });
        const stored = await messages.findByExternalId(trx, tenantId, channel.id, item.externalId);
        return { externalId: item.externalId, messageId: stored?.id ?? null, roomId: answered.id, created: true, roomCreated: false };
      }
    }
    const { room, created: roomCreated } = await roomFor(trx, tenantId, channel, contact, chatId, now, open, group);

    if (item.content.edit || item.content.revoke) {
      const changed = await changeOwnMessage(trx, record, tenantId, room, roomCreated, contact, item, now);
      if (changed) return { ...skipped, messageId: changed, roomId: room.id };
      if (!item.content.edit) return skipped;
      item = { ...item, content: { ...item.content.edit.content, raw: item.content.raw } };
    }

    if (item.content.reaction) {
      // A reaction changes its target; it is not a message of its own and opens no chat. A 👍 to
      // the agent's last answer often comes after the chat was closed: it goes on that message,
      // in the closed chat of the same customer.
      const ref = item.content.reaction.targetExternalId;
      const target = (roomCreated ? null : await messages.findInRoom(trx, tenantId, room.id, ref)) ?? (await earlierChatMessage(trx, tenantId, channel.id, chatId, ref));
      if (!target) return skipped;
      const others = target.reactions.filter((r) => r.author.id !== contact.id);
      const emoji = item.content.reaction.emoji;
      const reactions = emoji ? [...others, { emoji, author: { id: contact.id, displayName: contact.displayName, type: 'client' as const }, at: now }] : others;
      await messages.save(trx, tenantId, { ...target, reactions, reaction: reactions[reactions.length - 1]?.emoji ?? null, lifeControl: { ...target.lifeControl, updatedAt: now } });
      record({ collection: 'messages', id: target.id, op: 'upsert' });
      return { ...skipped, messageId: target.id, roomId: target.roomId };
    }

    const { type, text, extra } = contentFields(item.content);
    if (moved && extra.system) Object.assign(extra.system, moved.notice);
    const createdAt = whenOf(item.timestamp, now);
    // A notice from WhatsApp is not the customer writing: it neither opens the 24-hour window nor counts as unread.
    const notice = type === 'system';
    let message = newMessage({
      id: newId(),
      room,
      author: notice
        ? { id: `whatsapp:${contact.id}`, displayName: 'WhatsApp', type: 'system' }
        : group
          ? { id: contact.id, displayName: item.contact.displayName?.trim() || item.contact.phone || contact.displayName, type: 'client', phone: item.contact.phone, email: null }
          : { id: contact.id, displayName: contact.displayName, type: 'client', phone: contact.phone, email: contact.email },
      type,
      text: notice && moved ? noticeText(extra.system!) : text,
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
    const applied = notice ? { ...applyMessage(room, message, now), lastMessage: room.lastMessage ?? null, unreadCount: room.unreadCount, lastMessages: room.lastMessages } : applyMessage(room, message, now);
    const nextRoom = group ? withParticipant(applied, group, item.contact) : applied;
    // The message row references its room: a new room is written first.
    if (roomCreated) await rooms.insert(trx, tenantId, nextRoom);
    // Into an existing room on PostgreSQL: message and room in one statement (null: two).
    const written = roomCreated ? null : await rooms.saveWithNewMessage(trx, tenantId, nextRoom, room, newMessageInsert(tenantId, message));
    if (written === false) throw new DuplicateDelivery(item.externalId);
    if (written === null) {
      if (!(await messages.insertIfNew(trx, tenantId, message))) throw new DuplicateDelivery(item.externalId);
      if (!roomCreated) await rooms.save(trx, tenantId, nextRoom, room, { changedOnly: true });
    }
    const stamped = !notice && restampsLastReply(lastReplyAt(contact, channel.id), createdAt);
    if (stamped) await contacts.merge(trx, tenantId, contact.id, { [lastReplyField(channel.id)]: createdAt }, now);
    if (!notice) {
      // Routing reacts to the customer writing (automatic answers, assignment), not to WhatsApp's notices.
      await deps.hooks.onInbound(trx, record, tenantId, { room: nextRoom, roomCreated, message, channel });
    }
    // A customer's message into an open room changes no daily report figure (docs/reports.md).
    record({ collection: 'rooms', id: room.id, op: 'upsert', ...(!roomCreated && { reportNeutral: true }) });
    record({ collection: 'messages', id: message.id, op: 'upsert' });
    if (notice || stamped) record({ collection: 'contacts', id: contact.id, op: 'upsert' });
    return { externalId: item.externalId, messageId: message.id, roomId: room.id, created: true, roomCreated, agents: nextRoom.agents.map((a) => a.id) };
  }

  return {
    async ingestInbound(tenantId: string, channel: Channel, parsedMessages: InboundItem[]): Promise<IngestResult[]> {
      if (parsedMessages.length === 0) return [];
      // First attempt without a dedupe select per message; a duplicate rolls the batch back and
      // it runs again looking each external id up first, so a duplicate changes nothing.
      for (let attempt = 1; ; attempt++) {
        try {
          return await retryOnConflict(() =>
            // Group commit (docs/ingest.md): messages that arrive while a commit runs share the next one.
            feed.grouped(tenantId, async (trx, record) => {
              const results: IngestResult[] = [];
              for (const item of parsedMessages) results.push(await ingestOne(trx, record, tenantId, channel, item, attempt > 1));
              return results;
            }, ahead.read(tenantId, channel, parsedMessages)),
          );
        } catch (error) {
          if (!(error instanceof DuplicateDelivery) || attempt >= 3) throw error;
        }
      }
    },
  };
}

export type IngestService = ReturnType<typeof createIngestService>;
