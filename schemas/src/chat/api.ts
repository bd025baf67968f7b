import type { Filter } from '../query';
import type { ChatTabId, RoomTabId } from './tabs';
import type { Message, UploadKind } from './message';
import type { Room } from './room';

/**
 * Payloads and answers of the chat calls (seed 001 §7, docs/chat.md has every path). Answers
 * are `{ meta?, data }`; errors are `{ error, errorMessage }` with a pt-BR message.
 * The JSON Schemas below are what the server validates each body with (ajv).
 */

/** Upload limits of seed 001 §5 in bytes, by upload kind. */
export const UPLOAD_LIMITS: Readonly<Record<UploadKind, number>> = {
  image: 5 * 1024 * 1024,
  video: 16 * 1024 * 1024,
  audio: 16 * 1024 * 1024,
  document: 100 * 1024 * 1024,
};
/** Composer limit (seed 001 §5). */
export const MESSAGE_MAX_LENGTH = 4000;
/** Minimum search length (seed 001 §5). */
export const SEARCH_MIN_LENGTH = 3;

/** Answer of the calls that create or change one message. */
export interface MessageAnswer {
  meta: { ok: true; created: boolean };
  data: Message;
}

/** Answer of the calls that change one room. */
export interface RoomAnswer {
  meta: { ok: true };
  data: Room;
}

/** POST /api/rooms: start a chat with a contact (new-contact form or the contact drawer). */
export interface CreateRoomInput {
  /** An existing contact... */
  contactId?: string;
  /** ...or a new one (Nome, Telefone; '+55' prefix with fixedDDI). */
  contact?: { displayName: string; phone?: string; email?: string };
  /** Channel to talk on; default the first active WhatsApp-type channel. */
  channelId?: string;
  /** Queue department; default the channel's. */
  departmentId?: string;
}
export interface CreateRoomAnswer {
  meta: { ok: true; created: boolean };
  data: Room;
}

/**
 * POST /api/rooms/:id/message. A retried POST with the same `clientId` (or header
 * `Idempotency-Key`) answers the first message (meta.created false) and creates nothing.
 */
export interface SendMessageInput {
  text: string;
  /** Internal note ('Anotação Interna (não visível ao contato)'). `internal` is accepted as alias. */
  annotation?: boolean;
  internal?: boolean;
  /** Id or messageExtId of the message being answered. */
  replyTo?: string | null;
  /** Id of the own message being edited ('Editar mensagem'): its text is replaced. */
  editMessageId?: string | null;
  /** Idempotency key chosen by the client (uuid). */
  clientId?: string;
}

/**
 * POST /api/rooms/:id/message/file, multipart/form-data. Send `type` as a query parameter too
 * (`?type=image`) so an oversized upload is refused with 413 before its body is read.
 * Fields: type, caption, annotation ('true'), clientId, replyTo; then one part `file`.
 */
export interface SendFileFields {
  type: UploadKind;
  caption?: string;
  annotation?: 'true' | 'false';
  clientId?: string;
  replyTo?: string;
}

/** POST /api/rooms/:id/message/fileUrl: sends a fixed message (its text and file). */
export interface SendFixedMessageInput {
  fixedMessageId: string;
  clientId?: string;
}

/**
 * POST /api/zApi/deleteMessage (seed 001 §7 path, any channel): deletes one's own message
 * ('Mensagem apagada'); answers the message with status.deleted like the other message calls.
 */
export interface DeleteMessageInput {
  roomId: string;
  /** Our message id (seed "messageIntId"). */
  messageIntId: string;
  /** Provider id, when the message reached the provider (informative). */
  messageId?: string | null;
  channelId?: string | null;
  phone?: string | null;
  owner?: unknown;
  author?: unknown;
}

/** POST /api/rooms/:id/message/:extId/sendReaction; an empty reaction removes one's own. */
export interface SendReactionInput {
  reaction: string;
}

/** PATCH /api/rooms/:id: the fields the console may change. */
export interface PatchRoomInput {
  tags?: string[];
  onHold?: { active: boolean; message?: string | null };
  /** Mark read (false) / unread (true). Reading also marks the contact's messages read. */
  lastMessage?: { unread: boolean };
  annotated?: boolean;
  replyTo?: string | null;
  /** Seed: 'activeChat true after sending when the chat had an active message'. */
  activeChat?: boolean;
}

/** PATCH /api/rooms/:id/push and /pull. Without agents: the caller enters / leaves. */
export interface PushPullInput {
  /** Agent ids; others than oneself need admin or supervisor of the room's department. */
  agents?: string[];
}

/** PATCH /api/rooms/:id/close and /closeNoMessage. */
export interface CloseRoomInput {
  closedBy?: { justify?: string | null; obs?: string | null };
  /** Next-contact date DD/MM/YYYY, only with tenant claim hasNextContact. */
  nextContact?: string | null;
  tags?: string[];
}

/** POST /api/rooms/massClose: closes the given rooms with the note 'Encerramento em massa'. */
export interface MassCloseInput {
  chatIds: string[];
  closedBy?: { justify?: string | null };
}
export interface MassCloseAnswer {
  /** message is 'Chats Encerrados' (toast it). */
  meta: { ok: true; message: string; closed: number };
  /** Closed room ids, and the ones left as they were with the reason's pt-BR text. */
  data: { closed: string[]; skipped: { id: string; errorMessage: string }[] };
}

/** POST /api/mongodb/search (seed 001 §5 search rules). */
export interface RoomSearchInput {
  /** Tab to search in (default: every room the caller may see). */
  tab?: RoomTabId;
  /** ≥ 3 letters ('Favor informar pelo menos 3 letras'); + / ( ) are stripped. */
  text?: string;
  tags?: string[];
  channels?: string[];
  agents?: string[];
  departments?: string[];
  /** [min, max] (0..10); the full range is not a filter. */
  nps?: [number, number];
  /** [from, to] ISO dates or YYYY-MM-DD, on the room's creation. */
  dates?: [string, string];
  myContacts?: boolean;
}
export interface RoomSearchAnswer {
  meta: { count: number; collection: 'rooms'; busca: string; last: string | null };
  /** Room ids, newest first, at most 100. */
  data: string[];
  /** The same rooms, so the list can show them without another call. */
  rooms: Room[];
}

/** GET /api/rooms?tab=&limit=&order=&after=&filter= (JSON): a page of a tab. */
export interface RoomsPageAnswer {
  meta: { tab: RoomTabId; next: string | null };
  data: Room[];
}

/** GET /api/rooms/:id/messages?before=&limit=: newest first; `meta.before` is the next older page. */
export interface MessagesPageAnswer {
  meta: { before: string | null };
  data: Message[];
}

/** Counts of one tab. */
export interface TabCount {
  /** Rooms in the tab (green badge). */
  total: number;
  /** Rooms with lastMessage.unread (red badge). */
  unread: number;
}

/**
 * GET /api/counter (polled every 5 s): per-tab totals and unread rooms for the caller, only the
 * tabs the caller has. allQueuesChats also counts by queue for the queue chips.
 */
export interface CounterAnswer {
  data: {
    tabs: Partial<Record<Exclude<ChatTabId, 'contacts'>, TabCount>>;
    queues: Record<string, number>;
    at: string;
  };
}

/** GET /api/read (polled every 5 s): what the browser title and favicon need. */
export interface ReadAnswer {
  data: {
    /** Own chats with unread messages: 'ChatBot UF (n)'. */
    unreadChats: number;
    /** Unread contact messages over own chats. */
    unreadMessages: number;
    /** Own chats (favicon badge). */
    chats: number;
    at: string;
  };
}

/** Web chat: POST /api/webchat/:channelId/session. */
export interface WebchatSessionInput {
  /** Secret the widget keeps in localStorage; resumes the visitor's open conversation. */
  visitorKey?: string;
  /** Starting a conversation: the first message and who writes it. */
  text?: string;
  displayName?: string;
  email?: string;
  clientId?: string;
}
export interface WebchatSessionAnswer {
  data: {
    visitorKey: string;
    /** Null until a conversation exists: show the start form. */
    roomId: string | null;
    /** Anonymous token for /ws and GET calls, limited to roomId (expires: call session again). */
    accessToken: string | null;
    expiresIn: number;
    channel: { id: string; displayName: string; title: string; welcome: string; color: string };
  };
}

/** Web chat: POST /api/webchat/rooms/:roomId/receipts (header X-Visitor-Key). */
export interface WebchatReceiptsInput {
  delivered?: string[];
  read?: string[];
}

/** Query string of GET /api/rooms (the filter is JSON). */
export interface RoomsPageQuery {
  tab: RoomTabId;
  limit?: number;
  order?: 'asc' | 'desc';
  after?: string;
  filter?: Filter;
}

const idList = (max: number) => ({ type: 'array', maxItems: max, items: { type: 'string', minLength: 1, maxLength: 200 } }) as const;

/** JSON Schemas of the bodies above (validated on the server; usable by forms). */
export const chatSchemas = {
  createRoom: {
    type: 'object',
    additionalProperties: false,
    properties: {
      contactId: { type: 'string', minLength: 1, maxLength: 64 },
      contact: {
        type: 'object',
        additionalProperties: false,
        required: ['displayName'],
        properties: {
          displayName: { type: 'string', minLength: 1, maxLength: 200 },
          phone: { type: 'string', maxLength: 40 },
          email: { type: 'string', maxLength: 320 },
        },
      },
      channelId: { type: 'string', minLength: 1, maxLength: 64 },
      departmentId: { type: 'string', minLength: 1, maxLength: 64 },
    },
  },
  sendMessage: {
    type: 'object',
    additionalProperties: false,
    required: ['text'],
    properties: {
      text: { type: 'string', minLength: 1, maxLength: MESSAGE_MAX_LENGTH },
      annotation: { type: 'boolean' },
      internal: { type: 'boolean' },
      replyTo: { type: ['string', 'null'], maxLength: 200 },
      editMessageId: { type: ['string', 'null'], maxLength: 64 },
      clientId: { type: 'string', minLength: 1, maxLength: 100 },
    },
  },
  sendFixedMessage: {
    type: 'object',
    additionalProperties: false,
    required: ['fixedMessageId'],
    properties: {
      fixedMessageId: { type: 'string', minLength: 1, maxLength: 64 },
      clientId: { type: 'string', minLength: 1, maxLength: 100 },
    },
  },
  deleteMessage: {
    type: 'object',
    required: ['roomId', 'messageIntId'],
    properties: {
      roomId: { type: 'string', minLength: 1, maxLength: 64 },
      messageIntId: { type: 'string', minLength: 1, maxLength: 64 },
      messageId: { type: ['string', 'null'], maxLength: 200 },
      channelId: { type: ['string', 'null'], maxLength: 64 },
      phone: { type: ['string', 'null'], maxLength: 40 },
    },
  },
  sendReaction: {
    type: 'object',
    additionalProperties: false,
    required: ['reaction'],
    properties: { reaction: { type: 'string', maxLength: 32 }, message: {} },
  },
  patchRoom: {
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    properties: {
      tags: idList(50),
      tagsNames: { type: 'array' },
      onHold: {
        type: 'object',
        additionalProperties: false,
        required: ['active'],
        properties: { active: { type: 'boolean' }, message: { type: ['string', 'null'], maxLength: MESSAGE_MAX_LENGTH } },
      },
      lastMessage: {
        type: 'object',
        required: ['unread'],
        properties: { unread: { type: 'boolean' } },
      },
      annotated: { type: 'boolean' },
      replyTo: { type: ['string', 'null'], maxLength: 200 },
      activeChat: { type: 'boolean' },
    },
  },
  pushPull: {
    type: 'object',
    properties: { agents: { type: 'array', maxItems: 50, items: { anyOf: [{ type: 'string', minLength: 1, maxLength: 64 }, { type: 'object', required: ['id'], properties: { id: { type: 'string', minLength: 1, maxLength: 64 } } }] } } },
  },
  closeRoom: {
    type: 'object',
    properties: {
      closedBy: {
        type: 'object',
        properties: { justify: { type: ['string', 'null'], maxLength: 200 }, obs: { type: ['string', 'null'], maxLength: 2000 } },
      },
      nextContact: { type: ['string', 'null'], maxLength: 10 },
      tags: idList(50),
    },
  },
  massClose: {
    type: 'object',
    required: ['chatIds'],
    properties: {
      chatIds: { type: 'array', minItems: 1, maxItems: 100, items: { type: 'string', minLength: 1, maxLength: 64 } },
      closedBy: { type: 'object', properties: { justify: { type: ['string', 'null'], maxLength: 200 } } },
    },
  },
  search: {
    type: 'object',
    additionalProperties: false,
    properties: {
      tab: { type: 'string' },
      text: { type: 'string', maxLength: 200 },
      tags: idList(50),
      channels: idList(50),
      agents: idList(100),
      departments: idList(50),
      nps: { type: 'array', minItems: 2, maxItems: 2, items: { type: 'number', minimum: 0, maximum: 10 } },
      dates: { type: 'array', minItems: 2, maxItems: 2, items: { type: 'string', maxLength: 40 } },
      myContacts: { type: 'boolean' },
    },
  },
  webchatSession: {
    type: 'object',
    additionalProperties: false,
    properties: {
      visitorKey: { type: 'string', minLength: 20, maxLength: 100 },
      text: { type: 'string', minLength: 1, maxLength: MESSAGE_MAX_LENGTH },
      displayName: { type: 'string', maxLength: 200 },
      email: { type: 'string', maxLength: 320 },
      clientId: { type: 'string', minLength: 1, maxLength: 100 },
    },
  },
  webchatMessage: {
    type: 'object',
    additionalProperties: false,
    required: ['text'],
    properties: {
      text: { type: 'string', minLength: 1, maxLength: MESSAGE_MAX_LENGTH },
      clientId: { type: 'string', minLength: 1, maxLength: 100 },
    },
  },
  webchatReceipts: {
    type: 'object',
    additionalProperties: false,
    properties: { delivered: idList(200), read: idList(200) },
  },
} as const;
