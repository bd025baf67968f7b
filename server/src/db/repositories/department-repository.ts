import { parseJson, type Db } from '../knex';

/** Reads of the departments register that other domains need (tenant id first). */
export function createDepartmentRepository(db: Db) {
  const live = (tenantId: string, ids: string[]) => db('departments').where('tenant_id', tenantId).whereIn('id', ids).whereNull('deleted_at');
  return {
    /** Active departments among `ids`, by name. */
    async activeNamed(tenantId: string, ids: string[]): Promise<{ id: string; displayName: string }[]> {
      if (ids.length === 0) return [];
      const rows = await live(tenantId, ids).andWhere('active', true).orderBy('display_name').select('id', 'display_name');
      return rows.map((r) => ({ id: String(r.id), displayName: String(r.display_name) }));
    },

    /** Those of `ids` whose claim hideIntegrations is on (docs/integrations.md). */
    async hidingIntegrations(tenantId: string, ids: string[]): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await live(tenantId, ids).select('id', 'data');
      return rows.filter((row) => parseJson<{ claims?: { hideIntegrations?: unknown } }>(row.data, {}).claims?.hideIntegrations === true).map((row) => String(row.id));
    },
  };
}

export type DepartmentRepository = ReturnType<typeof createDepartmentRepository>;
