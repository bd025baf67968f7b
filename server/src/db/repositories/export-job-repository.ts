import type { Db } from '../knex';
import { parseJson, toJson } from '../knex';

export type ExportJobStatus = 'queued' | 'running' | 'sent' | 'failed';

/** A dashboard export job (docs/exports.md). */
export interface ExportJobRow<Request = Record<string, unknown>> {
  id: string;
  tenantId: string;
  userId: string;
  email: string;
  request: Request;
  departments: string[] | null;
  baseUrl: string;
  fileName: string;
  status: ExportJobStatus;
  rows: number;
  bytes: number;
  attempts: number;
  linkUntil: string | null;
  createdAt: string;
  finishedAt: string | null;
}

function jobOf<R>(row: Record<string, unknown>): ExportJobRow<R> {
  return {
    id: String(row.id),
    tenantId: String(row.tenant_id),
    userId: String(row.user_id),
    email: String(row.email),
    request: parseJson<R>(row.request, {} as R),
    departments: parseJson<string[] | null>(row.departments, null),
    baseUrl: String(row.base_url),
    fileName: String(row.file_name),
    status: String(row.status) as ExportJobStatus,
    rows: Number(row.rows),
    bytes: Number(row.bytes),
    attempts: Number(row.attempts),
    linkUntil: (row.link_until as string | null) ?? null,
    createdAt: String(row.created_at),
    finishedAt: (row.finished_at as string | null) ?? null,
  };
}

/**
 * Export jobs and their leases. A process runs a job only while it holds the lease (claimed
 * with a compare-and-set: one winner on either database) and renews it as pages go out; a
 * lease that runs out means the process died, and the job is claimed again from the start.
 */
export function createExportJobRepository(db: Db) {
  return {
    async create<R>(tenantId: string, job: Omit<ExportJobRow<R>, 'tenantId' | 'status' | 'rows' | 'bytes' | 'attempts' | 'linkUntil' | 'finishedAt'>): Promise<void> {
      await db('export_jobs').insert({
        id: job.id, tenant_id: tenantId, user_id: job.userId, email: job.email, request: toJson(job.request),
        departments: job.departments === null ? null : toJson(job.departments), base_url: job.baseUrl, file_name: job.fileName,
        status: 'queued', rows: 0, bytes: 0, attempts: 0, created_at: job.createdAt,
      });
    },

    async find<R>(tenantId: string, id: string): Promise<ExportJobRow<R> | null> {
      const row = await db('export_jobs').where({ tenant_id: tenantId, id }).first();
      return row ? jobOf<R>(row) : null;
    },

    /** A job by id alone (the signed download link names no tenant). */
    async findById<R>(id: string): Promise<ExportJobRow<R> | null> {
      const row = await db('export_jobs').where({ id }).first();
      return row ? jobOf<R>(row) : null;
    },

    /**
     * Takes the job if it is waiting or its runner's lease ran out: true for exactly one caller.
     * Counts the attempt (a job that keeps killing its process stops being retried).
     */
    async claim(id: string, owner: string, now: string, leaseUntil: string): Promise<boolean> {
      const n = await db('export_jobs')
        .where({ id })
        .whereIn('status', ['queued', 'running'])
        .andWhere((w) => w.whereNull('lease_until').orWhere('lease_until', '<', now))
        .update({ status: 'running', lease_owner: owner, lease_until: leaseUntil, attempts: db.raw('?? + 1', ['attempts']) });
      return Number(n) === 1;
    },

    /** Renews the lease and records progress; false when another runner took the job over. */
    async renew(id: string, owner: string, leaseUntil: string, rows: number): Promise<boolean> {
      const n = await db('export_jobs').where({ id, lease_owner: owner, status: 'running' }).update({ lease_until: leaseUntil, rows });
      return Number(n) === 1;
    },

    /** Ends the job (sent or failed) if this runner still holds it. */
    async finish(id: string, owner: string, end: { status: 'sent' | 'failed'; rows: number; bytes: number; linkUntil: string | null; at: string }): Promise<boolean> {
      const n = await db('export_jobs')
        .where({ id, lease_owner: owner })
        .update({ status: end.status, rows: end.rows, bytes: end.bytes, link_until: end.linkUntil, finished_at: end.at, lease_owner: null, lease_until: null });
      return Number(n) === 1;
    },

    /** Lets the job go without ending it (the process is stopping): the next claim may take it at once. */
    async release(id: string, owner: string): Promise<void> {
      await db('export_jobs').where({ id, lease_owner: owner, status: 'running' }).update({ lease_owner: null, lease_until: null });
    },

    /** Jobs waiting or abandoned (lease out), oldest first. */
    async due(now: string, limit: number): Promise<{ id: string; attempts: number }[]> {
      const rows = await db('export_jobs')
        .whereIn('status', ['queued', 'running'])
        .andWhere((w) => w.whereNull('lease_until').orWhere('lease_until', '<', now))
        .orderBy('created_at')
        .limit(limit)
        .select('id', 'attempts');
      return rows.map((r: Record<string, unknown>) => ({ id: String(r.id), attempts: Number(r.attempts) }));
    },

    /** Ends a job that failed too many times without its runner being able to say so. */
    async abandon(id: string, at: string): Promise<void> {
      await db('export_jobs').where({ id }).whereIn('status', ['queued', 'running']).update({ status: 'failed', finished_at: at, lease_owner: null, lease_until: null });
    },

    /** Sent jobs whose link has expired (their files go), and finished jobs older than `before` (their rows go). */
    async expiredLinks(now: string, limit: number): Promise<{ id: string; tenantId: string }[]> {
      const rows = await db('export_jobs').where('status', 'sent').whereNotNull('link_until').andWhere('link_until', '<', now).limit(limit).select('id', 'tenant_id');
      return rows.map((r: Record<string, unknown>) => ({ id: String(r.id), tenantId: String(r.tenant_id) }));
    },

    async clearLink(id: string): Promise<void> {
      await db('export_jobs').where({ id }).update({ link_until: null });
    },

    async deleteFinishedBefore(before: string): Promise<number> {
      return Number(await db('export_jobs').whereIn('status', ['sent', 'failed']).andWhere('finished_at', '<', before).delete());
    },
  };
}

export type ExportJobRepository = ReturnType<typeof createExportJobRepository>;
