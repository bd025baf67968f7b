import { randomUUID } from 'node:crypto';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { stringify } from 'csv-stringify/sync';
import { channelIs, format, messages } from '@atendimento/schemas';
import {
  campaignCreateSchema, campaignPatchSchema, campaignStatusText, templateHeaderMedia, templateParamCount,
  type Campaign, type CampaignCreateInput, type CampaignCounters, type CampaignMessage,
} from '@atendimento/schemas/campaigns';
import type { Clock } from '../../clock';
import type { CampaignRepository, CampaignRow, MessageFilter } from '../../db/repositories/campaign-repository';
import { AppError, badRequest, notFound } from '../../errors';
import type { Logger } from '../../logger';
import type { ChangeFeed } from '../changes/change-feed';
import type { ProviderChannels } from '../whatsapp/provider-channels';
import { checkCampaignCsv, rejectedCsv } from './csv-upload';

const t = messages.campaigns;

/** The live collection of campaigns: an event per campaign whose counters or state changed. */
export const CAMPAIGNS_COLLECTION = 'notifications';

const ajv = new Ajv({ allErrors: true, strict: false });
const compiled = new Map<object, ValidateFunction>();

/** The `errorMessage` the schema puts beside the failing property (the form shows the same text). */
function messageFor(schema: Record<string, any>, error: ErrorObject): { field: string; message: string } {
  const path = error.instancePath.split('/').filter(Boolean);
  const missing = error.keyword === 'required' ? (error.params as { missingProperty: string }).missingProperty : null;
  const field = [...path, ...(missing ? [missing] : [])];
  let node: Record<string, any> | undefined = schema;
  // The failing property's own message, else its nearest parent's (a template parameter left
  // empty said 'Escolha um template aprovado' until its items got a message of their own).
  let message: string | undefined;
  for (const key of field) {
    node = node?.properties?.[key] ?? node?.items;
    if (typeof node?.errorMessage === 'string') message = node.errorMessage;
  }
  return { field: field.join('.') || '(body)', message: missing && !message ? messages.validation.requiredField : message ?? messages.validation.invalidValue };
}

/** Validates a body with one of the campaign schemas (schemas/src/campaigns.ts); 400 with pt-BR messages. */
export function validateCampaign<T>(schema: object, body: unknown): T {
  let validate = compiled.get(schema);
  if (!validate) compiled.set(schema, (validate = ajv.compile(schema)));
  if (!validate(body)) {
    const seen = new Set<string>();
    const fields = (validate.errors ?? []).map((e) => messageFor(schema as Record<string, any>, e)).filter((f) => (seen.has(f.field) ? false : (seen.add(f.field), true)));
    throw badRequest('validation_failed', fields[0]?.message ?? messages.validation.invalidValue, fields);
  }
  return body as T;
}

/** Multipart fields are strings: JSON for objects, 'true'/'false' for switches, '' for nothing. */
export function campaignInputFromFields(fields: Record<string, string>): unknown {
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(fields)) {
    const value = raw.trim();
    if (key === 'template' || key === 'file') {
      if (value === '') continue;
      try {
        out[key] = JSON.parse(value);
      } catch {
        throw badRequest('validation_failed', key === 'template' ? t.templateNotApproved : messages.validation.invalidValue, [{ field: key, message: messages.validation.invalidValue }]);
      }
    } else if (['comercialTime', 'weekEnd', 'confirmValid'].includes(key)) out[key] = value === 'true' || value === '1' || value === 'sim';
    else if (value !== '') out[key] = value;
  }
  return out;
}

export interface UploadPreview {
  validCount: number;
  rejectedCount: number;
  /** The first rejected rows (line, chatId cell, reason) for the preview table. */
  rejected: { line: number; chatId: string; displayName: string; reason: string }[];
  /** Every rejected row as a ';' CSV (file's columns + linha + motivo); null when none. */
  rejectedCsv: string | null;
  /** The first valid rows (chatId, displayName, text) so the user sees what will go. */
  sample: { line: number; chatId: string; displayName: string | null; text: string }[];
}

export interface CampaignDeps {
  repo: CampaignRepository;
  feed: ChangeFeed;
  clock: Clock;
  logger: Logger;
  providers: ProviderChannels;
}

/**
 * Campaigns (docs/campaigns.md): the upload (checked row by row, previewed, created only from
 * a clean file or with the user's confirmation), the list and detail reads, pause/unpause.
 * The send queue (send-queue.ts) does the sending.
 */
export function createCampaignService(deps: CampaignDeps) {
  const { repo, feed, clock } = deps;

  /** Channel, template and parameters of the form; answers the template's components. */
  async function checkSettings(tenantId: string, input: CampaignCreateInput): Promise<unknown[]> {
    const found = await deps.providers.find(tenantId, input.channelId);
    if (!found || !channelIs(found.channel.type, 'templates')) throw badRequest('campaign_channel_invalid', t.channelInvalid, [{ field: 'channelId', message: t.channelInvalid }]);
    const template = await repo.approvedTemplate(tenantId, input.channelId, input.template.name, input.template.language);
    if (!template) throw badRequest('campaign_template_invalid', t.templateNotApproved, [{ field: 'template', message: t.templateNotApproved }]);
    const wanted = templateParamCount(template.components);
    if ((input.template.params ?? []).length !== wanted) {
      const message = format(t.paramCount, { template: input.template.name, n: wanted });
      throw badRequest('campaign_template_params', message, [{ field: 'template.params', message }]);
    }
    if (input.flow?.trim() && !(await repo.flow(tenantId, input.flow.trim()))) throw badRequest('campaign_flow_invalid', t.flowInvalid, [{ field: 'flow', message: t.flowInvalid }]);
    if (templateHeaderMedia(template.components) && !input.file?.mediaUrl) throw badRequest('campaign_header_media', t.headerMediaRequired, [{ field: 'file', message: t.headerMediaRequired }]);
    const startsAt = `${input.startDate ?? ''}T${input.startAt ?? '00:00'}`;
    const endsAt = `${input.endDate ?? ''}T${input.endAt ?? '23:59'}`;
    if (input.startDate && input.endDate && endsAt <= startsAt) throw badRequest('campaign_window_invalid', t.windowInvalid, [{ field: 'endDate', message: t.windowInvalid }]);
    return template.components;
  }

  async function check(tenantId: string, input: CampaignCreateInput, file: Buffer | null) {
    if (!file) throw badRequest('campaign_file_required', t.fileRequired, [{ field: 'file', message: t.fileRequired }]);
    const components = await checkSettings(tenantId, input);
    const result = await checkCampaignCsv(file, input.template.params ?? [], components, (phones) => repo.blockedPhones(tenantId, phones));
    return { components, result };
  }

  function previewOf(result: Awaited<ReturnType<typeof check>>['result']): UploadPreview {
    const chatIdIndex = Math.max(0, result.header.findIndex((h) => /^(chatid|telefone|phone|numero|número|celular|whatsapp)$/i.test(h)));
    const nameIndex = result.header.findIndex((h) => /^(displayname|nome|name)$/i.test(h));
    return {
      validCount: result.valid.length,
      rejectedCount: result.rejected.length,
      rejected: result.rejected.slice(0, 200).map((r) => ({ line: r.line, chatId: r.cells[chatIdIndex] ?? '', displayName: nameIndex >= 0 ? r.cells[nameIndex] ?? '' : '', reason: r.reason })),
      rejectedCsv: result.rejected.length ? rejectedCsv(result) : null,
      sample: result.valid.slice(0, 20).map((r) => ({ line: r.line, chatId: r.chatId, displayName: r.displayName, text: r.text })),
    };
  }

  async function withCounters(row: CampaignRow, counters?: CampaignCounters): Promise<Campaign> {
    const { tenantId: _t, total: _n, createdBy: _c, ...campaign } = row;
    return { ...campaign, counters: counters ?? (await repo.counters(row.tenantId, row.id)) };
  }

  async function get(tenantId: string, id: string): Promise<CampaignRow> {
    const row = await repo.find(tenantId, id);
    if (!row) throw notFound('campaign_not_found', t.notFound);
    return row;
  }

  return {
    /** POST /api/notifications/preview: the checks without storing anything. */
    async preview(tenantId: string, fields: Record<string, string>, file: Buffer | null): Promise<UploadPreview> {
      const input = validateCampaign<CampaignCreateInput>(campaignCreateSchema, campaignInputFromFields(fields));
      return previewOf((await check(tenantId, input, file)).result);
    },

    /**
     * POST /api/notifications: creates the campaign and queues one job per valid row, in one
     * transaction. Rejected rows stop it (422 with the preview) unless `confirmValid`.
     */
    async create(tenantId: string, userId: string, fields: Record<string, string>, file: Buffer | null): Promise<{ campaign: Campaign; preview: UploadPreview }> {
      const input = validateCampaign<CampaignCreateInput>(campaignCreateSchema, campaignInputFromFields(fields));
      const { result } = await check(tenantId, input, file);
      const preview = previewOf(result);
      if (result.valid.length === 0) throw new AppError(422, 'campaign_no_valid_rows', t.noValidRows, { fields: [{ field: 'file', message: t.noValidRows }] });
      if (result.rejected.length > 0 && !input.confirmValid) {
        throw new AppError(422, 'campaign_has_rejected_rows', t.hasRejected, { data: preview });
      }
      const now = clock.now().toISOString();
      const id = randomUUID();
      const row: Omit<CampaignRow, 'tenantId'> = {
        id, name: input.name.trim(), channelId: input.channelId, template: { name: input.template.name, language: input.template.language, params: input.template.params ?? [] },
        defaultReply: input.defaultReply ?? null, tag: input.tag ?? null, description: input.description ?? null, flow: input.flow ?? null, file: input.file ?? null,
        startDate: input.startDate ?? null, endDate: input.endDate ?? null, startAt: input.startAt ?? null, endAt: input.endAt ?? null,
        comercialTime: input.comercialTime ?? false, weekEnd: input.weekEnd ?? true, paused: false, proccessed: false, proccessedAt: null, campaign: true,
        total: result.valid.length, createdBy: userId, lifeControl: { createdAt: now, deletedAt: null },
      };
      const { id: _i, name: _n, channelId: _c, paused: _p, proccessed: _pr, proccessedAt: _pa, campaign: _cp, total: _t, createdBy: _cb, lifeControl: _l, ...data } = row;
      await feed.transaction(tenantId, async (trx, record) => {
        await repo.insertCampaign(trx, tenantId, row, data);
        await repo.insertMessages(trx, tenantId, id, input.channelId, result.valid.map((v) => ({ row: v.line, id: randomUUID(), chatId: v.chatId, displayName: v.displayName, params: v.params, text: v.text })), now);
        record({ collection: CAMPAIGNS_COLLECTION, id, op: 'upsert' });
      });
      return { campaign: await withCounters({ ...row, tenantId }), preview };
    },

    /** GET /api/notifications/options: the channels and approved templates the upload form offers. */
    options: (tenantId: string) => repo.uploadOptions(tenantId),

    /** GET /api/notifications: newest first; `external` false keeps campaign=true only (seed toggle off). */
    async list(tenantId: string, options: { external: boolean; limit: number; offset: number }): Promise<{ data: Campaign[]; total: number }> {
      const { rows, count } = await repo.list(tenantId, options);
      const counters = await repo.countersOf(tenantId, rows.map((r) => r.id));
      return { data: await Promise.all(rows.map((r) => withCounters(r, counters.get(r.id) ?? { total: 0, done: 0, sent: 0, delivered: 0, read: 0, interacted: 0, clicked: 0, error: 0 }))), total: count };
    },

    async get(tenantId: string, id: string): Promise<Campaign> {
      return withCounters(await get(tenantId, id));
    },

    async counters(tenantId: string, id: string): Promise<CampaignCounters> {
      await get(tenantId, id);
      return repo.counters(tenantId, id);
    },

    async messages(tenantId: string, id: string, filter: MessageFilter): Promise<{ data: (CampaignMessage & { statusText: string })[]; total: number }> {
      const campaign = await get(tenantId, id);
      const { rows, count } = await repo.messages(tenantId, campaign, filter);
      return { data: rows.map((m) => ({ ...m, statusText: campaignStatusText(m.status) })), total: count };
    },

    /** The message table as a ';' CSV (the detail screen's export), with the same filters. */
    async exportCsv(tenantId: string, id: string, filter: Omit<MessageFilter, 'limit' | 'offset'>): Promise<{ name: string; csv: string }> {
      const campaign = await get(tenantId, id);
      const lines: string[][] = [[t.colDisplayName, t.colChatId, t.colStatus, t.colAnswer]];
      for (let offset = 0; ; offset += 1000) {
        const { rows } = await repo.messages(tenantId, campaign, { ...filter, limit: 1000, offset });
        for (const m of rows) lines.push([m.displayName ?? '', m.chatId, campaignStatusText(m.status), m.answer ?? ''].map((v) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v)));
        if (rows.length < 1000) break;
      }
      return { name: `campanha-${campaign.name.replace(/[^\w-]+/g, '_').slice(0, 60)}.csv`, csv: stringify(lines, { delimiter: ';' }) };
    },

    /**
     * PATCH /api/notifications/{id} (seed 000 §4): pause sets paused true, unpause false; only
     * while not proccessed. The queue re-reads the flag while it sends, so it holds within a second.
     */
    async setPaused(tenantId: string, id: string, body: unknown): Promise<Campaign> {
      const { paused } = validateCampaign<{ paused: boolean }>(campaignPatchSchema, body);
      const now = clock.now().toISOString();
      await feed.transaction(tenantId, async (trx, record) => {
        const row = await repo.lock(trx, tenantId, id);
        if (!row || row.lifeControl.deletedAt) throw notFound('campaign_not_found', t.notFound);
        if (row.proccessed) throw new AppError(409, 'campaign_proccessed', t.alreadyProccessed);
        await repo.setPaused(trx, tenantId, id, paused, now);
        record({ collection: CAMPAIGNS_COLLECTION, id, op: 'upsert' });
      });
      return withCounters(await get(tenantId, id));
    },
  };
}

export type CampaignService = ReturnType<typeof createCampaignService>;
