import type { AuthSession, User } from '@atendimento/schemas';
import { hasSessionHint } from '@atendimento/schemas/session-hint';

/**
 * The signed-in session of this tab. The access token lives only in memory (never in
 * storage, so an injected script cannot lift it from there); the refresh token is an httpOnly
 * cookie the server rotates on every POST /api/auth/refresh (docs/auth.md). After a reload
 * `restore()` gets a new access token from that cookie.
 */
type Listener = (user: User | null) => void;

let accessToken: string | null = null;
let currentUser: User | null = null;
let refreshing: Promise<boolean> | null = null;
const listeners = new Set<Listener>();
const signOutHooks = new Set<() => void>();
const beforeSignOutHooks = new Set<() => Promise<void> | void>();

/** Local keys the app keeps (seed 002 §3 "stored session keys"); sign-out removes the user's. */
export const STORAGE_KEYS = {
  /** The e-mail a sign-in link was sent to, so /finishSignUp can complete without asking. */
  emailForSignIn: 'atendimento.emailForSignIn',
  /** The agent's chosen presence status (seed 000 §4: kept locally). */
  status: 'atendimento.status',
} as const;

function emit(): void {
  for (const listener of listeners) listener(currentUser);
}

async function postRefresh(): Promise<boolean> {
  // A page opened without a session and without the server's hint has no refresh cookie to use:
  // nothing to ask (a 401 in the console on every load of /login). With a token, always ask.
  if (!accessToken && typeof document !== 'undefined' && !hasSessionHint(document.cookie)) return false;
  const response = await fetch('/api/auth/refresh', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'front-request': 'true' },
  }).catch(() => null);
  if (!response?.ok) return false;
  const body = (await response.json().catch(() => null)) as { data?: AuthSession } | null;
  if (!body?.data?.accessToken) return false;
  setSession(body.data);
  return true;
}

/**
 * Refresh tokens are single-use: two tabs refreshing with the same cookie at once would look
 * like a replay and revoke the session. A Web Lock serialises refreshes across tabs where the
 * browser offers it (secure contexts); within a tab one refresh is shared by every caller.
 */
function refreshOnce(): Promise<boolean> {
  if (!refreshing) {
    const locks = typeof navigator !== 'undefined' ? (navigator as Navigator & { locks?: LockManager }).locks : undefined;
    const run = locks ? locks.request('atendimento-refresh', postRefresh) : postRefresh();
    refreshing = Promise.resolve(run).finally(() => {
      refreshing = null;
    });
  }
  return refreshing;
}

export function setSession(next: Pick<AuthSession, 'accessToken' | 'user'>): void {
  accessToken = next.accessToken;
  currentUser = next.user;
  emit();
}

/** Session state and actions shared by the sign-in pages, the API client and react-admin. */
export const session = {
  get token(): string | null {
    return accessToken;
  },
  get user(): User | null {
    return currentUser;
  },
  set: setSession,
  /** Replaces the user after a profile change (same token). */
  updateUser(user: User): void {
    currentUser = user;
    emit();
  },
  /** Gets a new access token from the refresh cookie; false when the session is gone. */
  refresh: refreshOnce,
  /** The current user, restoring the session from the refresh cookie after a reload. */
  async restore(): Promise<User | null> {
    if (currentUser && accessToken) return currentUser;
    return (await refreshOnce()) ? currentUser : null;
  },
  /** Forgets the session locally (after sign-out, or when the server no longer accepts it). */
  clear(): void {
    const had = currentUser !== null || accessToken !== null;
    accessToken = null;
    currentUser = null;
    for (const hook of [...signOutHooks]) {
      try {
        hook();
      } catch (error) {
        console.error('session.onSignOut hook failed', error);
      }
    }
    if (had) emit();
  },
  /**
   * Runs `hook` (awaited, at most 2 s) before the sign-out call, while the token still works:
   * presence sends 'logoff' here (seed 002 §4).
   */
  beforeSignOut(hook: () => Promise<void> | void): () => void {
    beforeSignOutHooks.add(hook);
    return () => beforeSignOutHooks.delete(hook);
  },
  /** Used by signOut(): runs the beforeSignOut hooks, never failing and never hanging. */
  async runBeforeSignOut(): Promise<void> {
    const all = Promise.allSettled([...beforeSignOutHooks].map(async (hook) => hook()));
    await Promise.race([all, new Promise((resolve) => setTimeout(resolve, 2000))]);
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /**
   * Runs `hook` when the session ends (sign-out or expiry): realtime subscriptions, timers and
   * caches register here so sign-out closes every one of them (seed 000 §4).
   */
  onSignOut(hook: () => void): () => void {
    signOutHooks.add(hook);
    return () => signOutHooks.delete(hook);
  },
};
