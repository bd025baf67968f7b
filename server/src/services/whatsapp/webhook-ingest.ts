import type { StatusUpdate, WebhookRequest } from '@atendimento/integrations';
import type { Transaction } from '../../db/knex';
import type { ChatDeps } from '../chat/chat-deps';
import type { IngestService, InboundItem } from '../chat/ingest-service';
import type { MessageService } from '../chat/message-service';
import type { MediaReload } from './media-reload';
import type { ProviderChannels } from './provider-channels';
import type { TemplateSync } from './template-sync';

/** How long a send without the provider's answer counts as in flight (receipts wait for it). */
const IN_FLIGHT_MS = 2 * 60 * 1000;

/** A receipt arrived before the answer of the send it belongs to. */
class StatusBeforeSendAnswer extends Error {
  constructor(readonly externalId: string) {
    super(`status for ${externalId} before the send answer`);
  }
}

/**
 * What became of one webhook delivery. The route turns each outcome into its HTTP answer
 * (web/routes/whatsapp/webhook-routes.ts): `stored` is the only one the provider must not retry.
 */
export type WebhookOutcome =
  | { kind: 'channel_not_found' }
  /** GET verification handshake: answer the challenge as text. */
  | { kind: 'challenge'; challenge: string }
  /** Authentication failed: 'missing' (no signature or secret) or 'mismatch'. */
  | { kind: 'rejected'; reason: 'missing' | 'mismatch' }
  | { kind: 'method_not_allowed' }
  | { kind: 'invalid_body' }
  | { kind: 'stored'; messages: number; created: number; statuses: number }
  /** A receipt overtook its send's answer: the provider's retry finds the id stored. */
  | { kind: 'status_before_send' }
  /** Nothing was committed: the provider's retry is the recovery. */
  | { kind: 'ingest_failed' };

/**
 * Inbound webhooks of provider channels (docs/channels.md): verify → parse → fetch media →
 * one ingest transaction → statuses → template events. Generic over the adapter: the channel
 * row's type names it (provider-channels.ts).
 */
export function createWebhookIngest(deps: Pick<ChatDeps, 'db' | 'feed' | 'clock' | 'logger' | 'messages'>, parts: {
  providers: ProviderChannels; ingest: IngestService; statusIn: MessageService['applyStatusIn']; media: MediaReload; templates: TemplateSync;
  /** Receipts of campaign messages (docs/campaigns.md): answers true when the update was one of them. */
  campaignStatus?: (trx: Transaction, tenantId: string, channelId: string, update: StatusUpdate) => Promise<boolean>;
}) {
  const { db, feed, logger, messages } = deps;
  const { providers, ingest, statusIn, media, templates } = parts;

  /**
   * All statuses of one webhook in one transaction, each a monotonic max (read never goes
   * back). A receipt for an unknown id while one of our sends is in flight may have overtaken
   * the send's answer: the whole webhook is refused so the provider delivers it again once
   * the id is stored. Otherwise unknown ids (sent from the phone app) are ignored.
   */
  async function applyStatuses(tenantId: string, channelId: string, statuses: StatusUpdate[]): Promise<void> {
    if (statuses.length === 0) return;
    await feed.grouped(tenantId, async (trx, record) => {
      for (const update of statuses) {
        const message = update.callbackData?.startsWith('cmp:') ? null : await messages.findByExternalId(trx, tenantId, channelId, update.externalId);
        if (!message && parts.campaignStatus && (await parts.campaignStatus(trx, tenantId, channelId, update))) continue;
        if (!message) {
          const since = new Date(deps.clock.now().getTime() - IN_FLIGHT_MS).toISOString();
          if (await messages.sendInFlight(trx, tenantId, channelId, since)) throw new StatusBeforeSendAnswer(update.externalId);
          continue; // a message sent from elsewhere (the phone app): nothing to update
        }
        const errors = update.errors?.map((e) => ({ title: e.title, code: e.code, ...(e.titleptBR && { titleptBR: e.titleptBR }) }));
        await statusIn(trx, record, tenantId, message, update.status, errors);
      }
    });
  }

  return {
    /** One webhook delivery; `stored` only after everything it carried is committed (or was already there). */
    async handle(tenantId: string, channelId: string, request: WebhookRequest): Promise<WebhookOutcome> {
      const known = await providers.forWebhook(tenantId, channelId);
      if (!known) return { kind: 'channel_not_found' };
      const { found } = known;
      let adapter = known.adapter;
      let verdict = adapter.verifyWebhook(request);
      // A secret replaced from the channels screen still verifies for a grace period, so
      // deliveries signed before the provider picked up the new one are not lost.
      const previous = (found.config as { previous?: Record<string, unknown> }).previous;
      if (verdict.kind === 'rejected' && previous && Date.parse(String(previous.until)) > deps.clock.now().getTime()) {
        const { until: _until, ...secrets } = previous;
        const older = providers.adapter({ ...found, config: { ...found.config, ...secrets } });
        const second = older.verifyWebhook(request);
        if (second.kind !== 'rejected') {
          adapter = older;
          verdict = second;
        }
      }
      if (verdict.kind === 'challenge') return { kind: 'challenge', challenge: verdict.challenge };
      if (verdict.kind === 'rejected') {
        logger.warn({ tenantId, channelId, reason: verdict.reason }, 'whatsapp.webhook_rejected');
        return { kind: 'rejected', reason: verdict.status === 401 ? 'missing' : 'mismatch' };
      }
      if (request.method !== 'POST') return { kind: 'method_not_allowed' };
      let body: unknown;
      try {
        body = JSON.parse(request.rawBody.toString('utf8'));
      } catch {
        return { kind: 'invalid_body' };
      }
      let parsed: ReturnType<typeof adapter.parseWebhook>;
      try {
        parsed = adapter.parseWebhook(body);
      } catch (error) {
        // The adapters skip what they do not know; a shape that still throws is not a provider's
        // webhook: a 400 in Portuguese, never a 500 (the provider's retry would fail the same way).
        logger.warn({ err: error, tenantId, channelId }, 'whatsapp.webhook_unparsable');
        return { kind: 'invalid_body' };
      }
      try {
        // Media first (outside the transaction; skipped for deliveries we already stored).
        const items: InboundItem[] = [];
        for (const item of parsed.messages) {
          if (!item.contact.phone && !item.contact.userId) continue;
          const known = item.content.media ? await messages.findByExternalId(db, tenantId, channelId, item.externalId) : null;
          items.push(known ? item : await media.storeInbound(tenantId, adapter, item));
        }
        const results = await ingest.ingestInbound(tenantId, found.channel, items);
        await applyStatuses(tenantId, channelId, parsed.statuses);
        if (parsed.templateEvents.length) await templates.applyEvents(tenantId, channelId, parsed.templateEvents);
        return { kind: 'stored', messages: results.length, created: results.filter((r) => r.created).length, statuses: parsed.statuses.length };
      } catch (error) {
        if (error instanceof StatusBeforeSendAnswer) {
          logger.info({ tenantId, channelId, externalId: error.externalId }, 'whatsapp.status_before_send_answer');
          return { kind: 'status_before_send' };
        }
        logger.error({ err: error, tenantId, channelId }, 'whatsapp.ingest_failed');
        return { kind: 'ingest_failed' };
      }
    },
  };
}
