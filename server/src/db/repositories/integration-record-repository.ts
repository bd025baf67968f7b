import type { Knex } from 'knex';
import type { Db } from '../knex';

/**
 * The few statements on `integration_records` (migration 006) the generic register
 * repository has no verb for; every one is scoped by tenant and collection.
 */
export function createIntegrationRecordRepository(db: Db) {
  return {
    /** Whether an id exists in a tenant's collection, and whether it is soft-deleted. */
    async find(tenantId: string, collection: string, id: string): Promise<{ deleted: boolean } | null> {
      const row = await db('integration_records').where({ tenant_id: tenantId, collection, id }).first('deleted_at');
      return row ? { deleted: row.deleted_at !== null && row.deleted_at !== undefined } : null;
    },

    /** Drops a soft-deleted record so the same id (an ERP code) can be created again. */
    async purgeDeleted(tenantId: string, collection: string, id: string, trx: Knex.Transaction): Promise<void> {
      await trx('integration_records').where({ tenant_id: tenantId, collection, id }).whereNotNull('deleted_at').delete();
    },
  };
}

export type IntegrationRecordRepository = ReturnType<typeof createIntegrationRecordRepository>;
