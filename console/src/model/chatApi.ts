/**
 * Paths of the chat calls the console makes (seed 001 §7, contract in schemas/src/chat/api.ts).
 * One place, so a path the server renames changes here only.
 *
 * Contract addition (not yet in schemas/src/chat/api.ts): deleting an own message uses the
 * seed's POST /zApi/deleteMessage under /api with `DeleteMessageInput`; the server answers the
 * deleted message (status.deleted true) like the other message calls.
 */
const enc = encodeURIComponent;

export const chatPaths = {
  message: (roomId: string) => `/api/rooms/${enc(roomId)}/message`,
  messageFile: (roomId: string, type: string) => `/api/rooms/${enc(roomId)}/message/file?type=${enc(type)}`,
  messageFileUrl: (roomId: string) => `/api/rooms/${enc(roomId)}/message/fileUrl`,
  reaction: (roomId: string, extId: string) => `/api/rooms/${enc(roomId)}/message/${enc(extId)}/sendReaction`,
  resend: (roomId: string, messageId: string) => `/api/rooms/resendMessage/${enc(roomId)}/message/${enc(messageId)}`,
  reloadMessage: (roomId: string) => `/api/rooms/${enc(roomId)}/reloadMessage`,
  deleteMessage: () => '/api/zApi/deleteMessage',
  messages: (roomId: string, params: URLSearchParams) => `/api/rooms/${enc(roomId)}/messages?${params}`,
  room: (roomId: string) => `/api/rooms/${enc(roomId)}`,
  push: (roomId: string) => `/api/rooms/${enc(roomId)}/push`,
  pull: (roomId: string) => `/api/rooms/${enc(roomId)}/pull`,
  close: (roomId: string) => `/api/rooms/${enc(roomId)}/close`,
  closeNoMessage: (roomId: string) => `/api/rooms/${enc(roomId)}/closeNoMessage`,
  askResearch: (roomId: string) => `/api/rooms/${enc(roomId)}/askresearch`,
  transferTargets: (roomId: string) => `/api/rooms/${enc(roomId)}/transferTargets`,
  restart: (roomId: string) => `/api/rooms/${enc(roomId)}/restart`,
  publicLink: (roomId: string) => `/api/rooms/${enc(roomId)}/publicLink`,
  transfer: (roomId: string) => `/api/rooms/${enc(roomId)}/transfer`,
  moveQueues: (roomId: string) => `/api/rooms/${enc(roomId)}/queues`,
  rooms: (params: URLSearchParams) => `/api/rooms?${params}`,
  contact: (contactId: string) => `/api/contacts/${enc(contactId)}`,
  roomContact: (roomId: string) => `/api/rooms/${enc(roomId)}/contact`,
  roomQuotes: (roomId: string) => `/api/rooms/${enc(roomId)}/quotes`,
  fixedMessages: () => `/api/fixedMessages?${new URLSearchParams({ filter: JSON.stringify({ active: true }), range: '[0,199]' })}`,
  anonymous: () => '/api/auth/anonymous',
  mailReply: (roomId: string, messageId: string) => `/api/mail/${enc(roomId)}/${enc(messageId)}`,
  mailReplyFile: (roomId: string, messageId: string) => `/api/mail/${enc(roomId)}/${enc(messageId)}/file`,
  internalChats: () => '/api/internalChats',
  internalAgents: (roomId: string) => `/api/internalChats/${enc(roomId)}/agents`,
  internalLeave: (roomId: string) => `/api/internalChats/${enc(roomId)}/leave`,
} as const;

/** Body of POST /api/zApi/deleteMessage (seed 001 §7 names these fields). */
export interface DeleteMessageInput {
  roomId: string;
  /** Our message id (seed "messageIntId"). */
  messageIntId: string;
  /** Provider id, when the message reached the provider. */
  messageId: string | null;
  channelId: string | null;
  phone: string | null;
}

/** A fixed message as GET /api/fixedMessages lists it (register fixedMessages). */
export interface FixedMessage {
  id: string;
  message: string;
  tag?: string | null;
  fileUrl?: string | null;
  fileName?: string | null;
  uid?: string | null;
  active?: boolean;
}

/** A fresh idempotency key for one send (retries of that send reuse it). */
export function newIdempotencyKey(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `k-${Date.now()}-${Math.random().toString(36).slice(2)}`;
}
