import type { Knex } from 'knex';
import type { Filter, OrderBy } from '@atendimento/schemas';
import type { Db } from '../knex';
import { parseJson, toJson } from '../knex';
import { createRegisterSql, type FieldSpec, type FieldSpecs } from './register-sql';

/**
 * Where a register's records live. Registers with a table of their own (contacts, users,
 * departments...) map a few API fields to indexed columns; the rest of the record is the JSON
 * `data` column. Registers without a table share `documents` (collection = register name),
 * with the record's title, active flag and owner as indexed columns (migration 004).
 */
export interface RegisterTable {
  table: string;
  /** `documents.collection` for registers stored there. */
  collection?: string;
  /** API field → column written from the record on every insert and update. */
  columns: Readonly<Record<string, { column: string; type: 'string' | 'number' | 'bool'; nullable?: boolean }>>;
  /** Columns with constant values (users: type = 'agent'); also a condition of every read. */
  fixed?: Readonly<Record<string, string | number | boolean>>;
  /** Fields callers may filter and sort on (the register's whitelist), by API name. */
  fields: FieldSpecs;
}

interface RegisterQuery {
  filter: Filter | null;
  orderBy: OrderBy[];
  offset: number;
  limit: number;
}

export type RecordData = Record<string, unknown> & { id: string };

type Row = Record<string, unknown>;

const LIFE_FIELDS: Record<string, FieldSpec> = {
  id: { column: 'id', type: 'string', nullable: false },
  'lifeControl.createdAt': { column: 'created_at', type: 'string', nullable: false },
  'lifeControl.updatedAt': { column: 'updated_at', type: 'string', nullable: false },
  'lifeControl.deletedAt': { column: 'deleted_at', type: 'string' },
};

/** All fields a table can be queried on: its whitelist plus id and life-control dates. */
export function queryFields(table: RegisterTable): FieldSpecs {
  // No prototype: a caller's field name like '__proto__' or 'constructor' must not find a spec (R7).
  return Object.assign(Object.create(null) as Record<string, FieldSpec>, LIFE_FIELDS, table.fields);
}

/** API record from a row: the JSON data, then the columns (the truth), then id and lifeControl. */
function recordFromRow(table: RegisterTable, row: Row): RecordData {
  const data = parseJson<Record<string, unknown>>(row.data, {});
  const out: Record<string, unknown> = { ...data };
  for (const [field, spec] of Object.entries(table.columns)) {
    const value = row[spec.column];
    out[field] = spec.type === 'bool' ? (value === null || value === undefined ? null : Boolean(value)) : spec.type === 'number' && value != null ? Number(value) : value ?? null;
  }
  out.id = String(row.id);
  out.lifeControl = {
    ...(data.lifeControl && typeof data.lifeControl === 'object' ? (data.lifeControl as object) : {}),
    createdAt: String(row.created_at),
    updatedAt: row.updated_at == null ? null : String(row.updated_at),
    deletedAt: (row.deleted_at as string | null) ?? null,
  };
  return out as RecordData;
}

function columnValues(table: RegisterTable, record: Record<string, unknown>): Row {
  const row: Row = { ...(table.fixed ?? {}) };
  for (const [field, spec] of Object.entries(table.columns)) {
    let value = record[field];
    if (value === undefined) value = null;
    if (spec.type === 'bool' && value !== null) value = Boolean(value);
    if (spec.type === 'string' && value !== null) value = String(value).slice(0, 400);
    row[spec.column] = value;
  }
  return row;
}

/** What goes into the JSON column: the record without id and lifeControl (they are columns). */
function dataOf(record: Record<string, unknown>): string {
  const { id: _id, lifeControl: _life, ...rest } = record;
  return toJson(rest);
}

/**
 * Register records of one tenant; every call takes tenantId first and scopes by it. Reads
 * run on `db` or on a transaction passed last (the change feed's, or the hub's snapshot).
 */
export function createRegisterRepository(db: Db) {
  function base(conn: Knex | Knex.Transaction, tenantId: string, table: RegisterTable) {
    const qb = conn(table.table).where(`${table.table}.tenant_id`, tenantId);
    if (table.collection) qb.andWhere(`${table.table}.collection`, table.collection);
    for (const [column, value] of Object.entries(table.fixed ?? {})) qb.andWhere(`${table.table}.${column}`, value);
    return qb;
  }

  return {
    /**
     * One page and (optionally) the total, in exactly two statements whatever the page size:
     * lists never fetch per row.
     */
    async list(tenantId: string, table: RegisterTable, query: RegisterQuery, options: { total?: boolean; trx?: Knex.Transaction } = {}): Promise<{ records: RecordData[]; total: number | null }> {
      const conn = options.trx ?? db;
      const sql = createRegisterSql(db, table.table);
      const fields = queryFields(table);
      const where = (qb: Knex.QueryBuilder) => {
        qb.whereNull(`${table.table}.deleted_at`);
        sql.apply(qb, query.filter, fields);
      };
      const pageQuery = base(conn, tenantId, table).modify(where).select(`${table.table}.*`);
      sql.order(pageQuery, query.orderBy, fields);
      pageQuery.offset(query.offset).limit(query.limit);
      const rows = (await pageQuery) as Row[];
      let total: number | null = null;
      if (options.total) {
        const counted = (await base(conn, tenantId, table).modify(where).count({ n: '*' }).first()) as { n: number | string } | undefined;
        total = Number(counted?.n ?? 0);
      }
      return { records: rows.map((r) => recordFromRow(table, r)), total };
    },

    async count(tenantId: string, table: RegisterTable, filter: Filter | null): Promise<number> {
      const sql = createRegisterSql(db, table.table);
      const qb = base(db, tenantId, table).whereNull(`${table.table}.deleted_at`);
      sql.apply(qb, filter, queryFields(table));
      const counted = (await qb.count({ n: '*' }).first()) as { n: number | string } | undefined;
      return Number(counted?.n ?? 0);
    },

    /** Records by id, in one statement; soft-deleted ones only with includeDeleted. */
    async getMany(tenantId: string, table: RegisterTable, ids: string[], options: { includeDeleted?: boolean; trx?: Knex.Transaction } = {}): Promise<RecordData[]> {
      const unique = [...new Set(ids.filter((id) => typeof id === 'string' && id.length > 0 && id.length <= 200))];
      if (unique.length === 0) return [];
      const out: RecordData[] = [];
      for (let i = 0; i < unique.length; i += 500) {
        const qb = base(options.trx ?? db, tenantId, table).whereIn(`${table.table}.id`, unique.slice(i, i + 500));
        if (!options.includeDeleted) qb.whereNull(`${table.table}.deleted_at`);
        out.push(...((await qb.select(`${table.table}.*`)) as Row[]).map((r) => recordFromRow(table, r)));
      }
      return out;
    },

    async get(tenantId: string, table: RegisterTable, id: string, trx?: Knex.Transaction): Promise<RecordData | null> {
      const [record] = await this.getMany(tenantId, table, [id], { trx });
      return record ?? null;
    },

    /** Whether an id is taken in this table (deleted rows included: ids are never reused). */
    async exists(tenantId: string, table: RegisterTable, id: string, trx?: Knex.Transaction): Promise<boolean> {
      const row = await (trx ?? db)(table.table).where({ id }).first('tenant_id');
      void tenantId;
      return Boolean(row);
    },

    async insert(tenantId: string, table: RegisterTable, record: RecordData, now: Date, trx: Knex.Transaction, extraColumns: Row = {}): Promise<void> {
      const iso = now.toISOString();
      await trx(table.table).insert({
        id: record.id,
        tenant_id: tenantId,
        ...(table.collection && { collection: table.collection }),
        ...columnValues(table, record),
        ...extraColumns,
        data: dataOf(record),
        created_at: iso,
        updated_at: iso,
        deleted_at: null,
      });
    },

    /** Many inserts in statements of 200 rows (imports). */
    async insertMany(tenantId: string, table: RegisterTable, records: RecordData[], now: Date, trx: Knex.Transaction): Promise<void> {
      const iso = now.toISOString();
      for (let i = 0; i < records.length; i += 200) {
        await trx(table.table).insert(
          records.slice(i, i + 200).map((record) => ({
            id: record.id,
            tenant_id: tenantId,
            ...(table.collection && { collection: table.collection }),
            ...columnValues(table, record),
            data: dataOf(record),
            created_at: iso,
            updated_at: iso,
            deleted_at: null,
          })),
        );
      }
    },

    /** Replaces a live record; false when it does not exist (or was deleted). */
    async update(tenantId: string, table: RegisterTable, record: RecordData, now: Date, trx: Knex.Transaction, extraColumns: Row = {}): Promise<boolean> {
      const updated = await base(trx, tenantId, table)
        .andWhere(`${table.table}.id`, record.id)
        .whereNull(`${table.table}.deleted_at`)
        .update({ ...columnValues(table, record), ...extraColumns, data: dataOf(record), updated_at: now.toISOString() });
      return updated > 0;
    },

    /** Soft delete (seed 000 §3 lifeControl.deletedAt); returns the ids actually deleted. */
    async softDelete(tenantId: string, table: RegisterTable, ids: string[], now: Date, trx: Knex.Transaction): Promise<string[]> {
      const live = await base(trx, tenantId, table).whereIn(`${table.table}.id`, ids).whereNull(`${table.table}.deleted_at`).select(`${table.table}.id`);
      const found = (live as Row[]).map((r) => String(r.id));
      if (found.length) {
        await base(trx, tenantId, table).whereIn(`${table.table}.id`, found).update({ deleted_at: now.toISOString(), updated_at: now.toISOString() });
      }
      return found;
    },
  };
}

export type RegisterRepository = ReturnType<typeof createRegisterRepository>;
