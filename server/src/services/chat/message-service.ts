import {
  MAX_MESSAGES_LIMIT, MESSAGES_PAGE_SIZE, channelInfo, messages as texts,
  type AppConfig, type DeliveryState, type Message, type MessageError, type MessageStatus, type Room, type SendMessageInput, type UploadKind,
} from '@atendimento/schemas';
import { badRequest, conflict, forbidden, notFound } from '../../errors';
import type { RecordChange } from '../changes/change-feed';
import { retryOnConflict, type Transaction } from '../../db/knex';
import type { ChatDeps } from './chat-deps';
import { SendFailure } from './channel-senders';
import { encodeCursor } from './cursor';
import { newId } from './ids';
import { applyMessage, lastMessageOf, newMessage } from './room-factory';
import { canAttend, canSee, messageFilter, type UserViewer, type ChatScope, userOnly } from './room-scope';

/** A stored upload ready to become a message. */
export interface StoredUpload {
  kind: UploadKind;
  url: string;
  mimeType: string;
  size: number;
  fileName: string;
}

export interface SendResult {
  message: Message;
  /** False when an idempotent retry found the first message, or for an edit. */
  created: boolean;
}

const RANK: Record<'sent' | 'delivered' | 'read', number> = { sent: 1, delivered: 2, read: 3 };

/**
 * Merges a delivery state into a status, never going back (seed 001 §4): read implies
 * delivered and sent. 'failed' is terminal (docs/whatsapp.md "Statuses"): the Cloud API sends
 * no receipt after a failure, so a later 'delivered'/'read' for a failed message is a replay or
 * a misbehaving provider and never hides the failure; a 'failed' after delivery is ignored (the
 * customer has it). Only a resend (which clears the status) starts again.
 */
function advanceStatus(status: MessageStatus | null, state: DeliveryState, at: string, errors?: MessageError[]): MessageStatus | null {
  const current: MessageStatus = { ...(status ?? {}) };
  if (state === 'failed') {
    if (current.delivered || current.read) return null;
    if (current.failed) return null;
    return { ...current, failed: true, errors: errors?.length ? errors : [{ title: 'send failed', titleptBR: texts.chat.sendFailed }] };
  }
  if (state === 'deleted') return current.deleted ? null : { ...current, deleted: true };
  if (current.failed) return null;
  const rank = RANK[state];
  const had = current.read ? 3 : current.delivered ? 2 : current.sent ? 1 : 0;
  if (rank <= had) return null;
  const next: MessageStatus = { ...current, sent: true, sentAt: current.sentAt ?? at };
  if (rank >= 2) Object.assign(next, { delivered: true, deliveredAt: current.deliveredAt ?? at });
  if (rank >= 3) Object.assign(next, { read: true, readAt: at });
  return next;
}

export function createMessageService(deps: ChatDeps) {
  const { feed, clock, rooms, messages, contacts, directory, logger } = deps;

  /** Loads the room (locked) and checks the caller attends it and may write to the contact. */
  async function roomToWrite(trx: Transaction, tenantId: string, viewer: UserViewer, config: AppConfig, roomId: string, annotation: boolean): Promise<Room> {
    const room = await rooms.findById(tenantId, roomId, trx, true);
    if (!room || !canSee(viewer, config, room)) throw notFound();
    // Closed first: after closing nobody attends, and 'enter the chat' would be the wrong advice.
    if (!room.active && !room.internal) throw conflict('room_closed', texts.chatServer.alreadyClosed);
    if (!canAttend(viewer, room)) throw forbidden('enter_first', texts.chatServer.enterFirst);
    if (!annotation && !room.internal) {
      const contact = await contacts.findById(trx, tenantId, room.author.id);
      if (contact?.blockedSending) throw forbidden('contact_blocked', texts.chatServer.contactBlocked);
    }
    return room;
  }

  function authorOf(viewer: UserViewer) {
    return { id: viewer.id, displayName: viewer.displayName, type: 'agent' as const };
  }

  /** Sends through the channel after commit; failures become status.failed with the provider's titles. */
  async function deliver(tenantId: string, room: Room, message: Message, replyTo: Message | null): Promise<void> {
    const sender = deps.senderFor(room);
    if (message.annotation || sender?.inProcess) return;
    if (!sender) {
      await applyStatus(tenantId, message.id, 'failed', [{ title: 'channel not configured', titleptBR: texts.chat.sendFailed }]);
      return;
    }
    try {
      const channel = room.channelId ? await directory.channel(tenantId, String(Array.isArray(room.channelId) ? room.channelId[0] : room.channelId)) : null;
      const { externalId } = await sender.send({ tenantId, room, channel, message, replyTo });
      await applyStatus(tenantId, message.id, 'sent', undefined, externalId);
    } catch (error) {
      if (!(error instanceof SendFailure)) logger.error({ err: error, tenantId, messageId: message.id }, 'chat.send_failed');
      await applyStatus(tenantId, message.id, 'failed', error instanceof SendFailure ? error.errors : undefined);
    }
  }

  /** Inserts an agent message with its room effects; idempotent on `key`. */
  async function insertOwn(
    tenantId: string,
    viewer: UserViewer,
    config: AppConfig,
    roomId: string,
    key: string | null,
    annotation: boolean,
    build: (room: Room, trx: Transaction) => Promise<{ message: Message; replyTo: Message | null }>,
    kind: 'free' | 'template' = 'free',
  ): Promise<SendResult> {
    const idempotencyKey = key ? `${viewer.id}:${key}` : null;
    const sent: { value: { room: Room; message: Message; replyTo: Message | null } | null } = { value: null };
    const result = await retryOnConflict(() =>
      feed.transaction(tenantId, async (trx, record): Promise<SendResult> => {
        sent.value = null;
        if (idempotencyKey) {
          const first = await messages.findByIdempotencyKey(trx, tenantId, idempotencyKey);
          if (first) {
            if (first.roomId !== roomId) throw conflict('idempotency_key_reused', texts.validation.invalidValue);
            return { message: first, created: false };
          }
        }
        const room = await roomToWrite(trx, tenantId, viewer, config, roomId, annotation);
        if (!annotation && !room.internal) await deps.senderFor(room)?.beforeSend?.(trx, tenantId, room, kind);
        const { message, replyTo } = await build(room, trx);
        const inProcess = annotation || deps.senderFor(room)?.inProcess === true;
        const keyed: Message = key ? { ...message, clientId: key } : message;
        const stored: Message = inProcess ? { ...keyed, status: { sent: true, sentAt: message.lifeControl.createdAt } } : keyed;
        await messages.insert(trx, tenantId, stored, idempotencyKey);
        const next = applyMessage(room, stored, stored.lifeControl.createdAt);
        await rooms.save(trx, tenantId, next, room);
        record({ collection: 'messages', id: stored.id, op: 'upsert' });
        record({ collection: 'rooms', id: room.id, op: 'upsert' });
        sent.value = { room: next, message: stored, replyTo };
        return { message: stored, created: true };
      }),
    );
    if (sent.value) {
      const { room, message, replyTo } = sent.value;
      void deliver(tenantId, room, message, replyTo).catch((err) => logger.error({ err }, 'chat.deliver_failed'));
    }
    return result;
  }

  async function replyTarget(trx: Transaction, tenantId: string, room: Room, ref: string | null | undefined): Promise<Message | null> {
    if (!ref) return null;
    const target = await messages.findInRoom(trx, tenantId, room.id, ref);
    if (!target) throw badRequest('reply_not_found', texts.errors.notFound);
    return target;
  }

  function repliedOf(target: Message | null): Pick<Message, 'replyTo' | 'replied'> {
    if (!target) return { replyTo: null, replied: null };
    return {
      replyTo: target.messageExtId ?? target.id,
      replied: { id: target.id, messageExtId: target.messageExtId, type: target.type, text: target.text ?? target.caption, author: { id: target.author.id, displayName: target.author.displayName, type: target.author.type } },
    };
  }

  /** Monotonic status update (by message id); also refreshes the room's last-message tick. */
  async function applyStatus(tenantId: string, messageId: string, state: DeliveryState, errors?: MessageError[], externalId?: string | null): Promise<Message | null> {
    return feed.transaction(tenantId, async (trx, record) => {
      const message = await messages.findById(tenantId, messageId, trx);
      if (!message) return null;
      return applyStatusIn(trx, record, tenantId, message, state, errors, externalId);
    });
  }

  async function applyStatusIn(
    trx: Transaction,
    record: RecordChange,
    tenantId: string,
    message: Message,
    state: DeliveryState,
    errors?: MessageError[],
    externalId?: string | null,
  ): Promise<Message> {
    const now = clock.now().toISOString();
    const status = advanceStatus(message.status, state, now, errors);
    if (!status && !externalId) return message;
    const next: Message = { ...message, ...(status && { status }), ...(externalId && { messageExtId: externalId }), lifeControl: { ...message.lifeControl, updatedAt: now } };
    // The room is locked first (the order every room writer uses: room, then its messages): a
    // receipt rewriting the room from a copy read before another writer's commit (a survey
    // answer, a transfer) would otherwise undo that write on PostgreSQL.
    const room = await rooms.findById(tenantId, message.roomId, trx, true);
    await messages.save(trx, tenantId, next);
    record({ collection: 'messages', id: message.id, op: 'upsert' });
    if (room?.lastMessage?.messageId === message.id) {
      await rooms.save(trx, tenantId, { ...room, lastMessage: { ...lastMessageOf(next, room.lastMessage.unread), text: room.lastMessage.text } }, room);
      record({ collection: 'rooms', id: room.id, op: 'upsert' });
    }
    return next;
  }

  return {
    advanceStatus,
    applyStatus,
    applyStatusIn,

    /** Throws what a send would (404, 403, 409) without writing: checked before an upload is read. */
    async assertWritable(scope: ChatScope, roomId: string, annotation: boolean): Promise<void> {
      const { tenantId, config } = scope;
      const viewer = userOnly(scope.viewer);
      await feed.transaction(tenantId, (trx) => roomToWrite(trx, tenantId, viewer, config, roomId, annotation));
    },

    /** Sends a stored message through its channel after commit (system notices, retries). */
    async dispatch(tenantId: string, messageId: string): Promise<void> {
      const message = await messages.findById(tenantId, messageId);
      const room = message ? await rooms.findById(tenantId, message.roomId) : null;
      if (message && room) await deliver(tenantId, room, message, null);
    },

    /** Text, internal note, reply or edit of own message (POST /api/rooms/:id/message). */
    async sendText(scope: ChatScope, roomId: string, input: SendMessageInput, headerKey: string | null): Promise<SendResult> {
      const { tenantId, config } = scope;
      const viewer = userOnly(scope.viewer);
      const text = input.text.trim();
      if (!text) throw badRequest('empty_message', texts.validation.requiredField);
      const annotation = Boolean(input.annotation ?? input.internal);
      if (input.editMessageId) return this.edit(scope, roomId, input.editMessageId, text);
      return insertOwn(tenantId, viewer, config, roomId, input.clientId ?? headerKey, annotation, async (room, trx) => {
        const target = await replyTarget(trx, tenantId, room, input.replyTo);
        const message = newMessage({ id: newId(), room, author: authorOf(viewer), type: 'text', text, now: clock.now().toISOString(), fromContact: false, annotation, extra: repliedOf(target) });
        return { message, replyTo: target };
      });
    },

    /**
     * A message another domain builds (a mail reply): the same room checks, idempotency on
     * `clientId` and delivery after commit as sendText. `build` runs inside the transaction.
     */
    async sendBuilt(scope: ChatScope, roomId: string, clientId: string | null, build: (room: Room, trx: Transaction, author: ReturnType<typeof authorOf>) => Promise<Message>): Promise<SendResult> {
      const { tenantId, config } = scope;
      const viewer = userOnly(scope.viewer);
      return insertOwn(tenantId, viewer, config, roomId, clientId, false, async (room, trx) => ({ message: await build(room, trx, authorOf(viewer)), replyTo: null }));
    },

    /** An uploaded file as image/video/audio/document (POST .../message/file). */
    async sendFile(scope: ChatScope, roomId: string, upload: StoredUpload, fields: { caption?: string; annotation?: boolean; clientId?: string; replyTo?: string }): Promise<SendResult> {
      const { tenantId, config } = scope;
      const viewer = userOnly(scope.viewer);
      const annotation = Boolean(fields.annotation);
      return insertOwn(tenantId, viewer, config, roomId, fields.clientId ?? null, annotation, async (room, trx) => {
        // Internal chats take text, images, videos and documents, never audio (seed 001 §5 "Files").
        if (room.internal && upload.kind === 'audio') throw badRequest('audio_not_allowed', texts.internalChat.audioNotAllowed);
        const target = await replyTarget(trx, tenantId, room, fields.replyTo);
        const message = newMessage({
          id: newId(), room, author: authorOf(viewer), type: upload.kind, now: clock.now().toISOString(), fromContact: false, annotation,
          extra: { ...repliedOf(target), caption: fields.caption?.trim() || null, ...mediaOf(upload, fields.caption?.trim() || null) },
        });
        return { message, replyTo: target };
      });
    },

    /**
     * A provider template (POST /api/rooms/:id/message/template): the one kind of message the
     * WhatsApp 24-hour window lets through.
     */
    async sendTemplate(scope: ChatScope, roomId: string, template: { name: string; language: string; components?: unknown[]; text?: string }, clientId: string | null): Promise<SendResult> {
      const { tenantId, config } = scope;
      const viewer = userOnly(scope.viewer);
      return insertOwn(tenantId, viewer, config, roomId, clientId, false, async (room) => {
        const message = newMessage({ id: newId(), room, author: authorOf(viewer), type: 'template', text: template.text ?? template.name, now: clock.now().toISOString(), fromContact: false, extra: { template } });
        return { message, replyTo: null };
      }, 'template');
    },

    /**
     * Buttons or a list (POST /api/rooms/:id/message/interactive, docs/whatsapp.md): stored in
     * `message.interactive` (Cloud API shape) with the body as text; a free-form message for the
     * 24-hour window.
     */
    async sendInteractive(scope: ChatScope, roomId: string, interactive: NonNullable<Message['interactive']>, clientId: string | null): Promise<SendResult> {
      const { tenantId, config } = scope;
      const viewer = userOnly(scope.viewer);
      const text = (interactive as { body?: { text?: string } }).body?.text ?? '';
      return insertOwn(tenantId, viewer, config, roomId, clientId, false, async (room) => {
        const message = newMessage({ id: newId(), room, author: authorOf(viewer), type: 'interactive', text, now: clock.now().toISOString(), fromContact: false, extra: { interactive } });
        return { message, replyTo: null };
      });
    },

    /** A fixed message: its text and file (POST .../message/fileUrl). */
    async sendFixed(scope: ChatScope, roomId: string, fixedMessageId: string, clientId: string | null): Promise<SendResult> {
      const { tenantId, config } = scope;
      const viewer = userOnly(scope.viewer);
      const fixed = await directory.fixedMessage(tenantId, fixedMessageId);
      const wide = viewer.admin || Boolean(config.claims?.enableWideFixedMessagesAccess);
      if (!fixed || !fixed.active || (!wide && fixed.uid !== null && fixed.uid !== viewer.id)) throw notFound();
      const fileOk = fixed.fileUrl && fixed.fileUrl.startsWith(`/api/files/${tenantId}/`);
      if (!fixed.message && !fileOk) throw badRequest('empty_message', texts.validation.requiredField);
      return insertOwn(tenantId, viewer, config, roomId, clientId, false, async (room) => {
        const now = clock.now().toISOString();
        if (fileOk) {
          const mimeType = fixed.mimeType ?? mimeOfUrl(fixed.fileUrl!);
          const kind: UploadKind = mimeType.startsWith('image/') ? 'image' : mimeType.startsWith('video/') ? 'video' : mimeType.startsWith('audio/') ? 'audio' : 'document';
          const upload: StoredUpload = { kind, url: fixed.fileUrl!, mimeType, size: 0, fileName: fixed.fileName ?? fixed.fileUrl!.split('/').pop()! };
          const message = newMessage({ id: newId(), room, author: authorOf(viewer), type: kind, now, fromContact: false, extra: { caption: fixed.message, ...mediaOf(upload, fixed.message) } });
          return { message, replyTo: null };
        }
        return { message: newMessage({ id: newId(), room, author: authorOf(viewer), type: 'text', text: fixed.message, now, fromContact: false }), replyTo: null };
      });
    },

    /** Replaces the text of one's own text message; earlier texts go to `versions`. */
    async edit(scope: ChatScope, roomId: string, messageId: string, text: string): Promise<SendResult> {
      const { tenantId, config } = scope;
      const viewer = userOnly(scope.viewer);
      const edited: { value: { room: Room; message: Message } | null } = { value: null };
      const message = await feed.transaction(tenantId, async (trx, record) => {
        const room = await roomToWrite(trx, tenantId, viewer, config, roomId, true);
        const current = await messages.findInRoom(trx, tenantId, room.id, messageId);
        if (!current) throw notFound();
        if (current.author.id !== viewer.id || current.type !== 'text') throw forbidden('edit_own_only', texts.chatServer.editOwnOnly);
        if (current.status?.deleted) throw conflict('message_deleted', texts.chat.messageDeleted);
        if (current.text === text) return current;
        const now = clock.now().toISOString();
        const next: Message = {
          ...current,
          text,
          versions: [...current.versions, { text: current.text, editedAt: now, editedBy: viewer.id }],
          lifeControl: { ...current.lifeControl, updatedAt: now },
        };
        await messages.save(trx, tenantId, next);
        record({ collection: 'messages', id: next.id, op: 'upsert' });
        if (room.lastMessage?.messageId === next.id) {
          await rooms.save(trx, tenantId, { ...room, lastMessage: { ...room.lastMessage, text: text.slice(0, 200) } }, room);
          record({ collection: 'rooms', id: room.id, op: 'upsert' });
        }
        edited.value = { room, message: next };
        return next;
      });
      if (edited.value) {
        const { room, message: m } = edited.value;
        const sender = deps.senderFor(room);
        if (sender && !sender.inProcess && !m.annotation) {
          void sender.edit({ tenantId, room, channel: null, message: m, replyTo: null }, text).catch((err) => logger.warn({ err, tenantId }, 'chat.edit_failed'));
        }
      }
      return { message, created: false };
    },

    /** Deletes one's own message ('Mensagem apagada'); the content is kept aside for seeDeletedMessages. */
    async remove(scope: ChatScope, roomId: string, messageId: string): Promise<Message> {
      const { tenantId, config } = scope;
      const viewer = userOnly(scope.viewer);
      if (viewer.claims.disableDeleteMessages || config.claims?.disableDeleteMessages) throw forbidden('delete_disabled', texts.chatServer.deleteDisabled);
      const removed: { value: { room: Room; message: Message } | null } = { value: null };
      const result = await feed.transaction(tenantId, async (trx, record) => {
        const room = await roomToWrite(trx, tenantId, viewer, config, roomId, true);
        const current = await messages.findInRoom(trx, tenantId, room.id, messageId);
        if (!current) throw notFound();
        if (current.author.id !== viewer.id) throw forbidden('delete_own_only', texts.chatServer.deleteOwnOnly);
        if (current.status?.deleted) return current;
        const now = clock.now().toISOString();
        const kept = { text: current.text, caption: current.caption, image: current.image, audio: current.audio, video: current.video, document: current.document };
        const next: Message = {
          ...current,
          text: null,
          caption: null,
          image: undefined,
          audio: undefined,
          video: undefined,
          document: undefined,
          status: { ...(current.status ?? {}), deleted: true },
          lifeControl: { ...current.lifeControl, updatedAt: now, deletedAt: now, deletedBy: viewer.id },
        };
        await messages.save(trx, tenantId, next, { deletedData: kept });
        record({ collection: 'messages', id: next.id, op: 'upsert' });
        if (room.lastMessage?.messageId === next.id) {
          await rooms.save(trx, tenantId, { ...room, lastMessage: { ...room.lastMessage, text: texts.chat.messageDeleted } }, room);
          record({ collection: 'rooms', id: room.id, op: 'upsert' });
        }
        removed.value = { room, message: current };
        return next;
      });
      if (removed.value) {
        const { room, message } = removed.value;
        const sender = deps.senderFor(room);
        if (sender && !sender.inProcess && !message.annotation) {
          void sender.remove({ tenantId, room, channel: null, message, replyTo: null }).catch((err) => logger.warn({ err, tenantId }, 'chat.delete_failed'));
        }
      }
      return result;
    },

    /** Sets (or, with an empty emoji, removes) the caller's reaction to a message. */
    async react(scope: ChatScope, roomId: string, ref: string, emoji: string): Promise<Message> {
      const { tenantId, config } = scope;
      const viewer = userOnly(scope.viewer);
      const changed: { value: { room: Room; message: Message } | null } = { value: null };
      const result = await feed.transaction(tenantId, async (trx, record) => {
        const room = await roomToWrite(trx, tenantId, viewer, config, roomId, false);
        const target = await messages.findInRoom(trx, tenantId, room.id, ref);
        if (!target || target.annotation) throw notFound();
        if (target.status?.deleted) throw conflict('message_deleted', texts.chat.messageDeleted);
        // Seed 001 §5: no reactions on meta for our own messages, nor on unmigrated dialog360.
        if (channelInfo(room.channel)?.reactions === 'contactOnly' && target.author.type !== 'client') throw badRequest('reaction_unavailable', texts.chatServer.reactionUnavailable);
        const now = clock.now().toISOString();
        const others = target.reactions.filter((r) => r.author.id !== viewer.id);
        const reactions = emoji ? [...others, { emoji, author: authorOf(viewer), at: now }] : others;
        const next: Message = { ...target, reactions, reaction: reactions[reactions.length - 1]?.emoji ?? null, lifeControl: { ...target.lifeControl, updatedAt: now } };
        await messages.save(trx, tenantId, next);
        record({ collection: 'messages', id: next.id, op: 'upsert' });
        changed.value = { room, message: target };
        return next;
      });
      if (changed.value) {
        const { room, message } = changed.value;
        const sender = deps.senderFor(room);
        if (sender && !sender.inProcess) void sender.react({ tenantId, room, channel: null, message, replyTo: null }, emoji).catch((err) => logger.warn({ err, tenantId }, 'chat.react_failed'));
      }
      return result;
    },

    /** Sends a failed message again (POST /api/rooms/resendMessage/:roomId/message/:messageId). */
    async resend(scope: ChatScope, roomId: string, messageId: string): Promise<Message> {
      const { tenantId, config } = scope;
      const viewer = userOnly(scope.viewer);
      const retry: { value: { room: Room; message: Message } | null } = { value: null };
      const result = await feed.transaction(tenantId, async (trx, record) => {
        const room = await roomToWrite(trx, tenantId, viewer, config, roomId, true);
        const message = await messages.findInRoom(trx, tenantId, room.id, messageId);
        if (!message) throw notFound();
        const s = message.status;
        const stuck = !s?.sent && !s?.delivered && !s?.read && Date.parse(message.lifeControl.createdAt) < clock.now().getTime() - 60_000;
        if (!s?.failed && !stuck) throw conflict('not_failed', texts.chatServer.resendNotFailed);
        const inProcess = deps.senderFor(room)?.inProcess === true;
        const now = clock.now().toISOString();
        const next: Message = { ...message, status: inProcess ? { sent: true, sentAt: now } : null, lifeControl: { ...message.lifeControl, updatedAt: now } };
        await messages.save(trx, tenantId, next);
        record({ collection: 'messages', id: next.id, op: 'upsert' });
        retry.value = { room, message: next };
        return next;
      });
      if (retry.value) {
        const { room, message } = retry.value;
        void deliver(tenantId, room, message, null).catch((err) => logger.error({ err }, 'chat.deliver_failed'));
      }
      return result;
    },

    /** A page of a room's messages, newest first (20 by default), older than `before`. */
    async page(scope: ChatScope, roomId: string, before: { at: string; id: string } | null, limitIn: unknown): Promise<{ data: Message[]; before: string | null }> {
      const { tenantId, viewer, config } = scope;
      const room = await rooms.findById(tenantId, roomId);
      if (!room || !canSee(viewer, config, room)) throw notFound();
      const limit = limitIn === undefined ? MESSAGES_PAGE_SIZE : Number(limitIn);
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_MESSAGES_LIMIT) throw badRequest('invalid_limit', texts.validation.invalidValue);
      const data = await messages.page(tenantId, messageFilter(viewer, roomId), limit, before);
      const last = data[data.length - 1];
      return { data, before: data.length === limit && last ? encodeCursor(last.lifeControl.createdAt, last.id) : null };
    },

    /** One message; holders of seeDeletedMessages also get a deleted message's content. */
    async getOne(scope: ChatScope, roomId: string, messageId: string): Promise<Message> {
      const { tenantId, viewer, config } = scope;
      const room = await rooms.findById(tenantId, roomId);
      if (!room || !canSee(viewer, config, room)) throw notFound();
      const [message] = await messages.page(tenantId, { and: [messageFilter(viewer, roomId), { field: 'id', op: '==', value: messageId }] }, 1, null);
      if (!message) throw notFound();
      if (message.status?.deleted && viewer.kind === 'user' && (viewer.admin || viewer.claims.seeDeletedMessages)) {
        return { ...message, deletedContent: (await messages.deletedContent(tenantId, message.id)) as Message['deletedContent'] };
      }
      return message;
    },

    /** Provider status webhooks: by (channel, external id), monotonic. */
    async applyStatusByExternalId(tenantId: string, channelId: string, externalId: string, state: DeliveryState, errors?: MessageError[]): Promise<Message | null> {
      return feed.transaction(tenantId, async (trx, record) => {
        const message = await messages.findByExternalId(trx, tenantId, channelId, externalId);
        if (!message) return null;
        return applyStatusIn(trx, record, tenantId, message, state, errors);
      });
    },
  };
}

function mediaOf(upload: StoredUpload, caption: string | null): Partial<Message> {
  switch (upload.kind) {
    case 'image':
      return { image: { imageUrl: upload.url, caption, mimeType: upload.mimeType, size: upload.size } };
    case 'video':
      return { video: { videoUrl: upload.url, mimeType: upload.mimeType, caption, fileName: upload.fileName, size: upload.size } };
    case 'audio':
      return { audio: { audioUrl: upload.url, mimeType: upload.mimeType, size: upload.size } };
    case 'document':
      return { document: { documentUrl: upload.url, mimeType: upload.mimeType, fileName: upload.fileName, size: upload.size } };
  }
}

function mimeOfUrl(url: string): string {
  const ext = url.split('.').pop()?.toLowerCase();
  const map: Record<string, string> = { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', gif: 'image/gif', pdf: 'application/pdf', mp4: 'video/mp4', mp3: 'audio/mpeg', ogg: 'audio/ogg' };
  return map[ext ?? ''] ?? 'application/octet-stream';
}

export type MessageService = ReturnType<typeof createMessageService>;
