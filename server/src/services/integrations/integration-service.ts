import type { Transaction } from '../../db/knex';
import { randomUUID } from 'node:crypto';
import { format, isStranger, messages, type Filter } from '@atendimento/schemas';
import { compactRecord, fieldErrors, normaliseRecord, withNulls, type RegisterDefinition, type RegisterSchema } from '@atendimento/schemas/registers/index';
import { integrationRegister, mayUseIntegration, objectSchemaOrNull, INTEGRATION_MESSAGES, type IntegrationDefinition, type ChatIntegrationSection, type IntegrationView as SharedIntegrationView } from '@atendimento/schemas/integrations/index';
import type { Clock } from '../../clock';
import type { Logger } from '../../logger';
import { forbidden, badRequest, notFound, validationError } from '../../errors';
import { queryFields, type RecordData, type RegisterRepository, type RegisterTable } from '../../db/repositories/register-repository';
import { checkRegisterFilter, RegisterFilterError, type FieldSpecs } from '../../db/repositories/register-sql';
import type { IntegrationRecordRepository } from '../../db/repositories/integration-record-repository';
import type { ChangeFeed } from '../changes/change-feed';
import { erpFailure, type ErpService } from '../erp/erp-service';
import type { Caller } from '../registers/register-service';
import type { ParsedListQuery } from '../registers/register-query';
import { registerTable } from '../registers/register-tables';
import { schemaVersion } from '../registers/validator-module';
import { compileIntegrationSchema, schemaProblem } from './integration-schema';

/** A caller of the integrations API: the user plus the departments listing them (agent or supervisor). */
export interface IntegrationCaller extends Caller {
  departments: readonly string[];
}

/** One integration as this caller may use it: the definition and the register it renders as. */
interface ResolvedIntegration {
  integration: IntegrationDefinition;
  definition: RegisterDefinition;
  table: RegisterTable;
  fields: FieldSpecs;
}

/** What the engine needs to draw an integration's menu entry and screens (engine/src/registers/definitions.ts RegisterView). */
export type IntegrationView = SharedIntegrationView<RegisterDefinition & { readOnly: boolean; lockedFields: string[]; validatorUrl: string }>;

const RECORDS_TABLE = 'integration_records';
const MAX_INTEGRATIONS = 500;

const isPlainObject = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

interface IntegrationServiceDeps {
  /** The `integrations` register's table (definitions live in `documents`). */
  definitionsTable: RegisterTable;
  repo: RegisterRepository;
  records: IntegrationRecordRepository;
  changes: ChangeFeed;
  clock: Clock;
  logger: Logger;
  /** The tenant's ERP, for integrations whose form saves and deletes through it (seed 000 §7). */
  erp?: Pick<ErpService, 'call' | 'settings'> & Partial<Pick<ErpService, 'proxy'>>;
  /** Of these departments of the tenant, those with the claim hideIntegrations (seed 000 §3, §6). */
  hidingDepartments?: (tenantId: string, departmentIds: readonly string[]) => Promise<string[]>;
  /** Makes `integration/{collection}` live on the hub (once per collection name; see integration-live-collection.ts). */
  ensureLive?: (collection: string) => void;
}

/** The hub collection of an integration's records: the register list's `live` name. */
export const liveNameOf = (collection: string) => `integration/${collection}`;

const isRecordObject = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/** What an ERP answer carries as the saved item: `data` (an object, or the first of a list). */
function erpData(body: unknown): Record<string, unknown> | null {
  if (!isRecordObject(body)) return null;
  const data = Array.isArray(body.data) ? body.data[0] : body.data;
  return isRecordObject(data) ? data : null;
}

/** One call-to-action set of an integration (seed 000 §3, up to three). */
interface CallToAction {
  method?: string;
  url?: string;
  path?: string;
  headers?: unknown;
  body?: unknown;
  field?: string;
  fileName?: string;
  fileExt?: string;
  label?: string;
}

/** A chat id as rooms carry it (a phone number, a WhatsApp or web-chat id): safe to quote in an ERP filter. */
const CHAT_ID = /^[A-Za-z0-9@._+-]{1,120}$/;
const SQL_NAME = /^[A-Za-z_][A-Za-z0-9_.]{0,63}$/;
const BY_CHAT_LIMIT = 50;

/** The integration's findByChatId settings (seed 000 §3 "findByChatId with its query and order"). */
interface FindByChatId {
  active?: boolean;
  query?: string;
  order?: string;
  field?: string;
}


/** The document's link in a call-to-action answer: RETORNOS, RESULTADOS or data, by `field`; or a plain link. */
function documentLink(body: unknown, field: string): string | null {
  if (!isRecordObject(body)) return null;
  for (const key of ['RETORNOS', 'RESULTADOS', 'data']) {
    const value = body[key];
    const first = Array.isArray(value) ? value[0] : value;
    if (isRecordObject(first) && typeof first[field] === 'string') return first[field] as string;
    if (typeof first === 'string' && /^https?:\/\//.test(first)) return first;
  }
  for (const key of ['link', 'url', 'URL']) if (typeof body[key] === 'string') return body[key] as string;
  return null;
}

/**
 * Integrations defined live by admins (docs/integrations.md): which ones a caller may use
 * (seed 000 §6), the register each renders as, and the generic CRUD of their records in
 * `integration_records`, validated with the integration's own schema (same 400 shape as the
 * registers) and scoped by tenant and collection in every statement.
 */
export function createIntegrationService(deps: IntegrationServiceDeps) {
  const { repo, records, changes, clock, logger } = deps;

  async function allLive(tenantId: string): Promise<IntegrationDefinition[]> {
    const page = await repo.list(tenantId, deps.definitionsTable, { filter: null, orderBy: [{ field: 'order', direction: 'asc' }], offset: 0, limit: MAX_INTEGRATIONS });
    return page.records as unknown as IntegrationDefinition[];
  }

  function resolve(integration: IntegrationDefinition): ResolvedIntegration | null {
    if (schemaProblem(integration.vjsfSchemaMaster)) return null;
    let definition: RegisterDefinition;
    try {
      definition = integrationRegister(integration);
    } catch {
      return null;
    }
    const base = registerTable(definition);
    const table: RegisterTable = { ...base, table: RECORDS_TABLE, collection: integration.collection };
    return { integration, definition, table, fields: queryFields(table) };
  }

  async function definitionOf(tenantId: string, collection: string, trx?: Transaction): Promise<IntegrationDefinition | undefined> {
    const page = await repo.list(tenantId, deps.definitionsTable, { filter: { field: 'collection', op: '==', value: collection }, orderBy: [], offset: 0, limit: 1 }, trx ? { trx } : {});
    return page.records[0] as unknown as IntegrationDefinition | undefined;
  }

  /** A stranger (public sign-up, nothing granted yet) reads integrations open to all but writes none (docs/security.md). */
  function assertMayWrite(caller: IntegrationCaller): void {
    if (isStranger(caller.user, caller.departments)) throw forbidden();
  }

  /** The caller's departments that hide integrations (none for admins: they see everything). */
  async function hidingOf(caller: IntegrationCaller): Promise<string[]> {
    if (caller.user.claims?.admin || caller.departments.length === 0 || !deps.hidingDepartments) return [];
    return deps.hidingDepartments(caller.tenant.id, caller.departments);
  }

  /** The integration behind /api/integration/{collection}, if this caller may use it (404 otherwise: no hint it exists). */
  async function forCaller(caller: IntegrationCaller, collection: string): Promise<ResolvedIntegration> {
    const integration = await definitionOf(caller.tenant.id, collection);
    if (!integration || !mayUseIntegration(integration, caller.user, caller.departments, await hidingOf(caller))) throw notFound('integration_not_found', INTEGRATION_MESSAGES.notFound);
    const resolved = resolve(integration);
    if (!resolved) throw badRequest('integration_schema_invalid', format(INTEGRATION_MESSAGES.schemaInvalid, { detail: integration.name }));
    return resolved;
  }

  /** Body → record to store: schema fields only, trimmed, validated with the integration's schema, empty → null. */
  function prepare(resolved: ResolvedIntegration, body: unknown, previous: RecordData | null, mode: 'create' | 'replace' | 'merge', provisionalId = false): RecordData {
    if (!isPlainObject(body)) throw validationError([{ field: '', message: messages.validation.invalidValue }]);
    const schema = resolved.definition.schema;
    const properties = schema.properties ?? {};
    const keys = Object.keys(properties);
    const base: Record<string, unknown> = {};
    for (const key of keys) {
      if (mode === 'create' && properties[key]!.default !== undefined) base[key] = properties[key]!.default;
      if (mode === 'merge' && previous) base[key] = previous[key];
    }
    const input: Record<string, unknown> = {};
    for (const key of keys) if (key in body) input[key] = body[key];
    const candidate = compactRecord(normaliseRecord(schema, { ...base, ...input }));
    const validate = compileIntegrationSchema(schema);
    if (!validate(candidate)) throw validationError(fieldErrors(schema as RegisterSchema, validate.errors ?? []));
    const stored = withNulls({ properties }, candidate);
    // Fields outside the schema (an older version of it, the ERP's extras) survive an edit.
    const carried: Record<string, unknown> = {};
    if (previous) for (const [key, value] of Object.entries(previous)) if (key !== 'id' && key !== 'lifeControl' && !(key in properties)) carried[key] = value;
    return { ...carried, ...stored, id: previous?.id ?? (provisionalId ? randomUUID() : idFor(resolved, body)) };
  }

  /** Seed 000 §7: the item's id is taken from idField when the integration names one, else the body's id, else a new one. */
  function idFor(resolved: ResolvedIntegration, body: Record<string, unknown>): string {
    const idField = resolved.integration.idField;
    const raw = idField ? body[idField] : body.id;
    if (idField && (raw === undefined || raw === null || raw === '')) {
      throw validationError([{ field: idField, message: format(INTEGRATION_MESSAGES.idFieldMissing, { field: idField }) }]);
    }
    if (raw === undefined || raw === null || raw === '') return randomUUID();
    const id = String(raw).trim();
    if (id.length === 0 || id.length > 200 || /[/?#]/.test(id)) throw validationError([{ field: idField ?? 'id', message: messages.validation.invalidValue }]);
    return id;
  }

  function checked(filter: Filter | null, fields: FieldSpecs): Filter | null {
    try {
      checkRegisterFilter(filter, fields);
    } catch (error) {
      if (error instanceof RegisterFilterError) throw badRequest('filter_not_allowed', format(messages.registers.filterNotAllowed, { detail: error.message }));
      throw error;
    }
    return filter;
  }

  async function write(caller: IntegrationCaller, resolved: ResolvedIntegration, next: RecordData, previous: RecordData | null, revive: boolean): Promise<RecordData> {
    const now = clock.now();
    await changes.transaction(caller.tenant.id, async (trx, record) => {
      if (revive) await records.purgeDeleted(caller.tenant.id, resolved.integration.collection, next.id, trx);
      if (previous) {
        if (!(await repo.update(caller.tenant.id, resolved.table, next, now, trx))) throw notFound();
      } else {
        await repo.insert(caller.tenant.id, resolved.table, next, now, trx);
      }
      record({ collection: liveNameOf(resolved.integration.collection), id: next.id, op: 'upsert' });
    });
    const saved = await repo.get(caller.tenant.id, resolved.table, next.id);
    if (!saved) throw notFound();
    logger.debug({ tenantId: caller.tenant.id, collection: resolved.integration.collection, id: next.id }, 'integrations.record_saved');
    return saved;
  }

  return {
    resolve,
    repo,
    /** The tenant's integration of a collection resolved as a register (any user; null when none or unusable). */
    async resolvedFor(tenantId: string, collection: string, trx?: Transaction): Promise<ResolvedIntegration | null> {
      const integration = await definitionOf(tenantId, collection, trx);
      return integration ? resolve(integration) : null;
    },

    /** Every live integration of the tenant this caller may use, in menu order. */
    async visible(caller: IntegrationCaller): Promise<IntegrationDefinition[]> {
      const hiding = await hidingOf(caller);
      return (await allLive(caller.tenant.id)).filter((i) => mayUseIntegration(i, caller.user, caller.departments, hiding));
    },

    /** The visible integrations as the engine draws them (those whose schema cannot render are left out). */
    async views(caller: IntegrationCaller): Promise<IntegrationView[]> {
      const out: IntegrationView[] = [];
      for (const integration of await this.visible(caller)) {
        const resolved = resolve(integration);
        if (!resolved) continue;
        deps.ensureLive?.(integration.collection);
        const { definition } = resolved;
        const name = `integration/${integration.collection}`;
        out.push({
          id: integration.id,
          name: integration.name,
          register: integration.register,
          collection: integration.collection,
          order: Number(integration.order ?? 0),
          menu: integration.menu !== false,
          active: integration.active !== false,
          listTitle: integration.listTitle ?? null,
          listIcon: integration.listIcon ?? null,
          noItems: integration.noItems || INTEGRATION_MESSAGES.defaultNoItems,
          idField: integration.idField ?? null,
          report: integration.report === true,
          documents: (Array.isArray(integration.callToAction) ? (integration.callToAction as CallToAction[]) : [])
            .slice(0, 3)
            .map((cta, index) => ({ index, label: cta?.label || `Documento ${index + 1}`, path: cta?.path }))
            .filter((d) => Boolean(d.path))
            .map(({ index, label }) => ({ index, label })),
          paramsSchema: objectSchemaOrNull(integration.vjsfSchemaParams),
          view: {
            ...definition,
            name,
            list: { ...definition.list, name, live: name },
            readOnly: false,
            lockedFields: [],
            validatorUrl: `/api/integration-validators/${encodeURIComponent(integration.collection)}.js?v=${schemaVersion(definition.schema)}`,
          },
        });
      }
      return out;
    },

    /** The schema a validator module is built from, by collection and version (public route: no user). */
    async schemaFor(tenantId: string, collection: string, version: string): Promise<RegisterSchema | null> {
      const page = await repo.list(tenantId, deps.definitionsTable, { filter: { field: 'collection', op: '==', value: collection }, orderBy: [], offset: 0, limit: 1 });
      const integration = page.records[0] as unknown as IntegrationDefinition | undefined;
      const resolved = integration ? resolve(integration) : null;
      if (!resolved || schemaVersion(resolved.definition.schema) !== version) return null;
      return resolved.definition.schema;
    },

    forCaller,

    /**
     * findByChatId (seed 000 §3, docs/integrations.md): the integration's items that belong to
     * one chat, for the contact panel's "Integrações" block. With a query, the ERP answers it
     * (direct form; `:CHATID` in the query, or a FILTRO on `field`, carries the chat id quoted;
     * `order` is its ORDEM); without one, the local records whose `field` (default the
     * integration's contactIdField, else `chatId`) equals the chat id, sorted by `order`.
     */
    async byChat(caller: IntegrationCaller, collection: string, chatId: string): Promise<ChatIntegrationSection> {
      const resolved = await forCaller(caller, collection);
      const { integration, definition } = resolved;
      const settings = (isRecordObject(integration.findByChatId) ? integration.findByChatId : {}) as FindByChatId;
      if (!settings.active) throw notFound('find_by_chat_disabled', INTEGRATION_MESSAGES.findByChatDisabled);
      if (!CHAT_ID.test(chatId)) throw badRequest('chat_id_invalid', INTEGRATION_MESSAGES.chatIdInvalid);
      const field = settings.field || (typeof integration.contactIdField === 'string' && integration.contactIdField) || 'chatId';
      const base = {
        collection,
        name: integration.name,
        title: integration.listTitle || integration.name,
        noItems: integration.noItems || INTEGRATION_MESSAGES.defaultNoItems,
        titleField: definition.list.titleField,
        linkField: field in (definition.schema.properties ?? {}) ? field : null,
        labels: Object.fromEntries(Object.entries(definition.schema.properties ?? {}).flatMap(([key, spec]) => (typeof spec?.title === 'string' && spec.title ? [[key, spec.title]] : []))),
      };
      if (settings.query && deps.erp?.proxy) {
        const quoted = `'${chatId}'`;
        const hasPlaceholder = /:CHATID\b/i.test(settings.query);
        if (!hasPlaceholder && !SQL_NAME.test(field)) throw badRequest('find_by_chat_invalid', INTEGRATION_MESSAGES.findByChatFieldInvalid);
        const body = {
          DIRECT: true,
          QUERY: settings.query.replace(/:CHATID\b/gi, quoted),
          PORPAGINA: BY_CHAT_LIMIT,
          PAGINA: 1,
          ...(settings.order && { ORDEM: settings.order }),
          ...(!hasPlaceholder && { FILTRO: `${field} = ${quoted}` }),
        };
        const answer = await deps.erp.proxy(caller.tenant, { body });
        const items = (answer.RETORNOS ?? answer.RESULTADOS ?? []) as Record<string, unknown>[];
        return { ...base, source: 'erp', total: Number(answer.TOTAL ?? items.length), items };
      }
      const properties = definition.schema.properties ?? {};
      if (!(field in properties)) return { ...base, source: 'local', total: 0, items: [] };
      const orderField = settings.order && settings.order in properties ? settings.order : definition.list.sort.field;
      const page = await repo.list(
        caller.tenant.id,
        resolved.table,
        { filter: checked({ field, op: '==', value: chatId }, resolved.fields), orderBy: [{ field: orderField, direction: settings.order && settings.order in properties ? 'asc' : definition.list.sort.order === 'DESC' ? 'desc' : 'asc' }], offset: 0, limit: BY_CHAT_LIMIT },
        { total: true },
      );
      return { ...base, source: 'local', total: page.total ?? page.records.length, items: page.records };
    },

    /** Every integration this caller may use that has findByChatId on, with its items for the chat. */
    async chatSections(caller: IntegrationCaller, chatId: string): Promise<ChatIntegrationSection[]> {
      if (!CHAT_ID.test(chatId)) throw badRequest('chat_id_invalid', INTEGRATION_MESSAGES.chatIdInvalid);
      const out: ChatIntegrationSection[] = [];
      for (const integration of await this.visible(caller)) {
        const settings = isRecordObject(integration.findByChatId) ? (integration.findByChatId as FindByChatId) : null;
        if (!settings?.active || !resolve(integration)) continue;
        try {
          out.push(await this.byChat(caller, integration.collection, chatId));
        } catch (error) {
          // One integration's ERP failing leaves the others' sections (its own says 'Erro na Busca!').
          logger.warn({ tenantId: caller.tenant.id, collection: integration.collection, err: error }, 'integrations.by_chat_failed');
          out.push({ collection: integration.collection, name: integration.name, title: integration.listTitle || integration.name, noItems: messages.table.erpSearchFailed, titleField: '', source: 'erp', total: 0, items: [], error: true });
        }
      }
      return out;
    },

    async list(caller: IntegrationCaller, collection: string, query: (resolved: ResolvedIntegration) => ParsedListQuery): Promise<{ records: RecordData[]; total: number }> {
      const resolved = await forCaller(caller, collection);
      const parsed = query(resolved);
      const filter = checked(parsed.filter, resolved.fields);
      const page = await repo.list(caller.tenant.id, resolved.table, { ...parsed, filter }, { total: true });
      return { records: page.records, total: page.total ?? page.records.length };
    },

    async getOne(caller: IntegrationCaller, collection: string, id: string): Promise<RecordData> {
      const resolved = await forCaller(caller, collection);
      const record = await repo.get(caller.tenant.id, resolved.table, id);
      if (!record) throw notFound();
      return record;
    },

    /**
     * POST /api/integration/{collection} (seed 000 §7): the item with its id taken from idField.
     * The ERP already holds the item, so posting an id that exists updates it (a deleted one
     * comes back) instead of failing.
     */
    async save(caller: IntegrationCaller, collection: string, body: unknown): Promise<{ record: RecordData; created: boolean; message?: string }> {
      assertMayWrite(caller);
      const resolved = await forCaller(caller, collection);
      const { integration } = resolved;
      let input = body;
      let message: string | undefined;
      if (integration.formPathSave && deps.erp) {
        // Seed 000 §7: the ERP first (with contactId; params and action removed), then the local copy.
        const draft = prepare(resolved, body, null, 'create', true);
        const { id: _id, lifeControl: _life, ...item } = draft;
        const contactId = isRecordObject(body) && typeof body.contactId === 'string' ? body.contactId : undefined;
        let answer: unknown;
        try {
          answer = (
            await deps.erp.call(caller.tenant, {
              url: (integration.formUrlSave as string | null | undefined) ?? null,
              path: String(integration.formPathSave),
              method: String(integration.formMethodSave || 'POST'),
              body: { ...item, ...(contactId && { contactId }) },
            })
          ).body;
        } catch (error) {
          throw erpFailure(error);
        }
        const data = erpData(answer);
        message = isRecordObject(answer) && typeof answer.message === 'string' ? answer.message : undefined;
        // The ERP's answer wins (it may assign the code idField names).
        input = { ...(isRecordObject(body) ? body : {}), ...(data ?? {}) };
      }
      const draft = prepare(resolved, input, null, 'create');
      const existing = await records.find(caller.tenant.id, collection, draft.id);
      if (existing && !existing.deleted) {
        const previous = await repo.get(caller.tenant.id, resolved.table, draft.id);
        return { record: await write(caller, resolved, prepare(resolved, input, previous, 'replace'), previous, false), created: false, ...(message && { message }) };
      }
      return { record: await write(caller, resolved, draft, null, Boolean(existing)), created: true, ...(message && { message }) };
    },

    /**
     * A call-to-action document (seed 000 §7): the integration's set `index` sent to the ERP with
     * the record; the link read from the answer is handed back as a same-origin file URL, since
     * the ERP itself is usually not reachable from the browser.
     */
    async document(caller: IntegrationCaller, collection: string, id: string, index: number, input: unknown = {}): Promise<{ status: number; url: string | null; fileName: string; fileExt: string }> {
      const resolved = await forCaller(caller, collection);
      // vjsfSchemaParams: the parameters the user filled in before sending, validated like a record.
      const paramsSchema = objectSchemaOrNull(resolved.integration.vjsfSchemaParams);
      let params: Record<string, unknown> | undefined;
      if (paramsSchema) {
        const raw = isRecordObject(input) && isRecordObject(input.params) ? input.params : {};
        const candidate = compactRecord(normaliseRecord(paramsSchema, Object.fromEntries(Object.keys(paramsSchema.properties ?? {}).filter((k) => k in raw).map((k) => [k, raw[k]]))));
        const validate = compileIntegrationSchema(paramsSchema);
        if (!validate(candidate)) throw validationError(fieldErrors(paramsSchema, validate.errors ?? []));
        params = candidate;
      }
      const record = await repo.get(caller.tenant.id, resolved.table, id);
      if (!record) throw notFound();
      const sets = Array.isArray(resolved.integration.callToAction) ? (resolved.integration.callToAction as CallToAction[]) : [];
      const cta = sets[index];
      if (!cta || !cta.path || !deps.erp) throw notFound('document_not_found', messages.errors.notFound);
      const { lifeControl: _life, ...item } = record;
      const headers = isRecordObject(cta.headers) ? Object.fromEntries(Object.entries(cta.headers).filter(([, v]) => typeof v === 'string')) as Record<string, string> : undefined;
      let answer: { status: number; body: unknown };
      try {
        answer = await deps.erp.call(caller.tenant, { url: cta.url ?? null, path: cta.path, method: cta.method || 'POST', body: { ...item, ...(isRecordObject(cta.body) ? cta.body : {}), ...(params && { params }) }, headers });
      } catch (error) {
        throw erpFailure(error);
      }
      const link = documentLink(answer.body, cta.field || 'URL');
      const fileExt = cta.fileExt || 'pdf';
      const fileName = `${cta.fileName || resolved.integration.name}-${id}.${fileExt}`;
      const url = link ? `/api/integration/${encodeURIComponent(collection)}/documents/file?src=${encodeURIComponent(link)}` : null;
      return { status: answer.status, url, fileName, fileExt };
    },

    /** The bytes of a generated document, fetched from the tenant's ERP (only under its configured URLs). */
    async documentFile(caller: IntegrationCaller, collection: string, src: string): Promise<{ body: Buffer; contentType: string }> {
      await forCaller(caller, collection);
      if (!deps.erp) throw notFound();
      const bases = deps.erp.settings(caller.tenant).urls;
      let href: string;
      try {
        href = new URL(src).href;
      } catch {
        throw notFound();
      }
      const base = bases.find((b) => href.startsWith(`${b}/`));
      if (!base) throw badRequest('erp_target_not_allowed', messages.integrations.erpTargetNotAllowed);
      try {
        const res = await deps.erp.call(caller.tenant, { url: base, path: href.slice(base.length), method: 'GET' });
        return { body: Buffer.isBuffer(res.body) ? res.body : Buffer.from(typeof res.body === 'string' ? res.body : JSON.stringify(res.body)), contentType: res.contentType || 'application/octet-stream' };
      } catch (error) {
        throw erpFailure(error);
      }
    },

    async update(caller: IntegrationCaller, collection: string, id: string, body: unknown, mode: 'replace' | 'merge'): Promise<RecordData> {
      assertMayWrite(caller);
      const resolved = await forCaller(caller, collection);
      const previous = await repo.get(caller.tenant.id, resolved.table, id);
      if (!previous) throw notFound();
      return write(caller, resolved, prepare(resolved, body, previous, mode), previous, false);
    },

    /** Soft-deletes live records of the collection; all or nothing. */
    async remove(caller: IntegrationCaller, collection: string, ids: string[]): Promise<RecordData[]> {
      assertMayWrite(caller);
      const resolved = await forCaller(caller, collection);
      const unique = [...new Set(ids)];
      const found = await repo.getMany(caller.tenant.id, resolved.table, unique);
      if (found.length !== unique.length) throw notFound();
      const { integration } = resolved;
      if (integration.formPathDelete && deps.erp) {
        // Seed 000 §7: the ERP delete with the item, then the local one.
        for (const record of found) {
          const { lifeControl: _life, ...item } = record;
          try {
            await deps.erp.call(caller.tenant, {
              url: (integration.formUrlDelete as string | null | undefined) ?? null,
              path: String(integration.formPathDelete),
              method: String(integration.formMethodDelete || 'DELETE'),
              body: item,
            });
          } catch (error) {
            throw erpFailure(error);
          }
        }
      }
      const now = clock.now();
      await changes.transaction(caller.tenant.id, async (trx, record) => {
        const deleted = await repo.softDelete(caller.tenant.id, resolved.table, unique, now, trx);
        for (const id of deleted) record({ collection: liveNameOf(collection), id, op: 'delete' });
      });
      const deletedAt = now.toISOString();
      return found.map((r) => ({ ...r, lifeControl: { ...(r.lifeControl as object), deletedAt } }));
    },

  };
}

export type IntegrationService = ReturnType<typeof createIntegrationService>;
