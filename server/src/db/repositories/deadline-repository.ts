import type { Knex } from 'knex';
import { dialectOf, parseJson, toJson, type Db } from '../knex';

/** A pending time-based action (docs/routing.md "The clock"). */
export interface Deadline {
  tenantId: string;
  /** Unique per tenant: scheduling the same key again replaces, keeps or moves the one row. */
  key: string;
  kind: string;
  /** What the action is about (a room id, a department id, a contingency id). */
  subjectId: string | null;
  dueAt: string;
  payload: Record<string, unknown>;
  attempts: number;
}

export interface DeadlineInput {
  key: string;
  kind: string;
  subjectId?: string | null;
  dueAt: string;
  payload?: Record<string, unknown>;
}

/**
 * - `replace`: the row becomes this one (due date and payload);
 * - `ifAbsent`: a row already there is kept as it is (rules and inactivity: the row checks the
 *   room when it fires and moves itself, so a new message does not rewrite it);
 * - `earliest`: the row keeps whichever due date comes first.
 */
export type ScheduleMode = 'replace' | 'ifAbsent' | 'earliest';

type Conn = Knex | Knex.Transaction;

function fromRow(row: Record<string, unknown>): Deadline {
  return {
    tenantId: String(row.tenant_id),
    key: String(row.key),
    kind: String(row.kind),
    subjectId: (row.subject_id as string | null) ?? null,
    dueAt: String(row.due_at),
    payload: parseJson<Record<string, unknown>>(row.payload, {}),
    attempts: Number(row.attempts ?? 0),
  };
}

/** The scheduler's table. Every call takes tenantId first, but the due scan, which crosses tenants. */
export function createDeadlineRepository(db: Db) {
  const pg = dialectOf(db) === 'pg';

  return {
    async schedule(trx: Conn, tenantId: string, input: DeadlineInput, mode: ScheduleMode, now: string): Promise<void> {
      const row = {
        tenant_id: tenantId, key: input.key, kind: input.kind, subject_id: input.subjectId ?? null, due_at: input.dueAt,
        payload: toJson(input.payload ?? {}), attempts: 0, last_error: null, created_at: now,
      };
      const insert = trx('deadlines').insert(row).onConflict(['tenant_id', 'key']);
      if (mode === 'ifAbsent') await insert.ignore();
      else if (mode === 'replace') await insert.merge(['kind', 'subject_id', 'due_at', 'payload', 'attempts', 'last_error']);
      else {
        await insert.merge({
          due_at: trx.raw('case when ?? > ? then ? else ?? end', ['deadlines.due_at', input.dueAt, input.dueAt, 'deadlines.due_at']),
          attempts: 0,
        });
      }
    },

    async scheduleMany(trx: Conn, tenantId: string, inputs: DeadlineInput[], now: string): Promise<void> {
      if (inputs.length === 0) return;
      await trx('deadlines')
        .insert(inputs.map((input) => ({
          tenant_id: tenantId, key: input.key, kind: input.kind, subject_id: input.subjectId ?? null, due_at: input.dueAt,
          payload: toJson(input.payload ?? {}), attempts: 0, last_error: null, created_at: now,
        })))
        .onConflict(['tenant_id', 'key'])
        .ignore();
    },

    async cancel(trx: Conn, tenantId: string, key: string): Promise<void> {
      await trx('deadlines').where({ tenant_id: tenantId, key }).del();
    },

    async find(tenantId: string, key: string, q: Conn = db): Promise<Deadline | null> {
      const row = await q('deadlines').where({ tenant_id: tenantId, key }).first();
      return row ? fromRow(row) : null;
    },

    /** Deadlines due at `now`, oldest first, across tenants (the scheduler's scan). */
    async due(now: string, limit: number): Promise<{ tenantId: string; key: string; kind: string; subjectId: string | null; dueAt: string }[]> {
      const rows = await db('deadlines').where('due_at', '<=', now).orderBy([{ column: 'due_at' }, { column: 'key' }]).limit(limit).select('tenant_id', 'key', 'kind', 'subject_id', 'due_at');
      return rows.map((r) => ({ tenantId: String(r.tenant_id), key: String(r.key), kind: String(r.kind), subjectId: (r.subject_id as string | null) ?? null, dueAt: String(r.due_at) }));
    },

    /** The earliest due date, if any (how long the scheduler may sleep). */
    async nextDueAt(): Promise<string | null> {
      const row = await db('deadlines').min('due_at as at').first();
      return (row?.at as string | null | undefined) ?? null;
    },

    /**
     * The deadline, locked for this transaction, if it is still due; null when it is gone or moved
     * later, or (PostgreSQL) another process is firing it right now (SKIP LOCKED).
     */
    async claim(trx: Knex.Transaction, tenantId: string, key: string, now: string): Promise<Deadline | null> {
      const qb = trx('deadlines').where({ tenant_id: tenantId, key }).andWhere('due_at', '<=', now);
      if (pg) qb.forUpdate().skipLocked();
      const row = await qb.first();
      return row ? fromRow(row) : null;
    },

    /** The action ran: the row goes, in the action's own transaction. */
    async complete(trx: Knex.Transaction, tenantId: string, key: string): Promise<void> {
      await trx('deadlines').where({ tenant_id: tenantId, key }).del();
    },

    /** The action asks to run again later (a rule that repeats, a room that was active meanwhile). */
    async move(trx: Knex.Transaction, tenantId: string, key: string, dueAt: string, payload: Record<string, unknown>): Promise<void> {
      await trx('deadlines').where({ tenant_id: tenantId, key }).update({ due_at: dueAt, payload: toJson(payload), attempts: 0, last_error: null });
    },

    /** The action failed: tried again at `retryAt`, with the error kept for the logs. */
    async fail(tenantId: string, key: string, retryAt: string, error: string): Promise<void> {
      await db('deadlines').where({ tenant_id: tenantId, key }).update({ due_at: retryAt, attempts: db.raw('?? + 1', ['attempts']), last_error: error.slice(0, 400) });
    },

    async count(tenantId: string, kind?: string): Promise<number> {
      const qb = db('deadlines').where('tenant_id', tenantId);
      if (kind) qb.andWhere('kind', kind);
      const row = await qb.count({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },

    async list(tenantId: string, q: Conn = db): Promise<Deadline[]> {
      return (await q('deadlines').where('tenant_id', tenantId).orderBy([{ column: 'due_at' }, { column: 'key' }])).map(fromRow);
    },
  };
}

export type DeadlineRepository = ReturnType<typeof createDeadlineRepository>;
