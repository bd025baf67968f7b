import type { AdapterContext, ChannelAdapter, InboundContent, InboundMessage, OutboundInteractive, ParsedWebhook, StatusUpdate, VerifyResult, WebhookRequest, DeliveryStatus } from './contract';
import { callJson, fetchBytes } from './http';
import { ProviderError } from './provider-error';
import { safeEqual } from './signature';
import { coordinates, isoFromMillis } from './inbound-values';

type Json = Record<string, any>;

const ZAPI_STATUS: Record<string, DeliveryStatus> = { SENT: 'sent', RECEIVED: 'delivered', DELIVERED: 'delivered', READ: 'read', PLAYED: 'read', DELETED: 'deleted' };

function content(cb: Json): InboundContent {
  if (cb.text && typeof cb.text.message === 'string') return { type: 'text', text: cb.text.message };
  if (cb.image) return { type: 'image', ...(cb.image.caption && { caption: String(cb.image.caption) }), media: { url: cb.image.imageUrl, mimeType: cb.image.mimeType } };
  if (cb.video) return { type: 'video', ...(cb.video.caption && { caption: String(cb.video.caption) }), media: { url: cb.video.videoUrl, mimeType: cb.video.mimeType } };
  if (cb.audio) return { type: 'audio', media: { url: cb.audio.audioUrl, mimeType: cb.audio.mimeType } };
  if (cb.document) return { type: 'document', ...(cb.document.caption && { caption: String(cb.document.caption) }), media: { url: cb.document.documentUrl, mimeType: cb.document.mimeType, fileName: cb.document.fileName } };
  if (cb.sticker) return { type: 'sticker', media: { url: cb.sticker.stickerUrl, mimeType: cb.sticker.mimeType } };
  const point = cb.location ? coordinates(cb.location.latitude, cb.location.longitude) : null;
  if (point) return { type: 'location', location: { ...point, name: cb.location.name, address: cb.location.address, url: cb.location.url } };
  if (cb.contact) return { type: 'contacts', contacts: [{ name: { formatted_name: String(cb.contact.displayName ?? '') }, phones: (cb.contact.phones ?? []).map((p: string) => ({ phone: p })) }] };
  if (cb.reaction) return { type: 'reaction', reaction: { targetExternalId: String(cb.reaction.referencedMessage?.messageId ?? ''), emoji: String(cb.reaction.value ?? '') } };
  if (cb.buttonsResponseMessage) return { type: 'interactive', text: String(cb.buttonsResponseMessage.message ?? ''), interactive: { type: 'button_reply', button_reply: { id: String(cb.buttonsResponseMessage.buttonId ?? ''), title: String(cb.buttonsResponseMessage.message ?? '') } } };
  if (cb.listResponseMessage) return { type: 'interactive', text: String(cb.listResponseMessage.title ?? ''), interactive: { type: 'list_reply', list_reply: { id: String(cb.listResponseMessage.selectedRowId ?? ''), title: String(cb.listResponseMessage.title ?? '') } } };
  const known = Object.keys(cb).find((k) => typeof cb[k] === 'object' && cb[k] && !['referencedMessage', 'externalAdReply'].includes(k));
  return { type: 'unsupported', unsupported: { providerType: known ?? 'desconhecido' } };
}

/**
 * Our interactive message (Cloud API shape) as Z-API sends it: buttons through
 * `send-button-list` ({ message, buttonList.buttons[{ id, label }] }), a list through
 * `send-option-list` ({ message, optionList { title, buttonLabel, options[{ id, title, description }] } }).
 * Z-API has no header/footer fields: they frame the text (*bold* header, _italic_ footer).
 */
function zApiInteractive(to: string, interactive: OutboundInteractive): { path: string; body: Json } {
  const message = [interactive.header?.text && `*${interactive.header.text}*`, interactive.body.text, interactive.footer?.text && `_${interactive.footer.text}_`].filter(Boolean).join('\n\n');
  if (interactive.type === 'button') {
    return { path: 'send-button-list', body: { phone: to, message, buttonList: { buttons: interactive.action.buttons.map((b) => ({ id: b.reply.id, label: b.reply.title })) } } };
  }
  const options = interactive.action.sections.flatMap((s) => s.rows.map((r) => ({ id: r.id, title: r.title, ...(r.description && { description: r.description }) })));
  return { path: 'send-option-list', body: { phone: to, message, optionList: { title: interactive.action.sections[0]?.title ?? interactive.header?.text ?? interactive.action.button, buttonLabel: interactive.action.button, options } } };
}

/**
 * Z-API: REST on {baseUrl}/instances/{id}/token/{token}/ with a Client-Token header.
 * Webhooks are not signed, so each channel's webhook URL carries a secret we check here.
 */
export function createZApiAdapter(ctx: AdapterContext): ChannelAdapter {
  const { config } = ctx;
  const base = `${config.baseUrl.replace(/\/$/, '')}/instances/${config.instanceId}/token/${config.instanceToken}`;
  const headers = { 'Client-Token': config.clientToken ?? '' };
  const post = (path: string, body: unknown) => callJson(ctx.fetch, 'zApi', `${base}/${path}`, { headers, body });
  const idOf = (answer: Json) => {
    const id = answer?.messageId ?? answer?.id;
    if (typeof id !== 'string') throw new ProviderError('zApi', 'no_id', 502, 'send answer without messageId', 'Erro no Envio', true);
    return { externalId: id };
  };

  return {
    kind: 'zApi',
    supportsEdit: true,
    supportsDelete: true,

    verifyWebhook(request: WebhookRequest): VerifyResult {
      if (!config.webhookSecret) return { kind: 'rejected', status: 403, reason: 'channel has no webhook secret' };
      if (!request.pathSecret) return { kind: 'rejected', status: 401, reason: 'missing webhook secret' };
      return safeEqual(request.pathSecret, config.webhookSecret) ? { kind: 'accepted' } : { kind: 'rejected', status: 403, reason: 'webhook secret mismatch' };
    },

    parseWebhook(body: unknown): ParsedWebhook {
      const cb = (body ?? {}) as Json;
      const result: ParsedWebhook = { messages: [], statuses: [], templateEvents: [] };
      // A group's notices (someone added, left, the subject changed: `notification`) and a
      // channel's posts (`isNewsletter`) are not a customer writing: not stored as messages.
      const notCustomer = Boolean(cb.notification) || cb.isNewsletter === true;
      if (cb.type === 'ReceivedCallback' && cb.messageId && !cb.fromMe && !notCustomer) {
        // A hidden number comes as a LID ('…@lid') in the phone field: it is an id, not a number.
        const given = cb.isGroup ? cb.participantPhone : cb.phone;
        const lid = typeof given === 'string' && given.endsWith('@lid') ? given : null;
        // An edit (`isEdit`) comes under the edited message's id: it changes that message, and is
        // kept under an id of its own (the edited id and the moment) when that one was never stored.
        const edited = cb.isEdit === true;
        const message: InboundMessage = {
          externalId: edited ? `${String(cb.messageId)}:edit:${String(cb.momment ?? '')}` : String(cb.messageId),
          timestamp: isoFromMillis(cb.momment),
          contact: {
            phone: lid || !given ? null : String(given),
            userId: (cb.isGroup ? cb.participantLid : cb.senderLid) ?? lid,
            displayName: cb.senderName ?? cb.chatName ?? null,
          },
          content: edited ? { type: 'edit', edit: { targetExternalId: String(cb.messageId), content: content(cb) }, raw: cb } : { ...content(cb), raw: cb },
          group: cb.isGroup ? { id: String(cb.phone), subject: cb.chatName ?? undefined } : null,
        };
        if (cb.referenceMessageId) message.replyToExternalId = String(cb.referenceMessageId);
        if (cb.forwarded) message.forwarded = true;
        result.messages.push(message);
      } else if (cb.type === 'MessageStatusCallback') {
        const status = ZAPI_STATUS[String(cb.status).toUpperCase()];
        for (const id of Array.isArray(cb.ids) ? cb.ids : []) {
          if (status) result.statuses.push({ externalId: String(id), status, timestamp: isoFromMillis(cb.momment), recipient: cb.phone ?? null });
        }
      } else if (cb.type === 'DeliveryCallback' && cb.messageId) {
        const update: StatusUpdate = cb.error
          ? { externalId: String(cb.messageId), status: 'failed', timestamp: isoFromMillis(cb.momment), recipient: cb.phone ?? null, errors: [{ code: 'zapi', title: String(cb.error), titleptBR: 'Erro no Envio' }] }
          : { externalId: String(cb.messageId), status: 'sent', timestamp: isoFromMillis(cb.momment), recipient: cb.phone ?? null };
        result.statuses.push(update);
      }
      return result;
    },

    sendText: async (to, text, options) => idOf(await post('send-text', { phone: to, message: text, ...(options?.replyToExternalId && { messageId: options.replyToExternalId }) })),
    async sendMedia(to, media, options) {
      const reply = options?.replyToExternalId ? { messageId: options.replyToExternalId } : {};
      switch (media.kind) {
        case 'image':
          return idOf(await post('send-image', { phone: to, image: media.url, caption: media.caption, ...reply }));
        case 'video':
          return idOf(await post('send-video', { phone: to, video: media.url, caption: media.caption, ...reply }));
        case 'audio':
          return idOf(await post('send-audio', { phone: to, audio: media.url, ...reply }));
        case 'sticker':
          return idOf(await post('send-sticker', { phone: to, sticker: media.url, ...reply }));
        case 'document': {
          const ext = (media.fileName?.split('.').pop() ?? 'pdf').toLowerCase();
          return idOf(await post(`send-document/${encodeURIComponent(ext)}`, { phone: to, document: media.url, fileName: media.fileName, caption: media.caption, ...reply }));
        }
      }
    },
    async sendTemplate() {
      throw new ProviderError('zApi', 'unsupported', 400, 'templates are a Cloud API feature', 'Templates não são suportados neste canal', false);
    },
    async sendInteractive(to, interactive) {
      const { path, body } = zApiInteractive(to, interactive);
      return idOf(await post(path, body));
    },
    sendReaction: async (to, target, emoji) => idOf(await post('send-reaction', { phone: to, reaction: emoji, messageId: target })),
    editText: async (to, externalId, text) => idOf(await post('send-text', { phone: to, message: text, editMessageId: externalId })),
    async deleteMessage(to, externalId) {
      await callJson(ctx.fetch, 'zApi', `${base}/messages?messageId=${encodeURIComponent(externalId)}&phone=${encodeURIComponent(to)}&owner=true`, { method: 'DELETE', headers });
    },
    async markRead(externalId, from) {
      await post('read-message', { phone: from, messageId: externalId });
    },
    fetchMedia: async (media) => {
      if (!media.url) throw new ProviderError('zApi', 'no_media', 400, 'media without url', 'Mídia indisponível', false);
      return fetchBytes(ctx.fetch, 'zApi', media.url, {});
    },
    async listTemplates() {
      return { templates: [], next: null };
    },
    async checkConnection() {
      const status = await callJson(ctx.fetch, 'zApi', `${base}/status`, { headers, timeoutMs: 10_000 });
      return { detail: status?.connected ? 'instância conectada' : 'instância desconectada do celular' };
    },
  };
}
