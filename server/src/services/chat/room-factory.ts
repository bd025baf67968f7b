import type { Channel, LastMessage, Message, MessageApi, MessageAuthor, Room, RoomAuthor, RoomQueue } from '@atendimento/schemas';
import { departmentQueueId, emptyMessage, emptyRoomState, isWebchat, messages as texts } from '@atendimento/schemas';

/**
 * Pure builders: a new room and message in the seed's shape, and what a message does to its
 * room (last message, unread state, counters). Services call these inside their transaction.
 */

/** Last-message labels of seed 001 §9 for media and structured types. */
const PREVIEW_LABELS: Partial<Record<Message['type'], string>> = texts.lastMessageLabels;

/** The api name of a channel in `from`/`to` (seed 001 §3). */
function apiOfChannel(channel: Room['channel']): MessageApi {
  if (isWebchat(channel)) return 'widget';
  if (channel === 'whatsapp') return 'meta';
  if (channel === 'mail') return 'vueJs';
  return channel as MessageApi;
}

export function queueOfDepartment(departmentId: string, name: string): RoomQueue {
  return { id: departmentQueueId(departmentId), name, displayName: name, parent: null };
}

export function newRoom(input: {
  id: string;
  roomInc: number;
  channel: Channel;
  author: RoomAuthor;
  chatId: string;
  department: { id: string; name: string } | null;
  publicToken: string;
  now: string;
}): Room {
  const queue = input.department ? [queueOfDepartment(input.department.id, input.department.name)] : [];
  return {
    ...emptyRoomState(),
    id: input.id,
    roomInc: input.roomInc,
    chatId: input.chatId,
    channel: input.channel.type,
    channelId: input.channel.id,
    channelIdTextit: null,
    origin: input.channel.type,
    destination: 'vueJs',
    departmentId: input.department?.id ?? null,
    author: input.author,
    internal: false,
    active: true,
    inAttend: false,
    queues: queue,
    queuesHistory: [...queue],
    lastMessageAt: input.now,
    unreadCount: 0,
    lifeControl: { createdAt: input.now, updatedAt: input.now, deletedAt: null },
    publicToken: input.publicToken,
  };
}

export function newMessage(input: {
  id: string;
  room: Room;
  author: MessageAuthor;
  type: Message['type'];
  now: string;
  fromContact: boolean;
  text?: string | null;
  externalId?: string | null;
  annotation?: boolean;
  extra?: Partial<Message>;
}): Message {
  const api = apiOfChannel(input.room.channel);
  const fromSystem = input.author.type === 'system' || input.author.type === 'bot' || input.author.type === 'cron';
  const message = emptyMessage({
    id: input.id,
    roomId: input.room.id,
    from: input.fromContact ? api : fromSystem ? (input.author.type as MessageApi) : 'vueJs',
    to: input.fromContact ? 'vueJs' : api,
    channel: input.room.channel,
    channelId: (Array.isArray(input.room.channelId) ? input.room.channelId[0] : input.room.channelId) ?? null,
    type: input.type,
    author: input.author,
    internal: input.room.internal,
    createdAt: input.now,
  });
  return {
    ...message,
    messageExtId: input.externalId ?? null,
    text: input.text ?? null,
    annotation: input.annotation ?? false,
    lifeControl: { createdAt: input.now, updatedAt: input.now, deletedAt: null },
    ...input.extra,
  };
}

/** The card preview of a message: its text, else its caption, else the type's label. */
function previewOf(message: Message): string {
  if (message.status?.deleted) return '';
  const text = message.text ?? message.caption ?? message.image?.caption ?? message.video?.caption ?? null;
  if (text) return text.slice(0, 200);
  if (message.document?.fileName) return `${PREVIEW_LABELS.document}: ${message.document.fileName}`.slice(0, 200);
  return PREVIEW_LABELS[message.type] ?? message.type;
}

export function lastMessageOf(message: Message, unread: boolean): LastMessage {
  return {
    text: previewOf(message),
    unread,
    author: { type: message.author.type, id: message.author.id, displayName: message.author.displayName },
    lifeControl: { createdAt: message.lifeControl.createdAt },
    messageId: message.id,
    type: message.type,
    status: message.status ? { sent: message.status.sent, delivered: message.status.delivered, read: message.status.read, failed: message.status.failed } : null,
  };
}

/**
 * What a new message does to its room: internal notes change nothing visible; a contact
 * message makes the room unread and counts; anything else from our side clears unread.
 */
export function applyMessage(room: Room, message: Message, now: string): Room {
  const next: Room = { ...room, lifeControl: { ...room.lifeControl, updatedAt: now } };
  if (message.annotation) return next;
  const fromContact = message.author.type === 'client';
  // In an internal chat every message is news to the other members (seed 001 §4 "Unread": the
  // console ignores it for the agent who wrote it).
  const unread = fromContact || (room.internal && message.author.type === 'agent');
  const unreadCount = unread ? room.unreadCount + 1 : 0;
  next.lastMessage = lastMessageOf(message, unread);
  next.lastMessageAt = message.lifeControl.createdAt > room.lastMessageAt ? message.lifeControl.createdAt : room.lastMessageAt;
  next.unreadCount = unreadCount;
  const ref = { createdAt: message.lifeControl.createdAt, messageId: message.id };
  next.lastMessages = fromContact ? { ...room.lastMessages, contactMessage: ref } : message.author.type === 'agent' ? { ...room.lastMessages, agentMessage: ref } : room.lastMessages;
  next.messagesCount = {
    agentMessage: room.messagesCount.agentMessage + (message.author.type === 'agent' ? 1 : 0),
    contactMessage: room.messagesCount.contactMessage + (fromContact ? 1 : 0),
  };
  // Seed 001 §4 "On hold": any message the agent sends turns on-hold off.
  if (message.author.type === 'agent' && room.onHold.active) next.onHold = { active: false, message: null };
  if (room.replyTo) next.replyTo = null;
  return next;
}
