import { parseMail, threadSubject, type ParsedMail } from '@atendimento/integrations/mail/mail-parser';
import { htmlToPlainText, sanitizeMailHtml } from '@atendimento/integrations/mail/mail-sanitizer';
import { MAIL_TEXT_MAX, messages as texts, type Channel, type MailAddress, type MailContent, type MailboxSettings, type Message, type Room } from '@atendimento/schemas';
import { createHash } from 'node:crypto';
import { retryOnConflict, type Transaction } from '../../db/knex';
import type { MailRepository } from '../../db/repositories/mail-repository';
import type { ChatContact } from '../../db/repositories/chat-contact-repository';
import type { RecordChange } from '../changes/change-feed';
import type { ChatDeps } from '../chat/chat-deps';
import { newId, newSecret } from '../chat/ids';
import { applyMessage, newMessage, newRoom } from '../chat/room-factory';
import { storeMailFile } from './mail-files';

export interface MailIngestResult {
  messageKey: string;
  created: boolean;
  roomId: string | null;
  messageId: string | null;
}

/** The Message-ID was stored meanwhile (another process, a retry): nothing of this attempt stays. */
class AlreadyStored extends Error {}

/**
 * A mail's external id (messages are unique on it per channel, at most 200 characters) from its
 * Message-ID. A longer Message-ID keeps its start and gains a hash of the whole: cut at 200, two
 * mails whose ids differ only after that collided, and the second was taken for a duplicate
 * and lost.
 */
function mailExternalId(key: string): string {
  if (key.length <= 200) return key;
  return `${key.slice(0, 150)}#${createHash('sha256').update(key).digest('base64url')}`;
}

const NO_SENDER: MailAddress = { name: '', address: 'sem-remetente@invalid' };

/**
 * Inbound mail (docs/email.md): one raw message → parsed, attachments and inline images into
 * the blob store, HTML sanitised, then in ONE transaction: the Message-ID claimed (unique per
 * mailbox, so a mail fetched again is stored once), the thread's room found or created, the
 * contact found or created by address, the message stored and the room updated.
 *
 * Threading: In-Reply-To, then References (newest first) name a stored message → its room.
 * Only a mail with neither header falls back to an open room of the same sender whose subject
 * matches once Re:/Fwd: prefixes are dropped. Otherwise it starts a new conversation.
 */
export function createMailIngest(deps: ChatDeps & { mail: MailRepository }) {
  const { feed, clock, rooms, messages, contacts, directory, blobs, mail } = deps;

  async function contactFor(trx: Transaction, record: RecordChange, tenantId: string, channel: Channel, sender: MailAddress, now: string): Promise<ChatContact> {
    const bound = await contacts.findByIdentity(trx, tenantId, channel.id, sender.address);
    let contact = bound.contact ?? (await contacts.findByEmail(trx, tenantId, sender.address));
    if (!contact) {
      const displayName = (sender.name.trim() || sender.address).slice(0, 200);
      contact = {
        id: newId(), displayName, name: displayName, phone: null, email: sender.address, photoUrl: null, channels: [channel.type], agents: [], clients: [],
        prospects: [], salesmen: [], vendId: null, group: false, chatId: sender.address, active: true, blockedSending: false, blockedReceiving: false,
        autoBlocked: false, chatsHistory: [], clientsName: [], lifeControl: { createdAt: now, deletedAt: null },
      };
      await contacts.insert(trx, tenantId, contact);
      record({ collection: 'contacts', id: contact.id, op: 'upsert' });
    }
    if (bound.boundId !== contact.id) await contacts.addIdentity(trx, tenantId, channel.id, sender.address, contact.id, now);
    return contact;
  }

  /** The open room of the thread, by headers first, then (no headers at all) by sender and subject. */
  async function threadRoom(trx: Transaction, tenantId: string, channel: Channel, parsed: ParsedMail, sender: MailAddress): Promise<{ room: Room | null; threadId: string }> {
    const ancestors = [...(parsed.inReplyTo ? [parsed.inReplyTo] : []), ...[...parsed.references].reverse()];
    for (const roomId of await mail.roomsOfKeys(trx, tenantId, channel.id, ancestors)) {
      const room = await rooms.findById(tenantId, roomId, trx, true);
      if (!room) continue;
      const threadId = room.mailThreadId ?? roomId;
      // A reply to a closed conversation opens a new one in the same thread.
      if (!room.active) return { room: await openRoomOfThread(trx, tenantId, channel, threadId), threadId };
      return { room, threadId };
    }
    const threadId = parsed.references[0] ?? parsed.inReplyTo ?? parsed.messageId;
    if (ancestors.length > 0) return { room: await openRoomOfThread(trx, tenantId, channel, threadId), threadId };
    const subject = threadSubject(parsed.subject);
    if (!subject || subject === parsed.subject.trim().toLowerCase()) return { room: null, threadId };
    const candidates = await rooms.list(tenantId, { and: [{ field: 'channelId', op: '==', value: channel.id }, { field: 'chatId', op: '==', value: sender.address }, { field: 'active', op: '==', value: true }] }, { order: 'desc', limit: 50 }, trx);
    const match = candidates.find((r) => threadSubject(r.subject ?? '') === subject);
    return match ? { room: match, threadId: match.mailThreadId ?? match.id } : { room: null, threadId };
  }

  function openRoomOfThread(trx: Transaction, tenantId: string, channel: Channel, threadId: string): Promise<Room | null> {
    return rooms.findOpenThread(trx, tenantId, channel.id, threadId);
  }

  async function contentOf(tenantId: string, parsed: ParsedMail): Promise<{ mailContent: Omit<MailContent, 'messageId' | 'auto'>; attachments: Message['attachments']; text: string }> {
    const cidUrls: Record<string, string> = {};
    const attachments: NonNullable<Message['attachments']> = [];
    const skipped: { fileName: string; size: number }[] = [];
    for (const a of parsed.attachments) {
      if (a.bytes.length === 0) continue;
      const stored = await storeMailFile(blobs, tenantId, a.fileName, a.bytes);
      if (!stored.stored) {
        skipped.push({ fileName: stored.fileName, size: stored.size });
        continue;
      }
      if (a.contentId) cidUrls[a.contentId] = stored.url;
      if (!a.inline) attachments.push({ url: stored.url, mimeType: stored.mimeType, filename: stored.fileName });
    }
    const safe = parsed.unsafeHtml ? sanitizeMailHtml(parsed.unsafeHtml, { cidUrls }) : null;
    const remote = safe?.remoteBlocked && parsed.unsafeHtml ? sanitizeMailHtml(parsed.unsafeHtml, { cidUrls, allowRemote: true }).html : null;
    const text = (parsed.text || (safe ? htmlToPlainText(safe.html) : '') || parsed.subject).slice(0, MAIL_TEXT_MAX);
    return {
      text,
      attachments,
      mailContent: {
        inReplyTo: parsed.inReplyTo,
        references: parsed.references,
        subject: parsed.subject,
        from: parsed.from,
        to: parsed.to,
        cc: parsed.cc,
        html: safe?.html.trim() ? safe.html : null,
        remoteImages: Boolean(safe?.remoteBlocked),
        ...(remote && { remoteHtml: remote }),
        date: parsed.date,
        ...(skipped.length && { skippedAttachments: skipped }),
      },
    };
  }

  async function storeOne(tenantId: string, channel: Channel, settings: MailboxSettings, parsed: ParsedMail): Promise<MailIngestResult> {
    const key = parsed.messageId;
    const skipped: MailIngestResult = { messageKey: key, created: false, roomId: null, messageId: null };
    if (await mail.hasMessageKey(tenantId, channel.id, key)) return skipped;
    const { mailContent, attachments, text } = await contentOf(tenantId, parsed);
    const sender = parsed.replyTo && parsed.from && parsed.replyTo.address !== parsed.from.address ? parsed.replyTo : parsed.from ?? NO_SENDER;
    const own = settings.fromAddress.toLowerCase();
    try {
      return await retryOnConflict(() =>
        feed.transaction(tenantId, async (trx, record) => {
          const now = clock.now().toISOString();
          const found = await threadRoom(trx, tenantId, channel, parsed, sender);
          const contact = await contactFor(trx, record, tenantId, channel, sender, now);
          let room = found.room;
          const roomCreated = !room;
          if (!room) {
            const departmentName = channel.departmentId ? await directory.departmentName(tenantId, channel.departmentId, trx) : null;
            room = {
              ...newRoom({
                id: newId(), roomInc: await rooms.nextRoomInc(trx, tenantId), channel, chatId: sender.address,
                author: { id: contact.id, displayName: contact.displayName, photoUrl: contact.photoUrl, email: contact.email, chatId: sender.address, phone: null, type: 'client', blockedSending: contact.blockedSending },
                department: channel.departmentId && departmentName ? { id: channel.departmentId, name: departmentName } : null,
                publicToken: newSecret(), now,
              }),
              origin: 'mail',
              subject: parsed.subject || texts.mail.noSubject,
              mailThreadId: found.threadId,
              mailTo: [sender.address],
            };
          }
          // Arrival order, not the sender's Date header (seconds, any clock): the thread reads in the order it reached us.
          const createdAt = now;
          const message = newMessage({
            id: newId(), room, type: 'text', text, now: createdAt, fromContact: true, externalId: mailExternalId(key),
            author: { id: contact.id, displayName: contact.displayName, type: 'client', email: sender.address, phone: null },
            extra: { mail: { ...mailContent, messageId: key, auto: parsed.auto }, ...(attachments?.length && { attachments }), status: { sent: true, delivered: true, sentAt: now, deliveredAt: now } },
          });
          const cc = [...new Set([...room.mailCC, ...[...parsed.to, ...parsed.cc].map((a) => a.address)])].filter((a) => a !== own && a !== sender.address).slice(0, 50);
          const next: Room = { ...applyMessage(room, message, now), mailCC: cc };
          if (roomCreated) await rooms.insert(trx, tenantId, next);
          if (!(await mail.claimMessageKey(trx, tenantId, channel.id, key, room.id, message.id, now))) throw new AlreadyStored();
          if (!(await messages.insertIfNew(trx, tenantId, message))) throw new AlreadyStored();
          if (!roomCreated) await rooms.save(trx, tenantId, next, room);
          record({ collection: 'rooms', id: room.id, op: 'upsert' });
          record({ collection: 'messages', id: message.id, op: 'upsert' });
          return { messageKey: key, created: true, roomId: room.id, messageId: message.id };
        }),
      );
    } catch (error) {
      if (error instanceof AlreadyStored) return skipped;
      throw error;
    }
  }

  return {
    /** Stores one raw message of the mailbox (idempotent on its Message-ID or content hash). */
    async ingestRaw(tenantId: string, channel: Channel, settings: MailboxSettings, raw: Buffer): Promise<MailIngestResult> {
      const parsed = await parseMail(raw);
      return storeOne(tenantId, channel, settings, parsed);
    },
  };
}

export type MailIngest = ReturnType<typeof createMailIngest>;
