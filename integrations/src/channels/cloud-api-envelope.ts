import type { AdapterContext, ChannelAdapter, InboundContent, InboundMessage, ParsedWebhook, StatusUpdate, TemplateEvent, DeliveryStatus, SendOptions, OutboundInteractive, OutboundMedia, TemplateSend } from './contract';
import { callJson } from './http';
import { CLOUD_API_ERRORS_PT_BR, ProviderError } from './provider-error';

/**
 * The WhatsApp Cloud API webhook envelope and message bodies, shared by the Meta adapter and
 * 360dialog (waba-v2 forwards the same envelope and accepts the same send bodies).
 */

type Json = Record<string, any>;

const isoFromUnix = (seconds: unknown): string => {
  const n = Number(seconds);
  return Number.isFinite(n) && n > 0 ? new Date(n * 1000).toISOString() : new Date().toISOString();
};

const MEDIA_TYPES = new Set(['image', 'video', 'audio', 'document', 'sticker']);

function content(message: Json): InboundContent {
  const type = String(message.type ?? 'unknown');
  if (type === 'text') return { type: 'text', text: String(message.text?.body ?? '') };
  if (MEDIA_TYPES.has(type)) {
    const media = message[type] ?? {};
    return {
      type,
      ...(media.caption && { caption: String(media.caption) }),
      media: { mediaId: media.id, url: media.url, mimeType: media.mime_type, sha256: media.sha256, fileName: media.filename },
    };
  }
  if (type === 'location') {
    const l = message.location ?? {};
    return { type: 'location', location: { latitude: Number(l.latitude), longitude: Number(l.longitude), name: l.name, address: l.address, url: l.url } };
  }
  if (type === 'contacts') return { type: 'contacts', contacts: Array.isArray(message.contacts) ? message.contacts : [] };
  if (type === 'reaction') return { type: 'reaction', reaction: { targetExternalId: String(message.reaction?.message_id ?? ''), emoji: String(message.reaction?.emoji ?? '') } };
  if (type === 'interactive') {
    const i = message.interactive ?? {};
    return { type: 'interactive', text: i.button_reply?.title ?? i.list_reply?.title ?? undefined, interactive: { type: String(i.type ?? ''), button_reply: i.button_reply, list_reply: i.list_reply, nfm_reply: i.nfm_reply } };
  }
  if (type === 'button') return { type: 'interactive', text: String(message.button?.text ?? ''), button: { payload: String(message.button?.payload ?? ''), text: String(message.button?.text ?? '') } };
  return { type: 'unsupported', unsupported: { providerType: type } };
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
      const contacts = Array.isArray(value.contacts) ? (value.contacts as Json[]) : [];
      for (const message of Array.isArray(value.messages) ? (value.messages as Json[]) : []) {
        if (!message?.id) continue;
        const profile = contacts.find((c) => c.wa_id === message.from || (message.from_user_id && c.user_id === message.from_user_id)) ?? contacts[0];
        const inbound: InboundMessage = {
          externalId: String(message.id),
          timestamp: isoFromUnix(message.timestamp),
          contact: {
            phone: message.from ? String(message.from) : profile?.wa_id ? String(profile.wa_id) : null,
            userId: message.from_user_id ? String(message.from_user_id) : profile?.user_id ? String(profile.user_id) : null,
            displayName: profile?.profile?.name ? String(profile.profile.name) : null,
          },
          content: content(message),
        };
        if (message.context?.id && !message.context?.forwarded) inbound.replyToExternalId = String(message.context.id);
        if (message.context?.forwarded || message.context?.frequently_forwarded) inbound.forwarded = true;
        if (message.referral) inbound.content.referral = message.referral;
        result.messages.push(inbound);
      }
      for (const status of Array.isArray(value.statuses) ? (value.statuses as Json[]) : []) {
        const mapped = STATUS[String(status?.status)];
        if (!status?.id || !mapped) continue;
        const update: StatusUpdate = { externalId: String(status.id), status: mapped, timestamp: isoFromUnix(status.timestamp), recipient: status.recipient_id ? String(status.recipient_id) : null };
        if (Array.isArray(status.errors)) {
          update.errors = (status.errors as Json[]).map((e) => ({ code: e.code, title: String(e.title ?? e.message ?? ''), titleptBR: CLOUD_API_ERRORS_PT_BR[Number(e.code)] }));
        }
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
