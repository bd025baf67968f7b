import { hasPermission, hasTenantClaim, isAdmin } from '@atendimento/schemas';
import { registerPermission, type RegisterListMeta } from '@atendimento/schemas/registers/index';
import type { TenantRow } from '../../db/repositories/tenant-repository';
import type { UserRecord } from '../../db/repositories/user-repository';

/**
 * Who may use a register (seed 000 §2 route table and navigation guard, §6): the same rule the
 * engine's guard applies, enforced here for every route, live subscription and lookup.
 */
export function mayUseRegister(list: RegisterListMeta, tenant: TenantRow, user: Pick<UserRecord, 'claims'>): boolean {
  if (list.claim && !hasTenantClaim(tenant.appConfig, list.claim)) return false;
  switch (list.access) {
    case 'user':
    case 'tenantClaim':
      return true;
    case 'admin':
      return isAdmin(user);
    case 'admin-or-permission':
      return hasPermission(user, registerPermission(list));
    default:
      return false;
  }
}

/** Registers fed from an external source (tenant claim externalClients) are read-only. */
export function isReadOnly(list: RegisterListMeta, tenant: TenantRow): boolean {
  return list.readOnlyClaims.some((claim) => hasTenantClaim(tenant.appConfig, claim));
}

/** Fields whose tenant claim is off: hidden in the form, ignored on write. */
export function disabledFields(list: RegisterListMeta, tenant: TenantRow): string[] {
  return Object.entries(list.fieldClaims)
    .filter(([, claim]) => !hasTenantClaim(tenant.appConfig, claim))
    .map(([field]) => field);
}
