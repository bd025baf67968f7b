/**
 * The channel adapter contract: every provider channel (WhatsApp-type providers, and any
 * other channel that talks to an external API) speaks to the product through this interface
 * only. docs/channels.md walks through adding one.
 *
 * To add a provider:
 * 1. Write `<name>-adapter.ts` here implementing `ChannelAdapter` (verify + parse webhooks
 *    into `ParsedWebhook`; send text/media/template/interactive/reaction; mark read; fetch
 *    media; list templates). Use only `ctx.fetch`, `ctx.logger` and `ctx.config`: adapters
 *    never import server code.
 * 2. Map the provider's failures to `ProviderError` (retryable for throttling and transient
 *    errors, never for the caller's mistakes), with a pt-BR `titlePtBR` when known.
 * 3. Register it in `index.ts` under its adapter kind (or, from a test or a plug-in,
 *    `registerChannelAdapter(kind, factory)`).
 * 4. Add a local provider server under `../providers/` that follows the public API shape, and
 *    a spec that feeds every fixture of `integrations/fixtures/<provider>` (copied
 *    in with a SOURCES.md line) through `parseWebhook`.
 * 5. Add the channel type's row to the channel table (schemas/src/chat/channel.ts) with
 *    `adapter: '<kind>'` (or `registerChannelType`). Nothing in the server changes: webhooks,
 *    senders, media and templates find the adapter through the row.
 */

/** The registry key of an adapter ('meta', 'dialog360', 'zApi', or a registered one). */
type ChannelKind = string;

/** Per-channel settings from the channels register (admin only; secrets never reach browsers). */
export interface ChannelConfig {
  /** Provider API base, e.g. https://graph.facebook.com, https://waba-v2.360dialog.io, https://api.z-api.io */
  baseUrl: string;
  /** Meta Graph API version, e.g. v21.0. */
  apiVersion?: string;
  phoneNumberId?: string;
  businessAccountId?: string;
  accessToken?: string;
  /** Meta app secret: key of X-Hub-Signature-256. */
  appSecret?: string;
  /** Meta webhook verification token (GET hub.verify_token). */
  verifyToken?: string;
  /** 360dialog D360-API-KEY. */
  apiKey?: string;
  /** Shared secret that authenticates 360dialog and Z-API webhooks (header or URL path). */
  webhookSecret?: string;
  /** 360dialog: header carrying webhookSecret (default x-webhook-secret). */
  webhookSecretHeader?: string;
  instanceId?: string;
  instanceToken?: string;
  clientToken?: string;
}

interface AdapterLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface AdapterContext {
  fetch: typeof fetch;
  logger: AdapterLogger;
  config: ChannelConfig;
}

/** The webhook request as received: headers lower-cased, body as the exact raw bytes. */
export interface WebhookRequest {
  method: string;
  headers: Record<string, string | undefined>;
  query: Record<string, string | undefined>;
  rawBody: Buffer;
  /** The secret segment of the webhook URL, when the route has one. */
  pathSecret?: string;
}

export type VerifyResult =
  | { kind: 'accepted' }
  /** GET verification handshake: answer 200 with this text. */
  | { kind: 'challenge'; challenge: string }
  | { kind: 'rejected'; status: 401 | 403; reason: string };

/** Media reference as a provider gives it: an id to fetch, or a URL. */
export interface MediaRef {
  mediaId?: string;
  url?: string;
  mimeType?: string;
  sha256?: string;
  fileName?: string;
}

/**
 * Message content in the product's shape (seed 001 §3 "Message"), before storage. Media are
 * references until the server fetches them into the blob store.
 */
export interface InboundContent {
  type: string;
  text?: string;
  caption?: string;
  media?: MediaRef;
  location?: { latitude: number; longitude: number; name?: string; address?: string; url?: string };
  contacts?: { name: { formatted_name: string }; phones?: { phone: string; type?: string }[]; emails?: { email: string }[]; org?: unknown }[];
  interactive?: { type: string; button_reply?: { id: string; title: string }; list_reply?: { id: string; title: string; description?: string }; nfm_reply?: { name?: string; body?: string; response_json?: string } };
  button?: { payload: string; text: string };
  reaction?: { targetExternalId: string; emoji: string };
  referral?: { source_id?: string; source_url?: string; headline?: string; body?: string; image_url?: string };
  /** Provider type we do not know: kept for a visible placeholder. */
  unsupported?: { providerType: string };
  /** A catalog order (Cloud API `order`), in the provider's field names. */
  order?: { catalog_id?: string; text?: string; product_items: { product_retailer_id: string; quantity: number; item_price: number; currency: string }[] };
  /**
   * A notice from WhatsApp itself (Cloud API `system`): the customer changed number
   * (`newPhone`) or business-scoped user id (`newUserId`, `previousUserId`), or their security
   * code changed.
   */
  system?: { type: string; body?: string; newPhone?: string; newUserId?: string; previousUserId?: string };
  /** Errors the provider attached to the message (content it could not deliver to us). */
  errors?: ProviderMessageError[];
  /** The customer edited one of their messages: the new content of `targetExternalId`. */
  edit?: { targetExternalId: string; content: InboundContent };
  /** The customer deleted one of their messages for everyone. */
  revoke?: { targetExternalId: string };
  /** The provider's message object as received, kept on the stored message. */
  raw?: unknown;
}

/** An error object of a webhook (message, value or status level), with its pt-BR title when known. */
export interface ProviderMessageError {
  code: number | string;
  title: string;
  details?: string;
  titleptBR?: string;
}

export interface ContactIdentity {
  /** E.164 digits without '+', when the provider shares it. */
  phone: string | null;
  /** Business-scoped user id (Meta BSUID) or provider LID. */
  userId: string | null;
  displayName: string | null;
}

export interface InboundMessage {
  externalId: string;
  timestamp: string;
  contact: ContactIdentity;
  content: InboundContent;
  replyToExternalId?: string;
  forwarded?: boolean;
  group?: { id: string; subject?: string } | null;
}

export type DeliveryStatus = 'sent' | 'delivered' | 'read' | 'failed' | 'deleted';

export interface StatusUpdate {
  externalId: string;
  status: DeliveryStatus;
  timestamp: string;
  recipient: string | null;
  errors?: ProviderMessageError[];
  /** The `callbackData` the send carried (Cloud API `biz_opaque_callback_data`). */
  callbackData?: string;
}

export interface TemplateEvent {
  templateId: string;
  name: string;
  language: string;
  event: string;
  reason?: string;
}

export interface ParsedWebhook {
  messages: InboundMessage[];
  statuses: StatusUpdate[];
  templateEvents: TemplateEvent[];
  /**
   * Messages the business sent from its own WhatsApp app on a number shared with the API
   * (Cloud API `smb_message_echoes`): `contact` is the recipient.
   */
  echoes?: InboundMessage[];
}

export interface SendResult {
  externalId: string;
}

export type MediaKind = 'image' | 'video' | 'audio' | 'document' | 'sticker';

export interface OutboundMedia {
  kind: MediaKind;
  /** A URL the provider can download. */
  url: string;
  caption?: string;
  fileName?: string;
}

export interface TemplateSend {
  name: string;
  language: string;
  components?: unknown[];
  /**
   * Echoed back in the message's status webhooks (Cloud API `biz_opaque_callback_data`): the
   * campaign queue sends its job key, so a receipt finds the job even before (or without) the
   * send's answer (docs/campaigns.md).
   */
  callbackData?: string;
}

/**
 * Buttons or a list, in the Cloud API `interactive` shape (the product stores the same object
 * in `message.interactive`). Cloud API adapters send it as is; others translate it.
 */
export type OutboundInteractive =
  | { type: 'button'; header?: { type: 'text'; text: string }; body: { text: string }; footer?: { text: string }; action: { buttons: { type: 'reply'; reply: { id: string; title: string } }[] } }
  | { type: 'list'; header?: { type: 'text'; text: string }; body: { text: string }; footer?: { text: string }; action: { button: string; sections: { title?: string; rows: { id: string; title: string; description?: string }[] }[] } };

export interface ProviderTemplate {
  id: string;
  name: string;
  language: string;
  status: string;
  category: string;
  components: unknown[];
  namespace?: string;
}

export interface SendOptions {
  replyToExternalId?: string;
}

export interface ChannelAdapter {
  readonly kind: ChannelKind;
  verifyWebhook(request: WebhookRequest): VerifyResult;
  /** Turns a verified webhook body into messages, statuses and template events; never throws on unknown types. */
  parseWebhook(body: unknown): ParsedWebhook;
  sendText(to: string, text: string, options?: SendOptions): Promise<SendResult>;
  sendMedia(to: string, media: OutboundMedia, options?: SendOptions): Promise<SendResult>;
  sendTemplate(to: string, template: TemplateSend): Promise<SendResult>;
  sendInteractive(to: string, interactive: OutboundInteractive, options?: SendOptions): Promise<SendResult>;
  sendReaction(to: string, targetExternalId: string, emoji: string): Promise<SendResult>;
  /** Providers without edit/delete answer `supports*` false and throw when called. */
  readonly supportsEdit: boolean;
  readonly supportsDelete: boolean;
  editText(to: string, externalId: string, text: string): Promise<SendResult>;
  deleteMessage(to: string, externalId: string): Promise<void>;
  markRead(externalId: string, from: string): Promise<void>;
  fetchMedia(media: MediaRef): Promise<{ bytes: Buffer; mimeType: string }>;
  /** One page of templates; pass `next` back to get the following page. */
  listTemplates(next?: string): Promise<{ templates: ProviderTemplate[]; next: string | null }>;
  /**
   * 'Testar conexão' (channels screen): one authenticated read at the provider; what it
   * answered as a short description (the number's name, the instance's state). Throws a
   * ProviderError when refused or unreachable. Optional: an adapter without it is not testable.
   */
  checkConnection?(): Promise<{ detail: string }>;
}
