import type { AdapterContext, ChannelAdapter, InboundContent, InboundMessage, ParsedWebhook, ProviderMessageError, StatusUpdate, TemplateEvent, DeliveryStatus, SendOptions, OutboundInteractive, OutboundMedia, TemplateSend } from './contract';
import { callJson } from './http';
import { ProviderError, cloudApiErrorTitle } from './provider-error';
import { coordinates, isoFromMillis } from './inbound-values';

/**
 * The WhatsApp Cloud API webhook envelope and message bodies, shared by the Meta adapter and
 * 360dialog (waba-v2 forwards the same envelope and accepts the same send bodies).
 */

type Json = Record<string, any>;

const isoFromUnix = (seconds: unknown): string => isoFromMillis(Number(seconds) * 1000);

const MEDIA_TYPES = new Set(['image', 'video', 'audio', 'document', 'sticker']);

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number => (Number.isFinite(Number(v)) ? Number(v) : 0);

/** Error objects of a webhook (message, value or status level), each with its pt-BR title. */
function errorsOf(list: unknown): ProviderMessageError[] | undefined {
  if (!Array.isArray(list) || list.length === 0) return undefined;
  return (list as Json[]).map((e) => ({
    code: typeof e?.code === 'number' || typeof e?.code === 'string' ? e.code : '?',
    title: String(e?.title ?? e?.message ?? ''),
    // Meta's references put the details under error_data (statuses) or beside the title (older message examples).
    ...(typeof (e?.error_data?.details ?? e?.details) === 'string' && { details: String(e?.error_data?.details ?? e?.details) }),
    titleptBR: cloudApiErrorTitle(e?.code),
  }));
}

/** The content of one Cloud API message body (also the `message` of an edit). */
function content(message: Json): InboundContent {
  const type = String(message.type ?? 'unknown');
  if (type === 'text' && typeof message.text?.body === 'string') return { type: 'text', text: message.text.body };
  if (MEDIA_TYPES.has(type) && message[type]) {
    const media = message[type] ?? {};
    return {
      type,
      ...(media.caption && { caption: String(media.caption) }),
      media: { mediaId: media.id, url: media.url, mimeType: media.mime_type, sha256: media.sha256, fileName: media.filename },
    };
  }
  const point = type === 'location' && message.location ? coordinates(message.location.latitude, message.location.longitude) : null;
  if (point) {
    const l = message.location;
    return { type: 'location', location: { ...point, name: text(l.name), address: text(l.address), url: text(l.url) } };
  }
  if (type === 'contacts' && Array.isArray(message.contacts)) return { type: 'contacts', contacts: message.contacts };
  if (type === 'reaction') return { type: 'reaction', reaction: { targetExternalId: String(message.reaction?.message_id ?? ''), emoji: String(message.reaction?.emoji ?? '') } };
  if (type === 'interactive' && message.interactive) {
    const i = message.interactive ?? {};
    const nfm = i.nfm_reply ? { name: text(i.nfm_reply.name), body: text(i.nfm_reply.body), response_json: text(i.nfm_reply.response_json) } : undefined;
    const title = i.button_reply?.title ?? i.list_reply?.title ?? nfm?.body;
    return { type: 'interactive', ...(title !== undefined && { text: String(title) }), interactive: { type: String(i.type ?? ''), button_reply: i.button_reply, list_reply: i.list_reply, ...(nfm && { nfm_reply: nfm }) } };
  }
  if (type === 'button' && message.button) return { type: 'interactive', text: String(message.button?.text ?? ''), button: { payload: String(message.button?.payload ?? ''), text: String(message.button?.text ?? '') } };
  if (type === 'order' && message.order) {
    const o = message.order;
    const items = (Array.isArray(o.product_items) ? (o.product_items as Json[]) : []).map((p) => ({
      product_retailer_id: String(p?.product_retailer_id ?? ''), quantity: num(p?.quantity), item_price: num(p?.item_price), currency: String(p?.currency ?? ''),
    }));
    return { type: 'order', ...(text(o.text) && { text: o.text }), order: { ...(o.catalog_id !== undefined && { catalog_id: String(o.catalog_id) }), ...(text(o.text) !== undefined && { text: o.text }), product_items: items } };
  }
  if (type === 'system' && message.system) {
    const sys = message.system;
    return {
      type: 'system',
      system: {
        type: String(sys.type ?? ''),
        ...(text(sys.body) && { body: sys.body }),
        ...(sys.wa_id && { newPhone: String(sys.wa_id) }),
        ...(sys.user_id && { newUserId: String(sys.user_id) }),
        ...(sys.previous_user_id && { previousUserId: String(sys.previous_user_id) }),
      },
    };
  }
  if (type === 'edit' && message.edit?.original_message_id) {
    return { type: 'edit', edit: { targetExternalId: String(message.edit.original_message_id), content: content(message.edit.message ?? {}) } };
  }
  if (type === 'revoke' && message.revoke?.original_message_id) return { type: 'revoke', revoke: { targetExternalId: String(message.revoke.original_message_id) } };
  // 'unsupported' (what the customer sent is named in `unsupported.type`), 'unknown', a new
  // type, or a known type without its body.
  const providerType = type === 'unsupported' || type === 'unknown' ? String(message.unsupported?.type ?? type) : type;
  return { type: 'unsupported', unsupported: { providerType } };
}

/** Digits of a phone as the provider gave it; null for placeholders or empty values. */
function phoneOf(value: unknown): string | null {
  const v = typeof value === 'string' ? value.replace(/^\+/, '') : typeof value === 'number' ? String(value) : '';
  return /^\d{5,20}$/.test(v) ? v : null;
}

const STATUS: Record<string, DeliveryStatus> = { sent: 'sent', delivered: 'delivered', read: 'read', played: 'read', failed: 'failed', deleted: 'deleted' };

/** Parses a Cloud API webhook body; unknown fields and types never throw. */
function parseCloudApiWebhook(body: unknown): ParsedWebhook {
  const result: ParsedWebhook = { messages: [], statuses: [], templateEvents: [] };
  const entries = Array.isArray((body as Json)?.entry) ? ((body as Json).entry as Json[]) : [];
  for (const entry of entries) {
    for (const change of Array.isArray(entry?.changes) ? (entry.changes as Json[]) : []) {
      const value = (change?.value ?? {}) as Json;
      if (change?.field === 'message_template_status_update') {
        const event: TemplateEvent = {
          templateId: String(value.message_template_id ?? ''),
          name: String(value.message_template_name ?? ''),
          language: String(value.message_template_language ?? ''),
          event: String(value.event ?? ''),
          ...(value.reason && { reason: String(value.reason) }),
        };
        result.templateEvents.push(event);
        continue;
      }
      const contacts = Array.isArray(value.contacts) ? (value.contacts as Json[]).filter((c) => c && typeof c === 'object') : [];
      const valueErrors = errorsOf(value.errors);
      const inbound = (message: Json, party: { phone: unknown; userId: unknown }): InboundMessage => {
        const phone = phoneOf(party.phone);
        const profile = contacts.find((c) => (phone && c.wa_id === phone) || (party.userId && c.user_id === party.userId)) ?? contacts[0];
        const parsed: InboundMessage = {
          externalId: String(message.id),
          timestamp: isoFromUnix(message.timestamp),
          contact: {
            phone: phone ?? phoneOf(profile?.wa_id),
            userId: party.userId ? String(party.userId) : profile?.user_id ? String(profile.user_id) : null,
            displayName: profile?.profile?.name ? String(profile.profile.name) : null,
          },
          content: { ...content(message), raw: message },
        };
        const errors = errorsOf(message.errors) ?? valueErrors;
        if (errors) parsed.content.errors = errors;
        if (message.context?.id && !message.context?.forwarded) parsed.replyToExternalId = String(message.context.id);
        if (message.context?.forwarded || message.context?.frequently_forwarded) parsed.forwarded = true;
        if (message.referral) parsed.content.referral = message.referral;
        return parsed;
      };
      for (const message of Array.isArray(value.messages) ? (value.messages as Json[]) : []) {
        // 'request_welcome': the customer opened the chat for the first time, before writing
        // anything. An event, not a message: stored it read as unsupported content to resend.
        if (!message?.id || message.type === 'request_welcome') continue;
        // A changed user id names the customer only by the previous id.
        const userId = message.from_user_id ?? message.system?.previous_user_id;
        result.messages.push(inbound(message, { phone: message.from, userId }));
      }
      for (const echo of Array.isArray(value.message_echoes) ? (value.message_echoes as Json[]) : []) {
        if (!echo?.id) continue;
        (result.echoes ??= []).push(inbound(echo, { phone: echo.to, userId: echo.to_user_id }));
      }
      for (const status of Array.isArray(value.statuses) ? (value.statuses as Json[]) : []) {
        const mapped = STATUS[String(status?.status)];
        if (!status?.id || !mapped) continue;
        const update: StatusUpdate = { externalId: String(status.id), status: mapped, timestamp: isoFromUnix(status.timestamp), recipient: status.recipient_id ? String(status.recipient_id) : null };
        const errors = errorsOf(status.errors);
        if (errors) update.errors = errors;
        if (typeof status.biz_opaque_callback_data === 'string' && status.biz_opaque_callback_data) update.callbackData = status.biz_opaque_callback_data;
        result.statuses.push(update);
      }
    }
  }
  return result;
}

const context = (options?: SendOptions) => (options?.replyToExternalId ? { context: { message_id: options.replyToExternalId } } : {});

const cloudApiBodies = {
  text: (to: string, text: string, options?: SendOptions) => ({
    messaging_product: 'whatsapp', recipient_type: 'individual', to, type: 'text', text: { body: text, preview_url: /https?:\/\//.test(text) }, ...context(options),
  }),
  media: (to: string, media: OutboundMedia, options?: SendOptions) => ({
    messaging_product: 'whatsapp', recipient_type: 'individual', to, type: media.kind,
    [media.kind]: {
      link: media.url,
      ...(media.caption && media.kind !== 'audio' && media.kind !== 'sticker' && { caption: media.caption }),
      ...(media.fileName && media.kind === 'document' && { filename: media.fileName }),
    },
    ...context(options),
  }),
  template: (to: string, template: TemplateSend) => ({
    messaging_product: 'whatsapp', recipient_type: 'individual', to, type: 'template',
    template: { name: template.name, language: { code: template.language }, ...(template.components && { components: template.components }) },
    ...(template.callbackData && { biz_opaque_callback_data: template.callbackData.slice(0, 512) }),
  }),
  interactive: (to: string, interactive: OutboundInteractive, options?: SendOptions) => ({
    messaging_product: 'whatsapp', recipient_type: 'individual', to, type: 'interactive', interactive, ...context(options),
  }),
  reaction: (to: string, targetExternalId: string, emoji: string) => ({
    messaging_product: 'whatsapp', recipient_type: 'individual', to, type: 'reaction', reaction: { message_id: targetExternalId, emoji },
  }),
  read: (externalId: string) => ({ messaging_product: 'whatsapp', status: 'read', message_id: externalId }),
};

/** Reads the message id from a Cloud API send answer `{ messages: [{ id }] }`. */
function sentId(body: unknown): string {
  const id = (body as Json)?.messages?.[0]?.id;
  if (typeof id !== 'string') throw new Error('cloud api: send answer without messages[0].id');
  return id;
}

/** The part of a Cloud API adapter that does not depend on the provider. */
type CloudApiCommon = Pick<
  ChannelAdapter,
  'kind' | 'supportsEdit' | 'supportsDelete' | 'parseWebhook' | 'sendText' | 'sendMedia' | 'sendTemplate' | 'sendInteractive' | 'sendReaction' | 'editText' | 'deleteMessage' | 'markRead'
>;

/**
 * What Meta and 360dialog share: the webhook parser, every send as a Cloud API body POSTed to
 * the provider's messages URL, read receipts the same way, and no edit or delete (the Cloud
 * API has neither). Each adapter adds its own authentication, media download and template list.
 */
export function cloudApiAdapter(kind: string, ctx: AdapterContext, messagesUrl: string, auth: Record<string, string>): CloudApiCommon {
  const post = (body: unknown) => callJson(ctx.fetch, kind, messagesUrl, { headers: auth, body });
  const send = async (body: unknown) => ({ externalId: sentId(await post(body)) });
  return {
    kind,
    supportsEdit: false,
    supportsDelete: false,
    parseWebhook: parseCloudApiWebhook,
    sendText: (to, text, options) => send(cloudApiBodies.text(to, text, options)),
    sendMedia: (to, media, options) => send(cloudApiBodies.media(to, media, options)),
    sendTemplate: (to, template) => send(cloudApiBodies.template(to, template)),
    sendInteractive: (to, interactive, options) => send(cloudApiBodies.interactive(to, interactive, options)),
    sendReaction: (to, target, emoji) => send(cloudApiBodies.reaction(to, target, emoji)),
    async editText() {
      throw new ProviderError(kind, 'unsupported', 400, 'edit not supported', 'Edição não suportada neste canal', false);
    },
    async deleteMessage() {
      throw new ProviderError(kind, 'unsupported', 400, 'delete not supported', 'Exclusão não suportada neste canal', false);
    },
    async markRead(externalId) {
      await post(cloudApiBodies.read(externalId));
    },
  };
}
