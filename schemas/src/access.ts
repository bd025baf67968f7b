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

/**
 * A stranger (docs/security.md): a user who signed up through the public page and has been
 * given nothing yet: no claim and no department. Strangers read what every user may read but
 * write nothing shared (registers open to every user, integration records) until an admin
 * grants a claim or places them in a department.
 */
export function isStranger(user: (Pick<User, 'claims'> & { claimsIntegrations?: unknown }) | null | undefined, departments: readonly string[]): boolean {
  if (!user) return true;
  if (departments.length > 0) return false;
  if (Object.values(user.claims ?? {}).some((value) => value === true)) return false;
  // A per-integration claim (seed 000 §6 claimsIntegrations) is a grant too.
  const integrations = user.claimsIntegrations;
  if (Array.isArray(integrations)) return integrations.length === 0;
  return !(integrations && typeof integrations === 'object' && Object.values(integrations).some((value) => value === true));
}

/** First segment of a path: '/contacts/12/show' → 'contacts'. */
export function firstSegment(path: string): string {
  return path.replace(/^\/+/, '').split(/[/?#]/)[0] ?? '';
}

/**
 * Who may open a screen or use a register:
 * - `public`: anyone, no chrome (sign-in screens, public chat);
 * - `user`: any signed-in user;
 * - `admin-or-permission`: admin, or a user claim named `permission` (e.g. 'contacts');
 * - `tenantClaim`: any signed-in user when the tenant configuration has `claim` on;
 * - `admin`: admins only.
 */
export type RouteAccess = 'public' | 'user' | 'admin-or-permission' | 'tenantClaim' | 'admin';

/** An access rule: the kind, the permission it names and the tenant claim it needs. */
export interface AccessRule {
  access: RouteAccess;
  /** For `admin-or-permission`: the user claim that also opens it. */
  permission?: string;
  /** Tenant claim that must be on (required for `tenantClaim`; also allowed on others). */
  claim?: string | null;
}

/**
 * The access rule, written once (seed 000 §2 "Navigation guard", §6): the browser's route
 * guard and drawer, the server's route guard for registers, and the registers' own checks
 * (live subscriptions, lookups, definitions) all ask this.
 */
export function allows(rule: AccessRule, user: Pick<User, 'claims'> | null | undefined, config: Pick<AppConfig, 'claims'> | null | undefined): boolean {
  if (rule.claim && !hasTenantClaim(config, rule.claim)) return false;
  if (rule.access === 'public') return true;
  if (!user) return false;
  switch (rule.access) {
    case 'user':
    case 'tenantClaim':
      return true;
    case 'admin':
      return isAdmin(user);
    case 'admin-or-permission':
      return rule.permission ? hasPermission(user, rule.permission) : isAdmin(user);
  }
}
