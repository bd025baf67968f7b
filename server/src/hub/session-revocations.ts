/**
 * Ended sessions as change-feed events (docs/security.md "Sessions"): the process where a user
 * signs out, is disabled or deleted, or loses a refresh family closes its own sockets at once
 * and records one `sessions` change per ended session or user; every other process hears it
 * through the bus (PostgreSQL or Redis) and closes its sockets of that session or user too.
 * No live collection is named `sessions`, so subscriptions never load these events.
 */
export const SESSIONS_COLLECTION = 'sessions';

export type Revoked = { sessionIds: string[] } | { userId: string; disabled?: boolean };

/** Change ids of a revocation: 's:<session>' each, or 'u:<user>' / 'd:<user>' (disabled). */
export function revocationIds(revoked: Revoked): string[] {
  if ('sessionIds' in revoked) return revoked.sessionIds.map((id) => `s:${id}`);
  return [`${revoked.disabled ? 'd' : 'u'}:${revoked.userId}`];
}

/** The revocation a change id stands for (null for an id this version does not write). */
export function revocationOf(id: string): Revoked | null {
  const kind = id.slice(0, 2);
  const rest = id.slice(2);
  if (!rest) return null;
  if (kind === 's:') return { sessionIds: [rest] };
  if (kind === 'u:') return { userId: rest };
  if (kind === 'd:') return { userId: rest, disabled: true };
  return null;
}
