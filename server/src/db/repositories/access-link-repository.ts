import type { Db } from '../knex';

export type LinkPurpose = 'signin' | 'reset';

interface AccessLinkRow {
  id: string;
  tenantId: string;
  userId: string;
  email: string;
  purpose: LinkPurpose;
  expiresAt: string;
  usedAt: string | null;
}

/** One-time e-mailed links (sign-in and password recovery); only the token's hash is stored. */
export function createAccessLinkRepository(db: Db) {
  return {
    async create(
      tenantId: string,
      link: { id: string; userId: string; email: string; purpose: LinkPurpose; tokenHash: string; expiresAt: Date },
      now: Date,
    ): Promise<void> {
      await db('access_links').insert({
        id: link.id,
        tenant_id: tenantId,
        user_id: link.userId,
        email: link.email,
        purpose: link.purpose,
        token_hash: link.tokenHash,
        expires_at: link.expiresAt.toISOString(),
        used_at: null,
        created_at: now.toISOString(),
      });
    },
    async findByHash(tenantId: string, tokenHash: string): Promise<AccessLinkRow | null> {
      const row = await db('access_links').where({ tenant_id: tenantId, token_hash: tokenHash }).first();
      return row
        ? {
            id: row.id,
            tenantId: row.tenant_id,
            userId: row.user_id,
            email: row.email,
            purpose: row.purpose,
            expiresAt: row.expires_at,
            usedAt: row.used_at ?? null,
          }
        : null;
    },
    /** Marks the link used; false if it was already used (two tabs racing). */
    async consume(tenantId: string, id: string, now: Date): Promise<boolean> {
      const changed = await db('access_links')
        .where({ tenant_id: tenantId, id })
        .whereNull('used_at')
        .update({ used_at: now.toISOString() });
      return Number(changed) === 1;
    },
  };
}

export type AccessLinkRepository = ReturnType<typeof createAccessLinkRepository>;
