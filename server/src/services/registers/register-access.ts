import { allows, hasTenantClaim, isStranger } from '@atendimento/schemas';
import { registerRule, registerWriteRule, type RegisterListMeta } from '@atendimento/schemas/registers/index';
import type { TenantRow } from '../../db/repositories/tenant-repository';
import type { UserRecord } from '../../db/repositories/user-repository';

/**
 * Who may use a register (seed 000 §2 route table and navigation guard, §6): schemas' `allows`
 * with the register's rule, the one the engine's guard asks, for every live subscription and lookup.
 */
export function mayUseRegister(list: RegisterListMeta, tenant: TenantRow, user: Pick<UserRecord, 'claims'>): boolean {
  return allows(registerRule(list), user, tenant.appConfig);
}

/**
 * Who may write a register: its write rule (list.json `writeAccess`, else its screen rule), and
 * for registers every user may open, not a stranger (docs/security.md) unless the records are
 * the caller's own (ownerField: fixed messages).
 */
export function mayWriteRegister(list: RegisterListMeta, tenant: TenantRow, user: Pick<UserRecord, 'claims'>, departments: readonly string[]): boolean {
  const rule = registerWriteRule(list);
  if (!allows(rule, user, tenant.appConfig)) return false;
  const openToAll = rule.access === 'user' || rule.access === 'tenantClaim';
  return !(openToAll && !list.ownerField && isStranger(user, departments));
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
