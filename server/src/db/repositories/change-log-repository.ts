import { dialectOf, type Db, type Executor, type Transaction } from '../knex';

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
    /** Runs `work` in a write transaction. */
    transaction<T>(work: (trx: Transaction) => Promise<T>): Promise<T> {
      return db.transaction(work);
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
      const [row] = await trx('counters')
        .insert({ tenant_id: tenantId, name: SEQ_COUNTER, value: n })
        .onConflict(['tenant_id', 'name'])
        .merge({ value: trx.raw('?? + ?', ['counters.value', n]) })
        .returning('value');
      return Number((row as { value: number | string }).value);
    },

    async append(trx: Transaction, tenantId: string, entries: ChangeLogEntry[]): Promise<void> {
      for (let i = 0; i < entries.length; i += 200) {
        await trx('change_log').insert(
          entries.slice(i, i + 200).map((e) => ({ tenant_id: tenantId, seq: e.seq, collection: e.collection, record_id: e.id, op: e.op, created_at: e.at })),
        );
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
