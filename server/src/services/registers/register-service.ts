import { randomUUID } from 'node:crypto';
import { format, hasTenantClaim, isAdmin, messages, type Filter } from '@atendimento/schemas';
import { compactRecord, normaliseRecord, withNulls, type FieldError, type RegisterDefinition, type RegisterSchema } from '@atendimento/schemas/registers/index';
import type { Clock } from '../../clock';
import { isUniqueViolation } from '../../db/knex';
import type { Logger } from '../../logger';
import { AppError, conflict, forbidden, notFound, validationError, badRequest } from '../../errors';
import type { TenantRow } from '../../db/repositories/tenant-repository';
import type { UserRecord } from '../../db/repositories/user-repository';
import { queryFields, type RecordData, type RegisterRepository, type RegisterTable } from '../../db/repositories/register-repository';
import { checkRegisterFilter, RegisterFilterError, type FieldSpecs } from '../../db/repositories/register-sql';
import type { ChangeFeed } from '../changes/change-feed';
import type { RegisterValidator } from './register-validator';
import type { HookContext, RegisterHooks, WriteContext } from './register-hooks';
import { disabledFields, isReadOnly, mayUseRegister, mayWriteRegister } from './register-access';
import { registerTable } from './register-tables';
import type { ParsedListQuery } from './register-query';

/** The signed-in user calling a register, on a tenant. */
export interface Caller {
  tenant: TenantRow;
  user: UserRecord;
  /** Departments the user works in (agent or supervisor); a stranger has none (docs/security.md). */
  departments?: readonly string[];
}

interface RegisterServiceDeps {
  definitions: ReadonlyMap<string, RegisterDefinition>;
  repo: RegisterRepository;
  validator: RegisterValidator;
  changes: ChangeFeed;
  clock: Clock;
  logger: Logger;
  hooks: Readonly<Record<string, RegisterHooks>>;
}

/** What a write becomes after validation: the record to store and the write-only inputs. */
export interface PreparedWrite {
  next: RecordData;
  inputs: Record<string, unknown>;
}

/** Rows per insert between two pauses of a batched create (createBatches). */
const INSERT_SLICE = 200;

const isPlainObject = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v);
const sameValue = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

function typeOf(schema: RegisterSchema | undefined): string | undefined {
  return schema ? (Array.isArray(schema.type) ? schema.type[0] : schema.type) : undefined;
}

/**
 * Every register's reads and writes, driven by its definition: access and tenant claims,
 * the caller's row scope (own records, linked participants), validation with the shared
 * schema, empty → null, soft delete, and the change feed so every write goes live.
 */
export function createRegisterService(deps: RegisterServiceDeps) {
  const { definitions, repo, validator, changes, clock, logger } = deps;
  const tables = new Map<string, RegisterTable>();
  const specs = new Map<string, FieldSpecs>();
  for (const definition of definitions.values()) {
    const table = registerTable(definition);
    tables.set(definition.name, table);
    specs.set(definition.name, queryFields(table));
  }

  function definitionOf(name: string): RegisterDefinition {
    const definition = definitions.get(name);
    if (!definition) throw notFound('register_not_found', messages.errors.routeNotFound);
    return definition;
  }

  function tableOf(name: string): RegisterTable {
    definitionOf(name);
    return tables.get(name)!;
  }

  function hooksOf(name: string): RegisterHooks {
    return deps.hooks[name] ?? {};
  }

  function assertUse(caller: Caller, definition: RegisterDefinition): void {
    if (!mayUseRegister(definition.list, caller.tenant, caller.user)) throw forbidden();
  }

  function assertWritable(caller: Caller, definition: RegisterDefinition): void {
    assertUse(caller, definition);
    if (!mayWriteRegister(definition.list, caller.tenant, caller.user, caller.departments ?? [])) throw forbidden();
    if (isReadOnly(definition.list, caller.tenant)) throw forbidden('read_only', messages.registers.readOnly);
  }

  /**
   * What the caller may see of a register, ANDed to every read: non-admins see their own
   * records (ownerField) and, for linked scopes, records listing a record linked to them.
   */
  async function scopeOf(caller: Caller, definition: RegisterDefinition, purpose: 'read' | 'write' = 'read'): Promise<Filter | null> {
    if (isAdmin(caller.user)) return null;
    const parts: Filter[] = [];
    const { ownerField, ownerlessShared, ownerWideClaim, scope } = definition.list;
    if (ownerField) {
      const own: Filter = { field: ownerField, op: '==', value: caller.user.id };
      if (purpose === 'write') parts.push(own);
      else if (!(ownerWideClaim && hasTenantClaim(caller.tenant.appConfig, ownerWideClaim))) {
        parts.push(ownerlessShared ? { or: [own, { field: ownerField, op: '==', value: null }] } : own);
      }
    }
    if (scope && !(scope.bypassClaim && caller.user.claims?.[scope.bypassClaim])) {
      const via = definitions.get(scope.via);
      if (!via) return { or: [] };
      const viaTable = tables.get(scope.via)!;
      const linked = await repo.list(caller.tenant.id, { ...viaTable, fields: { ...viaTable.fields, [scope.viaField]: { json: [scope.viaField], type: 'string' } } }, {
        filter: { field: scope.viaField, op: '==', value: caller.user.id },
        orderBy: [],
        offset: 0,
        limit: 500,
      });
      const ids = linked.records.map((r) => r.id);
      parts.push(ids.length ? { field: scope.field, op: 'array-contains-any', value: ids } : { or: [] });
    }
    return parts.length === 0 ? null : parts.length === 1 ? parts[0]! : { and: parts };
  }

  const and = (...filters: (Filter | null)[]): Filter | null => {
    const parts = filters.filter((f): f is Filter => f !== null);
    return parts.length === 0 ? null : parts.length === 1 ? parts[0]! : { and: parts };
  };

  /** The API shape: write-only fields never leave the server; register-specific renames. */
  function toApi(definition: RegisterDefinition, record: RecordData): RecordData {
    const out: RecordData = { ...record };
    for (const field of definition.list.writeOnlyFields) delete out[field];
    const hooks = hooksOf(definition.name);
    return hooks.toApi ? hooks.toApi(out) : out;
  }

  async function present(definition: RegisterDefinition, tenantId: string, records: RecordData[]): Promise<RecordData[]> {
    const out = records.map((r) => toApi(definition, r));
    await hooksOf(definition.name).decorate?.(tenantId, out);
    return out;
  }

  async function visible(caller: Caller, definition: RegisterDefinition, ids: string[], purpose: 'read' | 'write' = 'read'): Promise<RecordData[]> {
    const table = tables.get(definition.name)!;
    const scope = await scopeOf(caller, definition, purpose);
    if (!scope) return repo.getMany(caller.tenant.id, table, ids);
    const page = await repo.list(caller.tenant.id, table, { filter: and({ field: 'id', op: 'in', value: ids }, scope), orderBy: [], offset: 0, limit: ids.length });
    return page.records;
  }

  /**
   * Records asked for a write that the write scope did not find. One the caller may read but not
   * write (another user's or a global one, in an ownerField register) gets a 403 that says why;
   * anything else stays a 404, so nothing unreadable is confirmed to exist.
   */
  async function refuseWrite(caller: Caller, definition: RegisterDefinition, ids: string[]): Promise<never> {
    if (definition.list.ownerField && (await visible(caller, definition, ids, 'read')).length === ids.length) {
      throw forbidden('not_owner', messages.registers.notOwner);
    }
    throw notFound();
  }

  /**
   * Input → record to store, shared by create, update and import (seed 000 §5): only schema
   * fields are taken; server fields, fields of tenant claims that are off and (for
   * non-admins) admin-only fields keep their stored value; strings are normalised; the
   * record is validated with the same schema as the form; empty values become null.
   */
  function prepare(caller: Caller, definition: RegisterDefinition, body: unknown, previous: RecordData | null, mode: 'create' | 'replace' | 'merge'): PreparedWrite {
    if (!isPlainObject(body)) throw validationError([{ field: '', message: messages.validation.invalidValue }]);
    const { schema, list } = definition;
    const properties = schema.properties ?? {};
    const admin = isAdmin(caller.user);
    const keep = new Set([...list.serverFields, ...disabledFields(list, caller.tenant)]);
    const schemaKeys = Object.keys(properties).filter((k) => typeOf(properties[k]) !== 'null');

    const input: Record<string, unknown> = {};
    for (const key of schemaKeys) if (key in body && !keep.has(key)) input[key] = body[key];

    const base: Record<string, unknown> = {};
    for (const key of schemaKeys) {
      if (keep.has(key) || list.writeOnlyFields.includes(key)) continue;
      if (mode === 'create' && properties[key]!.default !== undefined) base[key] = properties[key]!.default;
      if (mode === 'merge' && previous) base[key] = previous[key];
    }
    let candidate = compactRecord(normaliseRecord(schema, { ...base, ...input }));

    if (!admin && list.adminFields.length) {
      const changed: string[] = [];
      for (const field of list.adminFields) {
        const before = previous ? previous[field] : properties[field]?.default;
        if (!(field in input)) {
          if (before !== undefined && before !== null) candidate = { ...candidate, [field]: before };
          continue;
        }
        if (!sameValue(candidate[field] ?? null, before ?? null)) changed.push(properties[field]?.title ?? field);
      }
      if (changed.length) throw forbidden('admin_only_field', format(messages.registers.adminOnlyField, { fields: changed.join(', ') }));
    }

    const errors = validator.validate(definition.name, candidate);
    // Columns the table keeps NOT NULL but the schema leaves optional (a PUT without
    // `active` answered 500 from the database): a field error, as the form would show it.
    for (const [field, column] of Object.entries(tables.get(definition.name)!.columns)) {
      if (column.nullable !== false || keep.has(field) || list.writeOnlyFields.includes(field)) continue;
      const value = candidate[field];
      if ((value === undefined || value === null) && !errors.some((e) => e.field === field)) errors.push({ field, message: messages.validation.requiredField });
    }
    if (errors.length) throw validationError(errors);

    const inputs: Record<string, unknown> = {};
    for (const field of list.writeOnlyFields) {
      if (field in candidate) inputs[field] = candidate[field];
      delete candidate[field];
    }
    const stored = withNulls({ properties: Object.fromEntries(schemaKeys.filter((k) => !list.writeOnlyFields.includes(k) && !keep.has(k)).map((k) => [k, properties[k]!])) }, candidate);

    // Fields outside the schema (written by other parts of the product) survive an edit.
    const carried: Record<string, unknown> = {};
    if (previous) {
      for (const [key, value] of Object.entries(previous)) {
        if (key === 'id' || key === 'lifeControl') continue;
        if (!(key in properties) || keep.has(key)) carried[key] = value;
      }
    } else {
      for (const field of keep) if (field in properties) carried[field] = null;
      if (list.ownerField) carried[list.ownerField] = caller.user.id;
    }
    const id = previous?.id ?? randomUUID();
    return { next: { ...carried, ...stored, id }, inputs };
  }

  function hookContext(caller: Caller, definition: RegisterDefinition): HookContext {
    return { tenant: caller.tenant, user: caller.user, admin: isAdmin(caller.user), definition, now: clock.now() };
  }

  async function write(caller: Caller, definition: RegisterDefinition, prepared: PreparedWrite, previous: RecordData | null): Promise<RecordData> {
    const table = tables.get(definition.name)!;
    const hooks = hooksOf(definition.name);
    const ctx = hookContext(caller, definition);
    try {
      await changes.transaction(caller.tenant.id, async (trx, record) => {
        const writeCtx: WriteContext = { ...ctx, trx, record };
        const extra = (await hooks.beforeWrite?.(writeCtx, prepared.next, previous, prepared.inputs)) ?? {};
        if (previous) {
          if (!(await repo.update(caller.tenant.id, table, prepared.next, ctx.now, trx, extra))) throw notFound();
        } else {
          await repo.insert(caller.tenant.id, table, prepared.next, ctx.now, trx, extra);
        }
        await hooks.afterWrite?.(writeCtx, prepared.next, previous);
        record({ collection: definition.list.live, id: prepared.next.id, op: 'upsert' });
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw conflict('duplicate', definition.name === 'agents' ? messages.auth.emailInUse : messages.validation.invalidValue);
      }
      throw error;
    }
    if (hooks.afterCommit) {
      await hooks.afterCommit(ctx, prepared.next, previous, prepared.inputs).catch((err) => {
        if (err instanceof AppError) throw err;
        logger.error({ err, register: definition.name, id: prepared.next.id }, 'registers.after_commit_failed');
      });
    }
    const saved = await repo.get(caller.tenant.id, table, prepared.next.id);
    if (!saved) throw notFound();
    const [api] = await present(definition, caller.tenant.id, [saved]);
    return api!;
  }

  /** Inserts prepared creates in the caller's transaction, each through the hooks when the register has any. */
  async function insertCreates(
    caller: Caller,
    definition: RegisterDefinition,
    writes: PreparedWrite[],
    trx: WriteContext['trx'],
    record: WriteContext['record'],
    /** Awaited between slices of rows (a background import yields to the event loop there). */
    pause?: () => Promise<void>,
  ): Promise<void> {
    const table = tables.get(definition.name)!;
    const hooks = hooksOf(definition.name);
    const ctx = hookContext(caller, definition);
    const writeCtx: WriteContext = { ...ctx, trx, record };
    const slice = pause ? INSERT_SLICE : Math.max(1, writes.length);
    for (let start = 0; start < writes.length; start += slice) {
      if (start > 0) await pause?.();
      const part = writes.slice(start, start + slice);
      if (!hooks.afterWrite && (!hooks.beforeWrite || hooks.beforeInsertMany)) {
        await hooks.beforeInsertMany?.(writeCtx, part.map((w) => w.next));
        await repo.insertMany(caller.tenant.id, table, part.map((w) => w.next), ctx.now, trx);
      } else {
        for (const w of part) {
          const extra = (await hooks.beforeWrite?.(writeCtx, w.next, null, w.inputs)) ?? {};
          await repo.insert(caller.tenant.id, table, w.next, ctx.now, trx, extra);
          await hooks.afterWrite?.(writeCtx, w.next, null);
        }
      }
    }
    for (const w of writes) record({ collection: definition.list.live, id: w.next.id, op: 'upsert' });
  }

  return {
    definitions,
    definition: definitionOf,
    table: tableOf,
    /** Fields a register may be queried on (its whitelist plus id and life-control dates). */
    fieldsOf(name: string): FieldSpecs {
      definitionOf(name);
      return specs.get(name)!;
    },
    mayUse(caller: Caller, name: string): boolean {
      const definition = definitions.get(name);
      return Boolean(definition && mayUseRegister(definition.list, caller.tenant, caller.user));
    },
    scopeOf: (caller: Caller, name: string) => scopeOf(caller, definitionOf(name)),
    toApi: (name: string, record: RecordData) => toApi(definitionOf(name), record),

    /** A page of what the caller may see, with the total when asked (two statements). */
    async list(caller: Caller, name: string, query: ParsedListQuery, options: { total?: boolean } = {}): Promise<{ records: RecordData[]; total: number | null }> {
      const definition = definitionOf(name);
      assertUse(caller, definition);
      const filter = and(query.filter, await scopeOf(caller, definition));
      try {
        checkRegisterFilter(filter, specs.get(name)!);
      } catch (error) {
        if (error instanceof RegisterFilterError) throw badRequest('filter_not_allowed', format(messages.registers.filterNotAllowed, { detail: error.message }));
        throw error;
      }
      const page = await repo.list(caller.tenant.id, tables.get(name)!, { ...query, filter }, options);
      return { records: await present(definition, caller.tenant.id, page.records), total: page.total };
    },

    async count(caller: Caller, name: string, filter: Filter | null): Promise<number> {
      const definition = definitionOf(name);
      assertUse(caller, definition);
      const scoped = and(filter, await scopeOf(caller, definition));
      try {
        checkRegisterFilter(scoped, specs.get(name)!);
      } catch (error) {
        if (error instanceof RegisterFilterError) throw badRequest('filter_not_allowed', format(messages.registers.filterNotAllowed, { detail: error.message }));
        throw error;
      }
      return repo.count(caller.tenant.id, tables.get(name)!, scoped);
    },

    /**
     * `granted`: the caller's right to this one record was checked by another domain (the
     * console's 'Editar Contato' of a chat the caller may see): the register's screen rule and
     * row scope are skipped; validation, admin-only fields, hooks and read-only claims are not.
     */
    async getOne(caller: Caller, name: string, id: string, options: { granted?: boolean } = {}): Promise<RecordData> {
      const definition = definitionOf(name);
      if (!options.granted) assertUse(caller, definition);
      const [record] = options.granted ? await repo.getMany(caller.tenant.id, tables.get(name)!, [id]) : await visible(caller, definition, [id]);
      if (!record) throw notFound();
      const [api] = await present(definition, caller.tenant.id, [record]);
      return api!;
    },

    async create(caller: Caller, name: string, body: unknown): Promise<RecordData> {
      const definition = definitionOf(name);
      assertWritable(caller, definition);
      return write(caller, definition, prepare(caller, definition, body, null, 'create'), null);
    },

    /** PUT replaces every schema field (missing → null); PATCH changes only the fields sent. */
    async update(caller: Caller, name: string, id: string, body: unknown, mode: 'replace' | 'merge', options: { granted?: boolean } = {}): Promise<RecordData> {
      const definition = definitionOf(name);
      if (options.granted) {
        if (isReadOnly(definition.list, caller.tenant)) throw forbidden('read_only', messages.registers.readOnly);
      } else assertWritable(caller, definition);
      const [previous] = options.granted ? await repo.getMany(caller.tenant.id, tables.get(name)!, [id]) : await visible(caller, definition, [id], 'write');
      if (!previous) {
        if (options.granted) throw notFound();
        return refuseWrite(caller, definition, [id]);
      }
      return write(caller, definition, prepare(caller, definition, body, previous, mode), previous);
    },

    /** Soft-deletes records the caller can see; all or nothing. Returns them as they were. */
    async remove(caller: Caller, name: string, ids: string[]): Promise<RecordData[]> {
      const definition = definitionOf(name);
      assertWritable(caller, definition);
      const unique = [...new Set(ids)];
      const found = await visible(caller, definition, unique, 'write');
      if (found.length !== unique.length) await refuseWrite(caller, definition, unique);
      const table = tables.get(name)!;
      const hooks = hooksOf(name);
      const ctx = hookContext(caller, definition);
      await changes.transaction(caller.tenant.id, async (trx, record) => {
        const deleted = await repo.softDelete(caller.tenant.id, table, unique, ctx.now, trx);
        const gone = found.filter((r) => deleted.includes(r.id));
        await hooks.afterDelete?.({ ...ctx, trx, record }, gone);
        for (const id of deleted) record({ collection: definition.list.live, id, op: 'delete' });
      });
      const deletedAt = ctx.now.toISOString();
      return found.map((r) => toApi(definition, { ...r, lifeControl: { ...(r.lifeControl as object), deletedAt } }));
    },

    /**
     * Validates many inputs as creates (imports): one result per input, either the prepared
     * write or its field errors. Nothing is written.
     */
    prepareMany(caller: Caller, name: string, bodies: Record<string, unknown>[]): ({ ok: true; write: PreparedWrite } | { ok: false; errors: FieldError[] })[] {
      const definition = definitionOf(name);
      assertWritable(caller, definition);
      return bodies.map((body) => {
        try {
          return { ok: true as const, write: prepare(caller, definition, body, null, 'create') };
        } catch (error) {
          if (error instanceof AppError && error.extra.fields) return { ok: false as const, errors: error.extra.fields };
          if (error instanceof AppError) return { ok: false as const, errors: [{ field: '', message: error.errorMessage }] };
          throw error;
        }
      });
    },

    /** Writes prepared creates in one transaction (all or nothing), each through the hooks. */
    async createMany(caller: Caller, name: string, writes: PreparedWrite[]): Promise<number> {
      const definition = definitionOf(name);
      assertWritable(caller, definition);
      try {
        await changes.transaction(caller.tenant.id, (trx, record) => insertCreates(caller, definition, writes, trx, record));
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict('duplicate', definition.name === 'agents' ? messages.auth.emailInUse : messages.validation.invalidValue);
        throw error;
      }
      return writes.length;
    },

    /**
     * Writes prepared creates batch by batch, as `batches` produces them (large imports; the
     * producer validates the next batch and yields to the event loop in between). `atomic`:
     * every batch in ONE transaction, all or nothing (it holds one connection throughout: fine on
     * PostgreSQL's pool). Otherwise each batch commits on its own, so other requests get the
     * connection between batches (SQLite has one); a failing batch leaves the earlier ones.
     */
    async createBatches(caller: Caller, name: string, batches: AsyncIterable<PreparedWrite[]>, options: { atomic: boolean; pause?: () => Promise<void> }): Promise<number> {
      const definition = definitionOf(name);
      assertWritable(caller, definition);
      let written = 0;
      try {
        if (options.atomic) {
          await changes.transaction(caller.tenant.id, async (trx, record) => {
            for await (const writes of batches) {
              await insertCreates(caller, definition, writes, trx, record, options.pause);
              written += writes.length;
            }
          });
        } else {
          for await (const writes of batches) {
            if (writes.length) await changes.transaction(caller.tenant.id, (trx, record) => insertCreates(caller, definition, writes, trx, record, options.pause));
            written += writes.length;
          }
        }
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict('duplicate', definition.name === 'agents' ? messages.auth.emailInUse : messages.validation.invalidValue);
        throw error;
      }
      return written;
    },

    /**
     * Records for pickers of other registers (lookups): needs only the register's tenant
     * claim, not its screen permission, and keeps the caller's row scope.
     */
    async pick(caller: Caller, name: string, query: ParsedListQuery): Promise<RecordData[]> {
      const definition = definitionOf(name);
      // A picker shows titles of records, so it reads under the register's own read rule.
      assertUse(caller, definition);
      const filter = and(query.filter, await scopeOf(caller, definition));
      try {
        checkRegisterFilter(filter, specs.get(name)!);
      } catch (error) {
        if (error instanceof RegisterFilterError) throw badRequest('filter_not_allowed', format(messages.registers.filterNotAllowed, { detail: error.message }));
        throw error;
      }
      const page = await repo.list(caller.tenant.id, tables.get(name)!, { ...query, filter });
      return page.records.map((r) => toApi(definition, r));
    },

    /** Ids of records visible to the caller, for lookups of another register. */
    async readScoped(caller: Caller, name: string, ids: string[]): Promise<RecordData[]> {
      const definition = definitionOf(name);
      return present(definition, caller.tenant.id, await visible(caller, definition, ids));
    },
  };
}

export type RegisterService = ReturnType<typeof createRegisterService>;
