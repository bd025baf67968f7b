import type { AppConfig, User } from './domain';

/**
 * Access rules shared by the server (enforcement) and the browser (convenience guards):
 * seed 000 §2 "Navigation guard" and §6.
 */
export function isAdmin(user: Pick<User, 'claims'> | null | undefined): boolean {
  return Boolean(user?.claims?.admin);
}

/** Admin, or a permission named like the route's first path segment (e.g. 'contacts'). */
export function hasPermission(user: Pick<User, 'claims'> | null | undefined, permission: string): boolean {
  return isAdmin(user) || Boolean(user?.claims?.[permission]);
}

export function hasTenantClaim(config: Pick<AppConfig, 'claims'> | null | undefined, claim: string): boolean {
  return Boolean(config?.claims?.[claim]);
}

/** First segment of a path: '/contacts/12/show' → 'contacts'. */
export function firstSegment(path: string): string {
  return path.replace(/^\/+/, '').split(/[/?#]/)[0] ?? '';
}
