import { parseJson, toJson, type Db } from '../knex';

/** An API token row (migration 007): the token itself is never stored, only its SHA-256. */
export interface ApiTokenRecord {
  id: string;
  name: string;
  tokenHash: string;
  prefix: string;
  urls: string[];
  methods: string[];
  userId: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

interface Row {
  id: string;
  tenant_id: string;
  name: string;
  token_hash: string;
  prefix: string;
  urls: unknown;
  methods: unknown;
  user_id: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

const fromRow = (row: Row): ApiTokenRecord => ({
  id: row.id,
  name: row.name,
  tokenHash: row.token_hash,
  prefix: row.prefix,
  urls: parseJson<string[]>(row.urls, []),
  methods: parseJson<string[]>(row.methods, []),
  userId: row.user_id,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at ?? null,
  revokedAt: row.revoked_at ?? null,
});

/** API tokens of the API screen (docs/api.md). Tenant id first in every call. */
export function createApiTokenRepository(db: Db) {
  const table = () => db<Row>('api_tokens');
  return {
    /** The newest 200, revoked ones included (the screen shows them struck through). */
    async list(tenantId: string): Promise<ApiTokenRecord[]> {
      const rows = await table().where({ tenant_id: tenantId }).orderBy([{ column: 'revoked_at', order: 'desc' }, { column: 'created_at', order: 'desc' }]).limit(200);
      return rows.map(fromRow);
    },

    /** Stores a new token for `record.name`, revoking the name's current one in the same transaction. */
    async replaceActive(tenantId: string, record: ApiTokenRecord): Promise<void> {
      await db.transaction(async (trx) => {
        await trx('api_tokens').where({ tenant_id: tenantId, name: record.name }).whereNull('revoked_at').update({ revoked_at: record.createdAt });
        await trx('api_tokens').insert({
          id: record.id,
          tenant_id: tenantId,
          name: record.name,
          token_hash: record.tokenHash,
          prefix: record.prefix,
          urls: toJson(record.urls),
          methods: toJson(record.methods),
          user_id: record.userId,
          created_at: record.createdAt,
          last_used_at: record.lastUsedAt,
          revoked_at: record.revokedAt,
        });
      });
    },

    /** Revokes (if not yet) and answers the row; null when the id is not this tenant's. */
    async revoke(tenantId: string, id: string, now: string): Promise<ApiTokenRecord | null> {
      await table().where({ tenant_id: tenantId, id }).whereNull('revoked_at').update({ revoked_at: now });
      const row = await table().where({ tenant_id: tenantId, id }).first();
      return row ? fromRow(row) : null;
    },

    async findByHash(tenantId: string, tokenHash: string): Promise<ApiTokenRecord | null> {
      const row = await table().where({ tenant_id: tenantId, token_hash: tokenHash }).first();
      return row ? fromRow(row) : null;
    },

    async touch(tenantId: string, id: string, at: string): Promise<void> {
      await table().where({ tenant_id: tenantId, id }).update({ last_used_at: at });
    },
  };
}

export type ApiTokenRepository = ReturnType<typeof createApiTokenRepository>;
