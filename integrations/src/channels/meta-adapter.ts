import type { AdapterContext, ChannelAdapter, MediaRef, VerifyResult, WebhookRequest } from './contract';
import { cloudApiAdapter } from './cloud-api-envelope';
import { callJson, fetchBytes } from './http';
import { ProviderError } from './provider-error';
import { hubSignature, safeEqual } from './signature';

/** Meta WhatsApp Cloud API (graph.facebook.com/{version}/{phone-number-id}/messages). */
export function createMetaAdapter(ctx: AdapterContext): ChannelAdapter {
  const { config } = ctx;
  const version = config.apiVersion ?? 'v21.0';
  const base = `${config.baseUrl.replace(/\/$/, '')}/${version}`;
  const auth = { authorization: `Bearer ${config.accessToken ?? ''}` };

  return {
    ...cloudApiAdapter('meta', ctx, `${base}/${config.phoneNumberId}/messages`, auth),

    verifyWebhook(request: WebhookRequest): VerifyResult {
      if (request.method === 'GET') {
        const ok = request.query['hub.mode'] === 'subscribe' && !!config.verifyToken && safeEqual(request.query['hub.verify_token'] ?? '', config.verifyToken);
        return ok ? { kind: 'challenge', challenge: request.query['hub.challenge'] ?? '' } : { kind: 'rejected', status: 403, reason: 'verify token mismatch' };
      }
      const header = request.headers['x-hub-signature-256'];
      if (!header) return { kind: 'rejected', status: 401, reason: 'missing X-Hub-Signature-256' };
      if (!config.appSecret || !safeEqual(header, hubSignature(config.appSecret, request.rawBody))) {
        return { kind: 'rejected', status: 403, reason: 'signature mismatch' };
      }
      return { kind: 'accepted' };
    },

    async fetchMedia(media: MediaRef) {
      // The id is the stable reference; the URL it resolves to is short-lived and needs the token.
      let url = media.url;
      if (media.mediaId) {
        const info = await callJson(ctx.fetch, 'meta', `${base}/${media.mediaId}`, { headers: auth });
        url = info.url;
      }
      if (!url) throw new ProviderError('meta', 'no_media', 400, 'media without id or url', 'Mídia indisponível', false);
      return fetchBytes(ctx.fetch, 'meta', url, auth);
    },
    async checkConnection() {
      const info = await callJson(ctx.fetch, 'meta', `${base}/${config.phoneNumberId}?fields=display_phone_number,verified_name`, { headers: auth, timeoutMs: 10_000 });
      return { detail: [info?.verified_name, info?.display_phone_number].filter(Boolean).join(' · ') };
    },
    async listTemplates(next) {
      const url = next ?? `${base}/${config.businessAccountId}/message_templates?limit=100`;
      const page = await callJson(ctx.fetch, 'meta', url, { headers: auth });
      const templates = (Array.isArray(page?.data) ? page.data : []).map((t: any) => ({
        id: String(t.id), name: String(t.name), language: String(t.language), status: String(t.status), category: String(t.category), components: t.components ?? [],
      }));
      return { templates, next: typeof page?.paging?.next === 'string' ? page.paging.next : null };
    },
  };
}
