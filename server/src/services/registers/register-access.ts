import { allows, hasTenantClaim } from '@atendimento/schemas';
import { registerRule, type RegisterListMeta } from '@atendimento/schemas/registers/index';
import type { TenantRow } from '../../db/repositories/tenant-repository';
import type { UserRecord } from '../../db/repositories/user-repository';

/**
 * Who may use a register (seed 000 §2 route table and navigation guard, §6): schemas' `allows`
 * with the register's rule, the one the engine's guard asks, for every live subscription and lookup.
 */
export function mayUseRegister(list: RegisterListMeta, tenant: TenantRow, user: Pick<UserRecord, 'claims'>): boolean {
  return allows(registerRule(list), user, tenant.appConfig);
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
