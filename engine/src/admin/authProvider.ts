import type { AuthProvider, UserIdentity } from 'react-admin';
import type { UserClaims } from '@atendimento/schemas';
import { signIn, signOut } from '../api/auth';
import { session } from '../api/session';

/**
 * react-admin's view of our session (engine/src/api/session.ts): the sign-in screens live
 * outside react-admin, so `login` is only here for completeness; `checkAuth` restores the
 * session from the refresh cookie; a 401 that survived the API client's refresh-and-retry
 * signs out, a 403 does not (the user is signed in, just not allowed).
 */
export const authProvider: AuthProvider = {
  async login(params: { username?: string; email?: string; password?: string }) {
    await signIn(params.email ?? params.username ?? '', params.password ?? '');
  },
  async logout() {
    if (session.user) await signOut();
    return '/login';
  },
  async checkAuth() {
    if (!(await session.restore())) throw { redirectTo: '/login', message: false };
  },
  async checkError(error: { status?: number }) {
    if (error?.status === 401) throw { redirectTo: '/login', message: false };
  },
  async getPermissions(): Promise<UserClaims> {
    return session.user?.claims ?? {};
  },
  async getIdentity(): Promise<UserIdentity> {
    const user = session.user ?? (await session.restore());
    if (!user) throw new Error('getIdentity: not signed in');
    return { id: user.id, fullName: user.displayName, avatar: user.photoUrl ?? undefined, email: user.email };
  },
};
