import type { Db } from '../knex';

/** Lookups of the summaries screen (docs/summaries.md). */
export function createSummaryRepository(db: Db) {
  return {
    /** The room id of a chat number (roomInc) in the tenant, if any. */
    async roomIdByInc(tenantId: string, roomInc: number): Promise<string | null> {
      const row = await db('rooms').where({ tenant_id: tenantId, room_inc: roomInc }).first('id');
      return row ? String(row.id) : null;
    },
  };
}
