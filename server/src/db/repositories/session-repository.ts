import type { Db } from '../knex';

interface SessionRow {
  id: string;
  tenantId: string;
  userId: string;
  revokedAt: string | null;
}

interface RefreshTokenRow {
  id: string;
  tenantId: string;
  sessionId: string;
  expiresAt: string;
  usedAt: string | null;
}

/**
 * Sessions are refresh-token families: each refresh rotates the token inside the family;
 * presenting an already-used token revokes the whole family (RFC 6819 §5.2.2.3).
 */
export function createSessionRepository(db: Db) {
  return {
    async createSession(
      tenantId: string,
      session: { id: string; userId: string; userAgent: string | null; ip: string | null },
      now: Date,
    ): Promise<void> {
      const iso = now.toISOString();
      await db('sessions').insert({
        id: session.id,
        tenant_id: tenantId,
        user_id: session.userId,
        created_at: iso,
        last_used_at: iso,
        revoked_at: null,
        revoked_reason: null,
        user_agent: session.userAgent?.slice(0, 400) ?? null,
        ip: session.ip,
      });
    },
    async findSession(tenantId: string, id: string): Promise<SessionRow | null> {
      const row = await db('sessions').where({ tenant_id: tenantId, id }).first();
      return row
        ? { id: row.id, tenantId: row.tenant_id, userId: row.user_id, revokedAt: row.revoked_at ?? null }
        : null;
    },
    async revokeSession(tenantId: string, id: string, reason: string, now: Date): Promise<void> {
      await db('sessions')
        .where({ tenant_id: tenantId, id })
        .whereNull('revoked_at')
        .update({ revoked_at: now.toISOString(), revoked_reason: reason });
    },
    async revokeAllForUser(tenantId: string, userId: string, reason: string, now: Date): Promise<void> {
      await db('sessions')
        .where({ tenant_id: tenantId, user_id: userId })
        .whereNull('revoked_at')
        .update({ revoked_at: now.toISOString(), revoked_reason: reason });
    },
    async addRefreshToken(
      tenantId: string,
      token: { id: string; sessionId: string; tokenHash: string; expiresAt: Date },
      now: Date,
    ): Promise<void> {
      await db('refresh_tokens').insert({
        id: token.id,
        tenant_id: tenantId,
        session_id: token.sessionId,
        token_hash: token.tokenHash,
        expires_at: token.expiresAt.toISOString(),
        used_at: null,
        created_at: now.toISOString(),
      });
    },
    async findRefreshToken(tenantId: string, tokenHash: string): Promise<RefreshTokenRow | null> {
      const row = await db('refresh_tokens').where({ tenant_id: tenantId, token_hash: tokenHash }).first();
      return row
        ? { id: row.id, tenantId: row.tenant_id, sessionId: row.session_id, expiresAt: row.expires_at, usedAt: row.used_at ?? null }
        : null;
    },
    /** Marks the token used; false when another request used it first (a race is a reuse). */
    async consumeRefreshToken(tenantId: string, id: string, now: Date): Promise<boolean> {
      const changed = await db('refresh_tokens')
        .where({ tenant_id: tenantId, id })
        .whereNull('used_at')
        .update({ used_at: now.toISOString() });
      return Number(changed) === 1;
    },
    async listActiveSessionIds(tenantId: string, userId: string): Promise<string[]> {
      const rows = await db('sessions').where({ tenant_id: tenantId, user_id: userId }).whereNull('revoked_at').select('id');
      return rows.map((r) => String(r.id));
    },
    async touchSession(tenantId: string, id: string, now: Date): Promise<void> {
      await db('sessions').where({ tenant_id: tenantId, id }).update({ last_used_at: now.toISOString() });
    },
  };
}

export type SessionRepository = ReturnType<typeof createSessionRepository>;
