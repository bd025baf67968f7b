import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import {
  createChannelAdapter, type ChannelAdapter, type ChannelConfig, type ChannelKind, type InboundMessage, type MediaRef, type ProviderTemplate, type StatusUpdate, type TemplateEvent, type WebhookRequest,
} from '@atendimento/integrations';
import { messages as texts, type AppConfig, type Channel, type DeliveryState, type Message, type MessageError, type Room } from '@atendimento/schemas';
import { AppError, badRequest, notFound } from '../../errors';
import { parseJson, type Db } from '../../db/knex';
import type { ChatDeps } from './chat-deps';
import { createAdapterSender, SendFailure, type ChannelSender, type OutboundContext } from './channel-senders';
import type { RecordChange } from '../changes/change-feed';
import { mediaFields, type IngestService, type InboundItem } from './ingest-service';
import { canSee, type Viewer } from './room-scope';
import { createWhatsappTemplateRepository, type TemplateQuery } from '../../db/repositories/whatsapp-template-repository';
import type { TemplateSet, TemplatesAnswer } from '@atendimento/schemas/chat/whatsapp';

/**
 * WhatsApp-type channels (docs/whatsapp.md): webhook → verify → parse → one ingest
 * transaction → commit → 200; statuses as a monotonic max; outbound through the channel's
 * adapter over the SSRF-safe client; the 24-hour window checked before anything is stored.
 */

/** pt-BR answers of the WhatsApp paths (the seed quotes none of them). */
export const WHATSAPP_TEXTS = {
  channelNotFound: 'Canal não encontrado.',
  invalidSignature: 'Assinatura do webhook inválida.',
  missingSignature: 'Webhook sem assinatura.',
  invalidBody: 'Corpo do webhook inválido.',
  ingestFailed: 'Falha temporária ao registrar a mensagem. Tente novamente.',
  nothingToReload: 'Esta mensagem não tem mídia para recarregar.',
  mediaFetchFailed: 'Falha ao baixar a mídia do provedor. Tente novamente.',
  statusRetry: 'Status recebido antes da confirmação do envio; reenvie em instantes.',
  windowClosed: 'Fora da janela de 24 horas: o contato não responde há mais de 24 horas. Envie um template para retomar a conversa.',
} as const;

/** Channel types served by an adapter, and the adapter of each. */
const KIND_OF: Partial<Record<Channel['type'], ChannelKind>> = { meta: 'meta', dialog360: 'dialog360', zApi: 'zApi' };

/** Types under the Cloud API customer-service window (seed 001 §4 "Composer restriction"). */
const WINDOW_TYPES = new Set<string>(['wa', 'whatsapp', 'meta', 'dialog360']);
const WINDOW_MS = 24 * 60 * 60 * 1000;
/** How long a send without the provider's answer counts as in flight (receipts wait for it). */
const IN_FLIGHT_MS = 2 * 60 * 1000;

/** A receipt arrived before the answer of the send it belongs to. */
class StatusBeforeSendAnswer extends Error {
  constructor(readonly externalId: string) {
    super(`status for ${externalId} before the send answer`);
  }
}

export interface ProviderChannel {
  channel: Channel;
  kind: ChannelKind;
  config: ChannelConfig;
}

/**
 * Provider settings live in the channel row's `data.provider` (admin only). The chat
 * directory strips that key, so a Channel object never carries a credential; only this
 * function reads it.
 */
export async function loadProviderChannel(db: Db | Knex.Transaction, tenantId: string, channelId: string): Promise<ProviderChannel | null> {
  const row = await db('channels').where({ tenant_id: tenantId, id: channelId }).whereNull('deleted_at').first();
  if (!row || !row.active) return null;
  const kind = KIND_OF[String(row.type) as Channel['type']];
  const data = parseJson<Record<string, unknown>>(row.data, {});
  const provider = data.provider as ChannelConfig | undefined;
  if (!kind || !provider || typeof provider.baseUrl !== 'string') return null;
  const { provider: _secret, ...rest } = data;
  const channel = {
    phoneNumber: null, hide: false, color: null, menuOrder: 0, migrated: true, claims: {}, departmentId: null,
    ...rest, id: String(row.id), type: String(row.type), displayName: String(row.display_name), active: Boolean(row.active),
  } as Channel;
  return { channel, kind, config: provider };
}

export type ApplyStatusIn = (trx: Knex.Transaction, record: RecordChange, tenantId: string, message: Message, state: DeliveryState, errors?: MessageError[]) => Promise<unknown>;

export interface WebhookAnswer {
  status: number;
  /** JSON body, or text for the GET challenge. */
  body: unknown;
  text?: string;
  headers?: Record<string, string>;
}

export interface WhatsappOptions {
  /** The SSRF-safe client (server-wide trusted hosts only: explicit test/dev configuration). */
  fetch: typeof fetch;
  /** Our public base URL: providers download outbound media from `${publicUrl}/api/files/...`. */
  publicUrl: string;
  /** Back-off of retried sends (throttling 130429/131056, transient errors); default 3 attempts from 500 ms. */
  retry?: { attempts: number; baseDelayMs: number };
}

const EXT_OF_MIME: Record<string, string> = {
  'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp', 'image/gif': 'gif', 'video/mp4': 'mp4', 'video/3gpp': '3gp',
  'audio/ogg': 'ogg', 'audio/mpeg': 'mp3', 'audio/mp4': 'm4a', 'audio/aac': 'aac', 'application/pdf': 'pdf',
};

/** Provider sha256 (hex or base64) of the media bytes, when given. */
function shaMatches(expected: string | undefined, bytes: Buffer): boolean {
  if (!expected) return true;
  const digest = createHash('sha256').update(bytes).digest();
  return expected.toLowerCase() === digest.toString('hex') || expected === digest.toString('base64');
}

function adapterFactory(deps: ChatDeps, options: WhatsappOptions) {
  const adapterLogger = {
    info: (obj: object, msg?: string) => deps.logger.info(obj, msg),
    warn: (obj: object, msg?: string) => deps.logger.warn(obj, msg),
    error: (obj: object, msg?: string) => deps.logger.error(obj, msg),
  };

  return (found: ProviderChannel): ChannelAdapter => createChannelAdapter(found.kind, { fetch: options.fetch, logger: adapterLogger, config: found.config });
}

/**
 * The sender of WhatsApp-type rooms: the channel's adapter, with its settings loaded per send
 * (an admin may change them), plus the 24-hour window check `beforeSend`.
 */
export function createWhatsappSender(deps: ChatDeps, options: WhatsappOptions): ChannelSender {
  const adapterOf = adapterFactory(deps, options);
  const absolute = (path: string) => (/^https?:\/\//.test(path) ? path : `${options.publicUrl}${path}`);
  const through = async (ctx: OutboundContext): Promise<ChannelSender> => {
    const found = ctx.channel ? await loadProviderChannel(deps.db, ctx.tenantId, ctx.channel.id) : null;
    return createAdapterSender(() => {
      if (!found) throw new SendFailure([{ title: 'channel not configured', titleptBR: texts.chat.sendFailed }]);
      return adapterOf(found);
    }, absolute, options.retry);
  };
  return {
    inProcess: false,
    send: async (ctx) => (await through(ctx)).send(ctx),
    react: async (ctx, emoji) => (await through(ctx)).react(ctx, emoji),
    edit: async (ctx, text) => (await through(ctx)).edit(ctx, text),
    remove: async (ctx) => (await through(ctx)).remove(ctx),
    async markRead(tenantId, room, message) {
      const channelId = message.channelId ?? (Array.isArray(room.channelId) ? room.channelId[0] : room.channelId);
      const found = channelId && message.messageExtId ? await loadProviderChannel(deps.db, tenantId, String(channelId)) : null;
      if (found) await adapterOf(found).markRead(message.messageExtId!, room.chatId);
    },
    async beforeSend(trx, tenantId, room, kind) {
      // Templates are what the window allows; a channel without provider settings fails at send time ('Erro no Envio'), as before.
      if (kind === 'template') return;
      const channelId = Array.isArray(room.channelId) ? room.channelId[0] : room.channelId;
      if (channelId && (await loadProviderChannel(trx, tenantId, String(channelId)))) await assertWindowOpen(deps, trx, tenantId, room);
    },
  };
}

/**
 * Seed 001 §4 "Composer restriction": on Cloud API channels free-form messages need the
 * contact's last message within 24 hours (unknown contact: closed; a contact without the
 * whatsapp channel: not restricted). Refused with a 4xx before anything is stored or sent.
 */
export async function assertWindowOpen(deps: ChatDeps, trx: Knex.Transaction, tenantId: string, room: Room): Promise<void> {
  if (!WINDOW_TYPES.has(room.channel)) return;
  const channelId = Array.isArray(room.channelId) ? room.channelId[0] : room.channelId;
  const contact = room.author?.id ? await deps.contacts.findById(trx, tenantId, room.author.id) : null;
  if (!windowOpen(deps, contact, room.channel, channelId ? String(channelId) : null)) {
    throw new AppError(422, 'whatsapp_window_closed', WHATSAPP_TEXTS.windowClosed);
  }
}

/** The rule of `assertWindowOpen` for a contact and channel (also asked before an active message opens a room). */
export function windowOpen(deps: Pick<ChatDeps, 'clock'>, contact: Record<string, unknown> | null, channelType: string, channelId: string | null): boolean {
  if (!WINDOW_TYPES.has(channelType)) return true;
  if (contact && Array.isArray(contact.channels) && !contact.channels.includes('whatsapp')) return true;
  const last = contact && channelId ? contact[`${channelId}LastReply`] : null;
  const at = typeof last === 'string' ? Date.parse(last) : NaN;
  return Number.isFinite(at) && deps.clock.now().getTime() - at < WINDOW_MS;
}

/** True for channel types where only templates pass outside the window (Cloud API). */
export function hasWindow(channelType: string): boolean {
  return WINDOW_TYPES.has(channelType);
}

/** Inbound webhooks of WhatsApp-type channels. */
export function createWhatsappWebhooks(deps: ChatDeps, ingest: IngestService, statusIn: ApplyStatusIn, options: WhatsappOptions) {
  const { db, feed, blobs, logger, messages } = deps;
  const adapterOf = adapterFactory(deps, options);
  const templates = createWhatsappTemplateRepository(db);

  /** Downloads provider media (sha256-checked when given) into our blob store. */
  async function fetchToBlob(tenantId: string, adapter: ChannelAdapter, media: MediaRef): Promise<MediaRef> {
    const file = await adapter.fetchMedia(media);
    if (!shaMatches(media.sha256, file.bytes)) throw new Error('sha256 mismatch');
    const mimeType = (media.mimeType ?? file.mimeType).split(';')[0]!.trim().toLowerCase();
    const ext = EXT_OF_MIME[mimeType] ?? (media.fileName?.split('.').pop()?.toLowerCase().replace(/[^a-z0-9]/g, '').slice(0, 8) || 'bin');
    const stored = await blobs.put(tenantId, file.bytes, ext);
    return { ...media, url: stored.url, mimeType: media.mimeType ?? file.mimeType };
  }

  /**
   * Fetches an inbound message's media into our blob store right away (provider URLs expire);
   * on failure the reference stays and the console shows the error renderer ('recarregar').
   */
  async function storeMedia(tenantId: string, adapter: ChannelAdapter, item: InboundMessage): Promise<InboundMessage> {
    const media = item.content.media;
    if (!media || (!media.mediaId && !media.url)) return item;
    try {
      return { ...item, content: { ...item.content, media: await fetchToBlob(tenantId, adapter, media) } };
    } catch (error) {
      logger.warn({ err: error, tenantId, externalId: item.externalId }, 'whatsapp.media_fetch_failed');
      return item;
    }
  }

  /** Template status webhooks (APPROVED, REJECTED, PAUSED...) keep the stored templates fresh (table whatsapp_templates). */
  async function applyTemplateEvents(tenantId: string, channelId: string, events: TemplateEvent[]): Promise<void> {
    const now = deps.clock.now().toISOString();
    await db.transaction(async (trx) => {
      for (const event of events) {
        const changed = await templates.applyEvent(trx, tenantId, channelId, event, now);
        if (!changed) logger.info({ tenantId, channelId, template: event.name }, 'whatsapp.template_event_unknown');
      }
    });
  }

  /**
   * True while one of our sends on the channel may still be waiting for the provider's answer
   * (no external id, no status yet, recent): a receipt for an unknown id may be for it.
   */
  async function sendInFlight(trx: Knex.Transaction, tenantId: string, channelId: string): Promise<boolean> {
    const since = new Date(deps.clock.now().getTime() - IN_FLIGHT_MS).toISOString();
    const row = await trx('messages')
      .where({ tenant_id: tenantId, channel_id: channelId })
      .whereNull('external_id').whereNull('status')
      .andWhere('author_type', 'agent').andWhere('annotation', false).andWhere('created_at', '>=', since)
      .first('id');
    return Boolean(row);
  }

  /**
   * All statuses of one webhook in one transaction, each a monotonic max (read never goes
   * back). A receipt for an unknown id while one of our sends is in flight may have overtaken
   * the send's answer: the whole webhook is refused (503) so the provider delivers it again
   * once the id is stored. Otherwise unknown ids (sent from the phone app) are ignored.
   */
  async function applyStatuses(tenantId: string, channelId: string, statuses: StatusUpdate[]): Promise<void> {
    if (statuses.length === 0) return;
    await feed.transaction(tenantId, async (trx, record) => {
      for (const update of statuses) {
        const message = await messages.findByExternalId(trx, tenantId, channelId, update.externalId);
        if (!message && (await sendInFlight(trx, tenantId, channelId))) throw new StatusBeforeSendAnswer(update.externalId);
        if (!message) continue; // a message sent from elsewhere (the phone app): nothing to update
        const errors = update.errors?.map((e) => ({ title: e.title, code: e.code, ...(e.titleptBR && { titleptBR: e.titleptBR }) }));
        await statusIn(trx, record, tenantId, message, update.status, errors);
      }
    });
  }

  return {
    /**
     * One webhook delivery. Answers 2xx only after everything it carried is committed (or was
     * already there), so the provider's retry is the recovery path for any failure.
     */
    async handleWebhook(tenantId: string, channelId: string, request: WebhookRequest): Promise<WebhookAnswer> {
      const found = await loadProviderChannel(db, tenantId, channelId);
      if (!found) return { status: 404, body: { error: 'channel_not_found', errorMessage: WHATSAPP_TEXTS.channelNotFound } };
      const adapter = adapterOf(found);
      const verdict = adapter.verifyWebhook(request);
      if (verdict.kind === 'challenge') return { status: 200, body: null, text: verdict.challenge };
      if (verdict.kind === 'rejected') {
        logger.warn({ tenantId, channelId, reason: verdict.reason }, 'whatsapp.webhook_rejected');
        return { status: verdict.status, body: { error: verdict.status === 401 ? 'missing_signature' : 'invalid_signature', errorMessage: verdict.status === 401 ? WHATSAPP_TEXTS.missingSignature : WHATSAPP_TEXTS.invalidSignature } };
      }
      if (request.method !== 'POST') return { status: 405, body: { error: 'method_not_allowed', errorMessage: WHATSAPP_TEXTS.invalidBody } };
      let body: unknown;
      try {
        body = JSON.parse(request.rawBody.toString('utf8'));
      } catch {
        return { status: 400, body: { error: 'bad_request', errorMessage: WHATSAPP_TEXTS.invalidBody } };
      }
      const parsed = adapter.parseWebhook(body);
      try {
        // Media first (outside the transaction; skipped for deliveries we already stored).
        const items: InboundItem[] = [];
        for (const item of parsed.messages) {
          if (!item.contact.phone && !item.contact.userId) continue;
          const known = item.content.media ? await messages.findByExternalId(db, tenantId, channelId, item.externalId) : null;
          items.push(known ? item : await storeMedia(tenantId, adapter, item));
        }
        const results = await ingest.ingestInbound(tenantId, found.channel, items);
        await applyStatuses(tenantId, channelId, parsed.statuses);
        if (parsed.templateEvents.length) await applyTemplateEvents(tenantId, channelId, parsed.templateEvents);
        return { status: 200, body: { data: { messages: results.length, created: results.filter((r) => r.created).length, statuses: parsed.statuses.length } } };
      } catch (error) {
        if (error instanceof StatusBeforeSendAnswer) {
          logger.info({ tenantId, channelId, externalId: error.externalId }, 'whatsapp.status_before_send_answer');
          return { status: 503, body: { error: 'status_retry', errorMessage: WHATSAPP_TEXTS.statusRetry }, headers: { 'Retry-After': '1' } };
        }
        logger.error({ err: error, tenantId, channelId }, 'whatsapp.ingest_failed');
        return { status: 503, body: { error: 'ingest_failed', errorMessage: WHATSAPP_TEXTS.ingestFailed }, headers: { 'Retry-After': '5' } };
      }
    },

    /**
     * POST /api/cronjob/proccess/syncTemplates: pages through each Cloud API channel's
     * template list and stores it in `whatsapp_templates` (rows the provider no longer lists go).
     * All channels or nothing: a failure answers 'Falha ao Sincronizar' and leaves the
     * previous rows.
     */
    async syncTemplates(tenantId: string): Promise<{ channels: number; templates: number }> {
      const rows = await db('channels').where({ tenant_id: tenantId, active: true }).whereNull('deleted_at').whereIn('type', ['meta', 'dialog360']);
      const lists: { id: string; origin: string; templates: ProviderTemplate[] }[] = [];
      for (const row of rows) {
        const found = await loadProviderChannel(db, tenantId, String(row.id));
        if (!found) continue;
        const adapter = adapterOf(found);
        const list: ProviderTemplate[] = [];
        let next: string | undefined;
        try {
          for (let page = 0; page < 100; page++) {
            const answer = await adapter.listTemplates(next);
            list.push(...answer.templates);
            if (!answer.next) break;
            next = answer.next;
          }
        } catch (error) {
          logger.warn({ err: error, tenantId, channelId: row.id }, 'whatsapp.template_sync_failed');
          throw new AppError(502, 'template_sync_failed', texts.chat.templatesSyncFailed);
        }
        lists.push({ id: String(row.id), origin: String(row.type), templates: list });
      }
      const now = deps.clock.now().toISOString();
      await db.transaction(async (trx) => {
        for (const list of lists) await templates.replaceChannel(trx, tenantId, list.id, list.origin, list.templates, now);
      });
      return { channels: lists.length, templates: lists.reduce((n, l) => n + l.templates.length, 0) };
    },

    /**
     * GET /api/templates: one page of the tenant's stored templates (filters: channel, status,
     * languages, name), grouped in sets per channel (seed 001 §3 "Template message set").
     */
    async templates(tenantId: string, query: TemplateQuery): Promise<TemplatesAnswer> {
      const { rows, count } = await templates.page(tenantId, query);
      const sets: TemplateSet[] = [];
      for (const { channelId, ...template } of rows) {
        const last = sets.at(-1);
        if (last && last.channels[0] === channelId) last.templates.push(template);
        else sets.push({ channels: [channelId], origin: template.origin, templates: [template] });
      }
      const next = query.offset + rows.length < count && rows.length > 0 ? query.offset + rows.length : null;
      return { meta: { count, limit: query.limit, offset: query.offset, next }, data: sets };
    },

    /**
     * 'recarregar' (PATCH /api/rooms/{id}/reloadMessage): fetches again the media of an inbound
     * message whose first fetch failed, from the reference WE stored (never a URL the caller
     * sends), and replaces the error placeholder with the stored file.
     */
    async reloadMedia(tenantId: string, viewer: Viewer, config: AppConfig, roomId: string, messageId: string): Promise<Message> {
      const room = await deps.rooms.findById(tenantId, roomId);
      if (!room || !canSee(viewer, config, room)) throw notFound();
      const message = await messages.findById(tenantId, messageId);
      if (!message || message.roomId !== room.id) throw notFound();
      const ref = message.error as { type?: string; mediaId?: string; url?: string; mimeType?: string; fileName?: string } | null | undefined;
      if (!ref || (!ref.mediaId && !ref.url) || !['image', 'video', 'audio', 'document', 'sticker'].includes(String(ref.type))) {
        throw badRequest('nothing_to_reload', WHATSAPP_TEXTS.nothingToReload);
      }
      const channelId = message.channelId ?? (Array.isArray(room.channelId) ? room.channelId[0] : room.channelId);
      const found = channelId ? await loadProviderChannel(db, tenantId, String(channelId)) : null;
      if (!found) throw notFound('channel_not_found', WHATSAPP_TEXTS.channelNotFound);
      let media: MediaRef;
      try {
        media = await fetchToBlob(tenantId, adapterOf(found), { mediaId: ref.mediaId, url: ref.url, mimeType: ref.mimeType, fileName: ref.fileName });
      } catch (error) {
        logger.warn({ err: error, tenantId, messageId }, 'whatsapp.media_reload_failed');
        throw new AppError(502, 'media_fetch_failed', WHATSAPP_TEXTS.mediaFetchFailed);
      }
      return feed.transaction(tenantId, async (trx, record) => {
        const current = await messages.findById(tenantId, messageId, trx);
        if (!current) throw notFound();
        const { error: _placeholder, ...rest } = current;
        const next = { ...rest, ...mediaFields({ type: String(ref.type), caption: current.caption ?? undefined, media }), lifeControl: { ...current.lifeControl, updatedAt: deps.clock.now().toISOString() } } as Message;
        await messages.save(trx, tenantId, next);
        record({ collection: 'messages', id: next.id, op: 'upsert' });
        return next;
      });
    },
  };
}

export type WhatsappWebhooks = ReturnType<typeof createWhatsappWebhooks>;
