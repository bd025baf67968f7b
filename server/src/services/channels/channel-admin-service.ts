import { randomBytes } from 'node:crypto';
import { Ajv } from 'ajv';
import { AJV_OPTIONS, configureAjv, fieldErrors, type RegisterSchema } from '@atendimento/schemas/registers/index';
import {
  adapterOf, CHANNEL_ADMIN_SCHEMA, CHANNEL_TABLE, configurableChannelTypes, format, isWebchat, messages as texts, setSettingAt, settingAt, settingsFormOf, WEBHOOK_SECRET_FIELDS,
  type Channel, type ChannelAdminInput, type ChannelAdminView, type ChannelType,
} from '@atendimento/schemas';
import { createChannelAdapter, hasChannelAdapter, ProviderError, type ChannelConfig } from '@atendimento/integrations';
import { folderHasMessageId } from '@atendimento/integrations/mail/imap-inbox';
import { badRequest, notFound, validationError } from '../../errors';
import type { ChannelAdminRepository, ChannelAdminRow } from '../../db/repositories/channel-admin-repository';
import type { TenantRow } from '../../db/repositories/tenant-repository';
import type { ChangeFeed } from '../changes/change-feed';
import type { Clock } from '../../clock';
import type { Logger } from '../../logger';

/** Live collection of channels (seed 002 §7). */
export const CHANNELS_COLLECTION = 'channels';

/** How long a replaced webhook secret still verifies (in-flight and retried deliveries). */
export const SECRET_GRACE_MS = 24 * 3600_000;


export interface ChannelAdminDeps {
  repo: ChannelAdminRepository;
  changes: ChangeFeed;
  clock: Clock;
  logger: Logger;
  /** The SSRF-safe client providers are called with. */
  fetch: typeof fetch;
}

const ajv = configureAjv(new Ajv({ ...AJV_OPTIONS }));
const validateCommon = ajv.compile(CHANNEL_ADMIN_SCHEMA);

/**
 * The channels screen (docs/channels.md "The channels screen"): list, create, change, switch
 * off and test channels without touching the database. Secrets are write-only: a view says
 * only whether each is set; an empty secret in a save keeps the stored one.
 */
export function createChannelAdminService(deps: ChannelAdminDeps) {
  const { repo, changes, clock, logger } = deps;

  function view(row: ChannelAdminRow, baseUrl: string): ChannelAdminView {
    const { channel, settings } = row;
    const form = settingsFormOf(channel.type);
    const plain: Record<string, unknown> = {};
    const secretsSet: Record<string, boolean> = {};
    for (const field of form?.fields ?? []) {
      const value = settingAt(settings, field.path);
      if (field.secret) secretsSet[field.path] = typeof value === 'string' && value.length > 0;
      else if (value !== undefined) setSettingAt(plain, field.path, value);
    }
    const hook = `${baseUrl}/api/webhooks/whatsapp/${channel.id}`;
    return {
      id: channel.id,
      type: channel.type,
      displayName: channel.displayName,
      departmentId: channel.departmentId,
      color: channel.color,
      menuOrder: channel.menuOrder,
      hide: channel.hide,
      active: channel.active,
      phoneNumber: channel.phoneNumber,
      claims: channel.claims ?? {},
      ...(channel.webchat && { webchat: channel.webchat }),
      settings: plain,
      secretsSet,
      webhookUrl: !form || form.noWebhook ? null : form.secretInUrl ? `${hook}/{segredo}` : hook,
      ...(isWebchat(channel.type) && { snippet: `<script src="${baseUrl}/api/webchat/${channel.id}/widget.js" async></script>` }),
    };
  }

  /** The provider settings of a save: the form's fields only, secrets kept when left empty. */
  function mergeSettings(type: string, input: Record<string, unknown> | undefined, stored: Record<string, unknown> | null, now: Date): Record<string, unknown> | null {
    const form = settingsFormOf(type);
    if (!form || form.fields.length === 0) return stored;
    const known = new Set(form.fields.map((f) => f.path));
    const flat: Record<string, unknown> = {};
    const flatten = (node: Record<string, unknown>, prefix: string) => {
      for (const [key, value] of Object.entries(node)) {
        const path = prefix ? `${prefix}.${key}` : key;
        if (value && typeof value === 'object' && !Array.isArray(value) && !known.has(path)) flatten(value as Record<string, unknown>, path);
        else flat[path] = value;
      }
    };
    flatten(input ?? {}, '');
    const unknown = Object.keys(flat).find((path) => !known.has(path));
    if (unknown) throw validationError([{ field: `settings.${unknown}`, message: format(texts.channelAdmin.settingUnknown, { key: unknown }) }]);

    const next: Record<string, unknown> = structuredClone(stored ?? {});
    const previous: Record<string, unknown> = {};
    const problems: { field: string; message: string }[] = [];
    for (const field of form.fields) {
      let value = flat[field.path];
      const current = settingAt(stored, field.path);
      if (value === undefined || value === null || value === '') {
        if (field.secret || current !== undefined) {
          if (current === undefined && field.required) problems.push({ field: `settings.${field.path}`, message: format(texts.channelAdmin.settingRequired, { label: field.label }) });
          continue; // secrets and stored values are kept when the field is left empty
        }
        if (field.generated) value = randomBytes(16).toString('hex');
        else if (field.default !== undefined) value = field.default;
        else {
          if (field.required) problems.push({ field: `settings.${field.path}`, message: format(texts.channelAdmin.settingRequired, { label: field.label }) });
          continue;
        }
      }
      const kind = field.kind ?? 'text';
      if (kind === 'number') value = Number(value);
      const valid = kind === 'number' ? Number.isInteger(value) && (value as number) > 0 && (value as number) < 65536
        : kind === 'boolean' ? typeof value === 'boolean'
        : typeof value === 'string' && value.length <= 2000 && (field.path !== 'baseUrl' || /^https?:\/\/[^\s]+$/.test(value));
      if (!valid) {
        problems.push({ field: `settings.${field.path}`, message: format(texts.channelAdmin.settingInvalid, { label: field.label }) });
        continue;
      }
      if (typeof value === 'string') value = value.trim();
      if (WEBHOOK_SECRET_FIELDS.includes(field.path) && typeof current === 'string' && current !== value) previous[field.path] = current;
      setSettingAt(next, field.path, value);
    }
    if (problems.length) throw validationError(problems);
    delete next.demo; // saved from the screen: the demo wiring no longer owns it
    const kept = next.previous as Record<string, unknown> | undefined;
    if (Object.keys(previous).length > 0) next.previous = { ...(kept && Date.parse(String(kept.until)) > now.getTime() ? kept : {}), ...previous, until: new Date(now.getTime() + SECRET_GRACE_MS).toISOString() };
    return next;
  }

  function checkCommon(input: unknown): ChannelAdminInput {
    if (!input || typeof input !== 'object' || Array.isArray(input)) throw validationError([{ field: 'displayName', message: 'Informe o nome do canal' }]);
    const body = input as Record<string, unknown>;
    if (typeof body.displayName === 'string') body.displayName = body.displayName.trim();
    if (!validateCommon(body)) throw validationError(fieldErrors(CHANNEL_ADMIN_SCHEMA as unknown as RegisterSchema, validateCommon.errors ?? []));
    return body as unknown as ChannelAdminInput;
  }

  async function save(tenant: TenantRow, id: string | null, raw: unknown, baseUrl: string): Promise<ChannelAdminView> {
    const input = checkCommon(raw);
    const existing = id ? await repo.find(tenant.id, id) : null;
    if (id && !existing) throw notFound('channel_not_found', texts.channelAdmin.notFound);
    const type = existing ? existing.channel.type : String(input.type ?? '');
    if (existing && input.type !== undefined && input.type !== type) throw validationError([{ field: 'type', message: texts.channelAdmin.typeLocked }]);
    if (!existing && !configurableChannelTypes().includes(type as ChannelType)) throw validationError([{ field: 'type', message: texts.channelAdmin.typeUnknown }]);
    const departmentId = input.departmentId === undefined ? existing?.channel.departmentId ?? null : input.departmentId;
    if (departmentId && !(await repo.departmentExists(tenant.id, departmentId))) throw validationError([{ field: 'departmentId', message: texts.channelAdmin.departmentUnknown }]);
    const now = clock.now();
    const settings = mergeSettings(type, input.settings, existing?.settings ?? null, now);
    const base: Channel = existing?.channel ?? {
      id: `ch-${randomBytes(8).toString('hex')}`, type: type as ChannelType, displayName: '', phoneNumber: null, hide: false, active: true, color: null, menuOrder: 0, migrated: true, claims: {}, departmentId: null,
    };
    const channel: Channel = {
      ...base,
      displayName: input.displayName,
      departmentId,
      ...(input.color !== undefined && { color: input.color }),
      ...(input.menuOrder !== undefined && { menuOrder: input.menuOrder }),
      ...(input.hide !== undefined && { hide: input.hide }),
      ...(input.active !== undefined && { active: input.active }),
      ...(input.phoneNumber !== undefined && { phoneNumber: input.phoneNumber }),
      ...(input.claims && { claims: input.claims }),
      ...(isWebchat(type as ChannelType) && input.webchat && { webchat: input.webchat }),
    };
    await changes.transaction(tenant.id, async (trx, record) => {
      await repo.save(trx, tenant.id, channel, settings, now.toISOString());
      record({ collection: CHANNELS_COLLECTION, id: channel.id, op: 'upsert' });
    });
    // Names and ids only: never the settings (docs/channels.md "Secrets").
    logger.info({ tenantId: tenant.id, channelId: channel.id, type, created: !existing }, 'channels.saved');
    return view({ channel, settings }, baseUrl);
  }

  async function test(tenant: TenantRow, id: string): Promise<{ ok: boolean; message: string }> {
    const row = await repo.find(tenant.id, id);
    if (!row) throw notFound('channel_not_found', texts.channelAdmin.notFound);
    const t = texts.channelAdmin;
    if (isWebchat(row.channel.type)) return { ok: true, message: t.testWebchatOk };
    if (!row.settings) return { ok: false, message: t.testNotConfigured };
    const form = settingsFormOf(row.channel.type);
    if (!form) return { ok: false, message: t.testUnsupported };
    try {
      const kind = adapterOf(row.channel.type);
      if (kind === 'mail') {
        const imap = row.settings.imap as Parameters<typeof folderHasMessageId>[0];
        await folderHasMessageId(imap, String((imap as { mailbox?: string }).mailbox ?? 'INBOX'), '<teste-de-conexao@atendimento.local>');
        return { ok: true, message: t.testMailOk };
      }
      if (!kind || !hasChannelAdapter(kind)) return { ok: false, message: t.testUnsupported };
      const adapter = createChannelAdapter(kind, { fetch: deps.fetch, logger, config: row.settings as unknown as ChannelConfig });
      if (!adapter.checkConnection) return { ok: false, message: t.testUnsupported };
      const answer = await adapter.checkConnection();
      return { ok: true, message: answer.detail ? `${t.testOk} (${answer.detail})` : t.testOk };
    } catch (error) {
      logger.info({ tenantId: tenant.id, channelId: id, code: error instanceof ProviderError ? error.code : 'error' }, 'channels.test_failed');
      if (error instanceof ProviderError) {
        if (error.httpStatus === 401 || error.httpStatus === 403 || error.code === 190) return { ok: false, message: t.testUnauthorized };
        if (error.httpStatus === 404) return { ok: false, message: t.testNotFound };
        if (error.httpStatus === 0) return { ok: false, message: t.testUnreachable };
        return { ok: false, message: format(t.testFailed, { detail: error.titlePtBR }) };
      }
      return { ok: false, message: format(t.testFailed, { detail: t.testUnreachable }) };
    }
  }

  return {
    view,
    async list(tenant: TenantRow, baseUrl: string): Promise<ChannelAdminView[]> {
      return (await repo.list(tenant.id)).map((row) => view(row, baseUrl));
    },
    async get(tenant: TenantRow, id: string, baseUrl: string): Promise<ChannelAdminView> {
      const row = await repo.find(tenant.id, id);
      if (!row) throw notFound('channel_not_found', texts.channelAdmin.notFound);
      return view(row, baseUrl);
    },
    create: (tenant: TenantRow, input: unknown, baseUrl: string) => save(tenant, null, input, baseUrl),
    update: (tenant: TenantRow, id: string, input: unknown, baseUrl: string) => save(tenant, id, input, baseUrl),
    test,
    departments: (tenant: TenantRow) => repo.departments(tenant.id),
    /** Types 'Novo canal' offers, with their label and settings form. */
    types() {
      return configurableChannelTypes().map((type) => ({ type, label: CHANNEL_TABLE[type].label, form: settingsFormOf(type)! }));
    },
  };
}

export type ChannelAdminService = ReturnType<typeof createChannelAdminService>;

/** Guards a body id. */
export function channelIdOf(value: unknown): string {
  if (typeof value !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(value)) throw badRequest('invalid_id', texts.channelAdmin.notFound);
  return value;
}
