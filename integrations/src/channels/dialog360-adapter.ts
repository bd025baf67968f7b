import type { AdapterContext, ChannelAdapter, VerifyResult, WebhookRequest } from './contract';
import { cloudApiAdapter } from './cloud-api-envelope';
import { callJson, fetchBytes } from './http';
import { ProviderError } from './provider-error';
import { safeEqual } from './signature';

/**
 * 360dialog waba-v2: the Cloud API bodies on https://waba-v2.360dialog.io with a D360-API-KEY
 * header. Webhooks are not signed by 360dialog, so they are authenticated by a secret we chose:
 * in a header (webhookSecretHeader) or in the webhook URL path.
 */
export function createDialog360Adapter(ctx: AdapterContext): ChannelAdapter {
  const { config } = ctx;
  const base = config.baseUrl.replace(/\/$/, '');
  const auth = { 'D360-API-KEY': config.apiKey ?? '' };

  return {
    ...cloudApiAdapter('dialog360', ctx, `${base}/messages`, auth),

    verifyWebhook(request: WebhookRequest): VerifyResult {
      const secret = config.webhookSecret;
      if (!secret) return { kind: 'rejected', status: 403, reason: 'channel has no webhook secret' };
      const presented = request.pathSecret ?? request.headers[(config.webhookSecretHeader ?? 'x-webhook-secret').toLowerCase()];
      if (!presented) return { kind: 'rejected', status: 401, reason: 'missing webhook secret' };
      return safeEqual(presented, secret) ? { kind: 'accepted' } : { kind: 'rejected', status: 403, reason: 'webhook secret mismatch' };
    },

    async fetchMedia(media) {
      let url = media.url;
      if (media.mediaId) url = (await callJson(ctx.fetch, 'dialog360', `${base}/${media.mediaId}`, { headers: auth })).url;
      if (!url) throw new ProviderError('dialog360', 'no_media', 400, 'media without id or url', 'Mídia indisponível', false);
      // 360dialog proxies Meta's media host: same path and query on the waba-v2 base.
      const parsed = new URL(url);
      return fetchBytes(ctx.fetch, 'dialog360', `${base}${parsed.pathname}${parsed.search}`, auth);
    },
    async checkConnection() {
      const page = await callJson(ctx.fetch, 'dialog360', `${base}/v1/configs/templates?limit=1`, { headers: auth, timeoutMs: 10_000 });
      return { detail: `${Number(page?.total ?? 0)} template(s)` };
    },
    async listTemplates(next) {
      const offset = next ? Number(next) : 0;
      const page = await callJson(ctx.fetch, 'dialog360', `${base}/v1/configs/templates?limit=100&offset=${offset}`, { headers: auth });
      const list: any[] = Array.isArray(page?.waba_templates) ? page.waba_templates : [];
      const templates = list.map((t) => ({
        id: String(t.id ?? t.name), name: String(t.name), language: String(t.language), status: String(t.status).toUpperCase(), category: String(t.category), components: t.components ?? [], namespace: t.namespace,
      }));
      const total = Number(page?.total ?? offset + list.length);
      return { templates, next: offset + list.length < total && list.length > 0 ? String(offset + list.length) : null };
    },
  };
}
