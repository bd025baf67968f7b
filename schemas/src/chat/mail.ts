import { MESSAGE_MAX_LENGTH } from './api';

/**
 * The e-mail channel (docs/email.md) and internal chats: settings of a mailbox, the mail part
 * of a message, and the bodies of the mail and internal-chat calls with their JSON Schemas.
 */

/**
 * A mailbox's settings, kept in the mail channel row's `data.provider` (admin only; the
 * passwords are write-only and never reach a browser).
 */
export interface MailboxSettings {
  imap: {
    host: string;
    port: number;
    /** Implicit TLS (993); false: plain, upgraded with STARTTLS when the server offers it. */
    secure: boolean;
    user: string;
    password: string;
    /** Folder read for new mail (default INBOX). */
    mailbox?: string;
    /** Folder our replies are appended to (default Sent; created when missing). */
    sentMailbox?: string;
  };
  smtp: {
    host: string;
    port: number;
    secure: boolean;
    user?: string;
    password?: string;
  };
  /** The address customers write to and replies come from. */
  fromAddress: string;
  fromName?: string;
  /** Safety poll besides IDLE (seconds, default 60); the only way in without IDLE. */
  pollSeconds?: number;
}

export interface MailAddress {
  name: string;
  address: string;
}

/**
 * Why an inbound mail must never be answered automatically: an auto-reply (Auto-Submitted,
 * X-Autoreply, Precedence auto_reply/bulk) or a bounce (delivery status notification).
 */
export type MailAutoKind = 'auto-reply' | 'bounce';

/** The mail part of a message of a mail channel (inbound and outbound alike). */
export interface MailContent {
  /** RFC 5322 Message-ID without angle brackets (inbound without one: 'hash:' + content hash). */
  messageId: string;
  inReplyTo: string | null;
  /** The References chain, oldest first, without angle brackets. */
  references: string[];
  subject: string;
  from: MailAddress | null;
  to: MailAddress[];
  cc: MailAddress[];
  /** Sanitised HTML to show in the message box (no script, no remote loads, no escaping CSS); null: text only. */
  html: string | null;
  /** Remote images were blocked in `html`; the agent may load them with one click (`remoteHtml`). */
  remoteImages: boolean;
  /** The same sanitised HTML with remote images allowed (present only when remoteImages). */
  remoteHtml?: string | null;
  date: string | null;
  auto: MailAutoKind | null;
  /** Attachments left out for exceeding the chat upload limits (name and size in bytes). */
  skippedAttachments?: { fileName: string; size: number }[];
  /** Outbound: the SMTP server's answer (queued id) once sent. */
  smtpResponse?: string | null;
}

/**
 * POST /api/mail/:roomId/:messageId (seed 001 §7): a reply to message `messageId` of a mail
 * thread. `message` is the editor's HTML (sanitised again on the server); an empty reply is
 * refused. `clientId` (or header Idempotency-Key) makes a retried reply send once.
 */
export interface MailReplyInput {
  message: string;
  /** Extra recipients besides the thread's customer; strings or lists of addresses. */
  mailTo?: string | string[];
  to?: string | string[];
  cc?: string | string[];
  subject?: string;
  channelId?: string;
  /** The message being answered, as the console holds it (informative; the server reads its own copy). */
  oMsg?: unknown;
  clientId?: string;
}

/** One attachment of POST /api/mail/:roomId/:messageId/file (seed: fileName, base64, mimeType). */
export interface MailAttachmentInput {
  fileName: string;
  base64: string;
  mimeType?: string;
}

/** POST /api/mail/:roomId/:messageId/file: the reply of MailReplyInput with its attachments. */
export interface MailReplyFileInput extends MailReplyInput {
  attachments: MailAttachmentInput[];
}

/** POST /api/internalChats: starts (or reopens) an internal chat with these agents. */
export interface CreateInternalChatInput {
  /** Other agents (the caller is always a member); at least one ('Escolha agentes para conversar!'). */
  agents: string[];
  /** Group name, only read when more than one agent is chosen. */
  internalChatName?: string | null;
}

/** PATCH /api/internalChats/:id/agents: adds agents to an internal group. */
export interface InternalAgentsInput {
  agents: string[];
}

/** Internal chat ids join the member ids with an underscore (seed 001 §5), sorted so both sides meet. */
export function internalChatId(memberIds: string[]): string {
  return [...new Set(memberIds)].sort().join('_');
}

const addressList = { anyOf: [{ type: 'string', maxLength: 2000 }, { type: 'array', maxItems: 50, items: { type: 'string', maxLength: 320 } }] } as const;
const replyProperties = {
  message: { type: 'string', maxLength: 512 * 1024 },
  mailTo: addressList,
  to: addressList,
  cc: addressList,
  subject: { type: 'string', maxLength: 998 },
  channelId: { type: 'string', maxLength: 64 },
  oMsg: {},
  clientId: { type: 'string', minLength: 1, maxLength: 100 },
} as const;

/** JSON Schemas of the bodies above (validated on the server). */
export const mailSchemas = {
  reply: {
    type: 'object',
    additionalProperties: false,
    required: ['message'],
    properties: replyProperties,
  },
  replyFile: {
    type: 'object',
    additionalProperties: false,
    required: ['message', 'attachments'],
    properties: {
      ...replyProperties,
      attachments: {
        type: 'array',
        minItems: 1,
        maxItems: 20,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['fileName', 'base64'],
          properties: {
            fileName: { type: 'string', minLength: 1, maxLength: 200 },
            base64: { type: 'string', minLength: 1 },
            mimeType: { type: 'string', maxLength: 200 },
          },
        },
      },
    },
  },
  createInternalChat: {
    type: 'object',
    additionalProperties: false,
    required: ['agents'],
    properties: {
      agents: { type: 'array', maxItems: 50, items: { type: 'string', minLength: 1, maxLength: 64 } },
      internalChatName: { type: ['string', 'null'], maxLength: 200 },
    },
  },
  internalAgents: {
    type: 'object',
    additionalProperties: false,
    required: ['agents'],
    properties: { agents: { type: 'array', minItems: 1, maxItems: 50, items: { type: 'string', minLength: 1, maxLength: 64 } } },
  },
} as const;

/** Longest plain-text preview kept in a mail message's `text`. */
export const MAIL_TEXT_MAX = MESSAGE_MAX_LENGTH * 16;
