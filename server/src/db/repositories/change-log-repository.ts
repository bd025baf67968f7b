import type { Knex } from 'knex';
import { dialectOf, type Db, type Executor, type Transaction } from '../knex';
import { prepared, preparedSql } from '../prepared';

/** A `change_log` row as the change feed reads it (docs/realtime.md). */
interface ChangeLogEntry {
  seq: number;
  collection: string;
  id: string;
  op: 'upsert' | 'delete';
  at: string;
}

const SEQ_COUNTER = 'changeSeq';

/**
 * The change log and its per-tenant sequence counter (migration 002), for the change feed
 * (services/changes/change-feed.ts). Tenant id first in every call.
 */
export function createChangeLogRepository(db: Db) {
  return {
    /** Runs `work` in a write transaction (`config`: wal-sync.ts's, for group commit). */
    transaction<T>(work: (trx: Transaction) => Promise<T>, config?: Knex.TransactionConfig): Promise<T> {
      return db.transaction(work, config);
    },

    /**
     * Runs `work` in a read transaction consistent with one moment of the log: repeatable
     * read and read-only on PostgreSQL (SQLite has one connection).
     */
    readConsistent<T>(work: (trx: Transaction) => Promise<T>): Promise<T> {
      return db.transaction(work, dialectOf(db) === 'pg' ? { isolationLevel: 'repeatable read', readOnly: true } : undefined);
    },

    async latestSeq(tenantId: string, q: Executor = db): Promise<number> {
      const row = await q('counters').where({ tenant_id: tenantId, name: SEQ_COUNTER }).first('value');
      return row ? Number(row.value) : 0;
    },

    /** Up to `limit` entries after `afterSeq`, oldest first. */
    async since(tenantId: string, afterSeq: number, limit: number, q: Executor = db): Promise<ChangeLogEntry[]> {
      const rows = await q('change_log').where('tenant_id', tenantId).andWhere('seq', '>', afterSeq).orderBy('seq', 'asc').limit(limit);
      return rows.map((r) => ({ seq: Number(r.seq), collection: String(r.collection), id: String(r.record_id), op: r.op as ChangeLogEntry['op'], at: String(r.created_at) }));
    },

    /**
     * Reserves `n` sequence numbers and answers the last one. One upsert takes the counter's
     * row lock (PostgreSQL) until commit, so numbering and commit are serialised per tenant.
     */
    async reserve(trx: Transaction, tenantId: string, n: number): Promise<number> {
      // Every commit that changed something runs this and `append`: compiled once (prepared.ts).
      const { rows } = await prepared<{ value: number | string }>(trx, 'changeLog.reserve', [tenantId, n, n], (k, [t, first, more]) =>
        k('counters')
          .insert({ tenant_id: t!, name: SEQ_COUNTER, value: first! })
          .onConflict(['tenant_id', 'name'])
          .merge({ value: k.raw('?? + ?', ['counters.value', more!]) })
          .returning('value'));
      return Number(rows[0]!.value);
    },

    /**
     * Reserves one sequence number per change and appends the changes under them, in order;
     * answers the last number. PostgreSQL does both in one statement (one round trip a commit,
     * on the tenant's serial lane: docs/ingest.md "Group commit"); SQLite runs `reserve` and
     * `append`, statements in process.
     */
    async reserveAndAppend(trx: Transaction, tenantId: string, changes: Array<Pick<ChangeLogEntry, 'collection' | 'id' | 'op'>>, at: string): Promise<number> {
      const n = changes.length;
      if (dialectOf(trx) !== 'pg') {
        const last = await this.reserve(trx, tenantId, n);
        await this.append(trx, tenantId, changes.map((c, i) => ({ ...c, seq: last - n + 1 + i, at })));
        return last;
      }
      // Data-modifying CTEs run once and to completion whatever the outer select reads; the
      // counter's row lock is taken by the first, as in `reserve`.
      const { rows } = await preparedSql<{ value: number | string }>(trx, 'changeLog.reserveAndAppend', () => `
        with counter as (
          insert into counters (tenant_id, name, value) values ($1, '${SEQ_COUNTER}', $2::bigint)
          on conflict (tenant_id, name) do update set value = counters.value + excluded.value
          returning value
        ), entries as (
          insert into change_log (tenant_id, seq, collection, record_id, op, created_at)
          select $1, counter.value - $2::bigint + e.n, e.collection, e.record_id, e.op, $6
          from counter, unnest($3::text[], $4::text[], $5::text[]) with ordinality as e(collection, record_id, op, n)
        )
        select value from counter`, [tenantId, n, changes.map((c) => c.collection), changes.map((c) => c.id), changes.map((c) => c.op), at]);
      return Number(rows[0]!.value);
    },

    async append(trx: Transaction, tenantId: string, entries: ChangeLogEntry[]): Promise<void> {
      for (let i = 0; i < entries.length; i += 200) {
        const chunk = entries.slice(i, i + 200);
        // One shape per row count (at most 200), each compiled once.
        await prepared(trx, `changeLog.append:${chunk.length}`, chunk.flatMap((e) => [tenantId, e.seq, e.collection, e.id, e.op, e.at]), (k, v) =>
          k('change_log').insert(chunk.map((_, r) => ({ tenant_id: v[r * 6]!, seq: v[r * 6 + 1]!, collection: v[r * 6 + 2]!, record_id: v[r * 6 + 3]!, op: v[r * 6 + 4]!, created_at: v[r * 6 + 5]! }))));
      }
    },

    /** The oldest seq still in the log, or null when the tenant's log is empty. */
    async oldestSeq(tenantId: string): Promise<number | null> {
      const row = await db('change_log').where('tenant_id', tenantId).min('seq as seq').first();
      return row?.seq == null ? null : Number(row.seq);
    },

    /** Deletes entries older than `before` (ISO date), every tenant. */
    async pruneBefore(before: string): Promise<number> {
      return db('change_log').where('created_at', '<', before).del();
    },
  };
}
