import type { ChannelType } from './channel';
import type { MailContent } from './mail';

/**
 * The chat message in the shape seed 001 §3 "Message" names. The server stores it as JSON
 * beside indexed columns (room, author, type, status, external id, creation date) and answers
 * this shape everywhere: REST, live subscriptions and the visitor widget.
 */

/**
 * Every message type of seed 001 §3, then the provider kinds it renders without naming a type
 * (an order; a notice from WhatsApp itself; content WhatsApp could not deliver to us); renderers
 * switch on it.
 */
export const MESSAGE_TYPES = [
  'text', 'image', 'document', 'audio', 'video', 'location', 'contact', 'contacts', 'card', 'sticker', 'template',
  'request', 'webhook', 'interactive', 'attachment', 'catalog_message', 'call', 'endInteraction', 'toChat',
  'order', 'system', 'unsupported',
] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

/** Media types an agent or a visitor can upload (POST .../message/file `type`). */
export type UploadKind = 'image' | 'video' | 'audio' | 'document';

/**
 * Api names in `from`/`to` (seed 001 §3): a channel type of the channel table (its provider,
 * 'widget' for the web-chat visitor), 'vueJs' for this console, and the senders that are not
 * channels (the bot, 'wati' of imported history, system and cron).
 */
export type MessageApi = ChannelType | 'vueJs' | 'textit' | 'wati' | 'bot' | 'system' | 'cron';

export type MessageAuthorType = 'client' | 'bot' | 'cron' | 'agent' | 'system' | 'webhook';

export interface MessageAuthor {
  id: string;
  displayName: string;
  type: MessageAuthorType;
  phone?: string | null;
  email?: string | null;
  photoUrl?: string | null;
}

export interface MessageError {
  title: string;
  titleptBR?: string;
  code?: string | number;
  /** The provider's explanation (Cloud API `error_data.details`). */
  details?: string;
}

/**
 * Delivery state as flags (seed 001 §4 "Message delivery indicator"): waiting (no flag) →
 * sent → delivered → read. Flags only ever turn on (monotonic); `failed` comes from a
 * provider; 'failed after 60 s without status' is computed by the UI from lifeControl.createdAt.
 */
export interface MessageStatus {
  sent?: boolean;
  delivered?: boolean;
  read?: boolean;
  failed?: boolean;
  deleted?: boolean;
  sentAt?: string;
  deliveredAt?: string;
  readAt?: string;
  errors?: MessageError[];
}

/** The highest status a message reached, as stored in the indexed `status` column. */
export type DeliveryState = 'sent' | 'delivered' | 'read' | 'failed' | 'deleted';

export interface MessageReaction {
  emoji: string;
  author: { id: string; displayName: string; type: MessageAuthorType };
  at: string;
}

/** A previous text of an edited message (seed "versions (edited marker)"). */
export interface MessageVersion {
  text: string | null;
  caption?: string | null;
  editedAt: string;
  editedBy: string;
}

/** Preview of the message this one answers (quote shown above the text). */
export interface MessageReplied {
  id: string;
  messageExtId: string | null;
  type: MessageType;
  text: string | null;
  author: Pick<MessageAuthor, 'id' | 'displayName' | 'type'>;
}

export interface ContactCard {
  name: { formatted_name: string; first_name?: string; last_name?: string };
  nickname?: string;
  phones?: { phone: string; type?: string; wa_id?: string }[];
  emails?: { email: string; type?: string }[];
  urls?: { url: string; type?: string }[];
  addresses?: Record<string, unknown>[];
  org?: { company?: string; department?: string; title?: string };
}

export interface MessageInteractive {
  type: 'button' | 'list' | 'flow' | 'catalog_message' | 'list_reply' | 'button_reply' | 'nfm_reply' | string;
  body?: { text: string } | null;
  footer?: { text: string } | null;
  header?: Record<string, unknown> | null;
  action?: Record<string, unknown> | null;
  button_reply?: { id: string; title: string };
  list_reply?: { id: string; title: string; description?: string };
  /** A WhatsApp Flow's answers: `response_json` is the form's fields as a JSON string. */
  nfm_reply?: { name?: string; body?: string; response_json?: string };
}

/** A notice from WhatsApp about the customer (Cloud API `system`). */
export interface MessageSystemNotice {
  /** 'user_changed_number', 'user_changed_user_id', 'customer_identity_changed', or another. */
  type: string;
  /** WhatsApp's own (English) text. */
  body?: string;
  previousPhone?: string;
  newPhone?: string;
  previousUserId?: string;
  newUserId?: string;
}

export interface Message {
  id: string;
  /** Room the message belongs to. */
  roomId: string;
  /** Provider id (WhatsApp wamid, web-chat client id); unique per (tenant, channel). */
  messageExtId: string | null;
  /** Same as id for messages created here (the seed reads both). */
  messageId: string;
  /** messageExtId (or id) of the message this one answers. */
  replyTo: string | null;
  replied: MessageReplied | null;
  from: MessageApi;
  to: MessageApi;
  channel: ChannelType;
  channelId: string | null;
  type: MessageType;
  text: string | null;
  author: MessageAuthor;
  /** Internal note: never shown to (or sent to) the contact. */
  annotation: boolean;
  hide: boolean;
  /** Message of an internal (agent-to-agent) chat. */
  internal: boolean;
  caption: string | null;
  /** When this message is an edit: the id of the message it replaced (seed "editMessageId"). */
  editMessageId: string | null;
  status: MessageStatus | null;
  /** Earlier texts after an edit; non-empty means "editada". */
  versions: MessageVersion[];
  /** Last reaction shown on the bubble (seed "reaction"); all reactions in `reactions`. */
  reaction: string | null;
  reactions: MessageReaction[];
  nps: { value: number; reason: string | null } | null;
  csat: { value: number; reason: string | null } | null;
  referral: { image_url?: string; headline?: string; body?: string; source_id?: string; source_url?: string } | null;
  lifeControl: { createdAt: string; updatedAt?: string | null; deletedAt?: string | null; deletedBy?: string | null };
  image?: { imageUrl: string; caption?: string | null; mimeType?: string; size?: number };
  audio?: { audioUrl: string; mimeType: string; size?: number };
  video?: { videoUrl: string; mimeType: string; caption?: string | null; fileName?: string | null; size?: number };
  document?: { documentUrl: string; mimeType: string; fileName: string; size?: number };
  location?: { latitude: number; longitude: number; name?: string; address?: string; /** The place's web page, when the customer shared a business location (http/https only). */ url?: string };
  sticker?: { stickerUrl: string };
  card?: { imageUri?: string; title: string; subtitle?: string; buttons: { text: string; postback: string }[] };
  link?: { image?: string; title?: string; linkDescription?: string; message?: string; linkUrl: string };
  contacts?: ContactCard[];
  contact?: { displayName: string; contactName?: string; contactBusinessDescription?: string; vCard?: string; contactPhone?: string };
  attachments?: { url: string; mimeType: string; filename: string }[];
  interactive?: MessageInteractive;
  error?: { icon?: string; type?: string; url?: string; mediaId?: string; mimeType?: string; fileName?: string; text?: string };
  call?: { callStartTime?: string; callEndTime?: string; duration?: number; subject?: string; direction?: string; type?: 'Incoming' | 'Outgoing' | 'Missed' | string };
  order?: { product_items: { product_retailer_id: string; quantity: number; item_price: number; currency: string }[]; total?: number; catalog_id?: string; text?: string };
  system?: MessageSystemNotice;
  /** What the customer sent that WhatsApp could not deliver to us (its type, e.g. 'pool'). */
  unsupported?: { providerType: string };
  /** Errors the provider attached to an inbound message, with pt-BR titles. */
  providerErrors?: MessageError[];
  /** The provider's message object as received (inbound provider messages). */
  raw?: unknown;
  /**
   * The `clientId` of the send that created it (an own message): the sender's console matches
   * the live record with the bubble it showed before the answer, whichever arrives first.
   */
  clientId?: string | null;
  request?: { collection?: string; body?: Record<string, unknown> & { ENDPOINT?: string }; response?: unknown; error?: unknown };
  webhook?: { origin?: string; body?: unknown };
  toChat?: Record<string, unknown>;
  /** Messages of a mail channel: headers, sanitised HTML and threading ids (docs/email.md). */
  mail?: MailContent;
  template?: { name: string; language?: string; components?: unknown[]; text?: string };
  /**
   * Content of a deleted message; present only in answers to users holding seeDeletedMessages
   * (GET /api/rooms/:id/messages/:messageId). Live records never carry it.
   */
  deletedContent?: Pick<Message, 'text' | 'caption' | 'image' | 'audio' | 'video' | 'document'> | null;
}

/** Message types only admins receive (seed 001 §6 "seeing request-type and toChat messages"). */
export const ADMIN_ONLY_MESSAGE_TYPES: readonly MessageType[] = ['request', 'toChat'];

/** What a new message needs; every other field starts empty. */
export interface EmptyMessageInput extends Pick<Message, 'id' | 'roomId' | 'channel' | 'from' | 'to' | 'author'> {
  /** ISO time: lifeControl.createdAt. */
  createdAt: string;
  channelId?: string | null;
  type?: MessageType;
  internal?: boolean;
}

/**
 * A message with every field of seed 001 §3 at its empty value: the one literal the server's
 * room factory, the console's pending sends and the fixtures start from, so a field added to
 * Message gets its default in one place.
 */
export function emptyMessage(input: EmptyMessageInput): Message {
  return {
    id: input.id,
    roomId: input.roomId,
    messageExtId: null,
    messageId: input.id,
    replyTo: null,
    replied: null,
    from: input.from,
    to: input.to,
    channel: input.channel,
    channelId: input.channelId ?? null,
    type: input.type ?? 'text',
    text: null,
    author: input.author,
    annotation: false,
    hide: false,
    internal: input.internal ?? false,
    caption: null,
    editMessageId: null,
    status: null,
    versions: [],
    reaction: null,
    reactions: [],
    nps: null,
    csat: null,
    referral: null,
    lifeControl: { createdAt: input.createdAt, deletedAt: null },
  };
}
