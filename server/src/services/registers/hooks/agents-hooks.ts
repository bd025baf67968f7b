import { messages } from '@atendimento/schemas';
import { passwordProblem } from '@atendimento/schemas/password-policy';
import { conflict, forbidden, validationError } from '../../../errors';
import type { RegisterLookups } from '../../../db/repositories/register-lookups';
import { normaliseEmail } from '../../../db/repositories/user-repository';
import type { TenantRow } from '../../../db/repositories/tenant-repository';
import { hashPassword } from '../../auth/password';
import type { RegisterHooks } from '../register-hooks';

/**
 * Agents are users of type agent (the users table auth signs in against): the password is
 * hashed with auth's argon2id parameters and never returned, e-mails stay unique per tenant,
 * only admins grant claims (a permission to edit agents must not be a way to become admin),
 * 'Enviar Login' e-mails auth's one-time sign-in link after the save, and a deleted agent
 * leaves every department.
 */
export function agentsHooks(deps: {
  lookups: RegisterLookups;
  sendSignInLink(tenant: TenantRow, userId: string): Promise<void>;
  sendAccountNotice?(tenant: TenantRow, to: { email: string; displayName: string }, change: { email?: string; password?: boolean }): Promise<void>;
  revokeUser?(tenant: TenantRow, userId: string, reason: 'disabled' | 'deleted' | 'credentials_changed'): Promise<void>;
}): RegisterHooks {
  const { lookups } = deps;
  /** 409 when no active admin other than `leaving` would remain (read inside the write's transaction). */
  async function keepsAnAdmin(tenantId: string, leaving: string[], trx: Parameters<RegisterLookups['activeAdminIds']>[1]): Promise<void> {
    const others = (await lookups.activeAdminIds(tenantId, trx)).filter((id) => !leaving.includes(id));
    if (others.length === 0) throw conflict('last_admin', messages.auth.lastAdmin);
  }
  return {
    async beforeWrite(ctx, next, previous, inputs) {
      const email = normaliseEmail(String(next.email));
      next.email = email;
      const holder = await lookups.userIdByEmail(ctx.tenant.id, email, ctx.trx);
      if (holder && holder !== next.id) throw conflict('email_in_use', messages.auth.emailInUse);
      if (!ctx.admin) {
        // The 'agents' screen permission must not be a way to become admin. Claims
        // (anyone's, one's own included) change only by an admin; an admin's e-mail, password
        // and status too. Claims sent unchanged (the form sends the whole record) are fine.
        if (!sameClaims(next.claims, previous?.claims)) throw forbidden('admin_only_claims', messages.auth.adminOnlyClaims);
        if (previous && isAdminRecord(previous)) {
          const emailChanged = normaliseEmail(String(previous.email ?? '')) !== email;
          const passwordGiven = typeof inputs.password === 'string' && inputs.password !== '';
          const statusChanged = next.active !== undefined && Boolean(next.active) !== Boolean(previous.active ?? true);
          if (emailChanged || passwordGiven || statusChanged) throw forbidden('admin_only_account', messages.auth.adminOnlyAccount);
        }
        next.claims = previous?.claims ?? {};
      }
      // An active admin who stops being one (admin claim removed, account disabled) must not be the
      // tenant's last: no one could then grant it back or reach the settings.
      if (previous && isActiveAdmin(previous) && !isActiveAdmin(next)) await keepsAnAdmin(ctx.tenant.id, [String(previous.id)], ctx.trx);
      // The fields auth's user repository expects in users.data (photoUrl is its spelling).
      next.photoUrl = next.photoURL ?? null;
      if (!previous) {
        next.team ??= [];
        next.status ??= null;
        next.whatsapp ??= null;
        next.type = 'agent';
      }
      next.claims ??= {};
      next.updatePass = Boolean(next.updatePass);
      next.showChatsWithTags ??= [];
      const extra: Record<string, unknown> = {};
      if (typeof inputs.password === 'string' && inputs.password !== '') {
        // The password policy (schemas/src/password-policy.ts) also for passwords an admin sets.
        const problem = passwordProblem(inputs.password, { email });
        if (problem) throw validationError([{ field: 'password', message: problem }]);
        extra.password_hash = await hashPassword(inputs.password);
      } else if (!previous) {
        extra.password_hash = null;
      }
      if (!previous) extra.email_verified = false;
      return extra;
    },
    async afterDelete(ctx, deleted) {
      // In the delete's transaction: throwing undoes it.
      if (!ctx.admin && deleted.some(isAdminRecord)) throw forbidden('admin_only_account', messages.auth.adminOnlyAccount);
      // One's own account is deleted by someone else: one click would sign the admin out for good.
      if (deleted.some((r) => r.id === ctx.user.id)) throw forbidden('self_delete', messages.auth.selfDelete);
      const admins = deleted.filter(isActiveAdmin).map((r) => String(r.id));
      if (admins.length) await keepsAnAdmin(ctx.tenant.id, admins, ctx.trx);
      // A deleted user's sessions end and their sockets close.
      for (const record of deleted) await deps.revokeUser?.(ctx.tenant, record.id, 'deleted');
      const changed = await lookups.removeUsersFromDepartments(ctx.tenant.id, deleted.map((r) => r.id), ctx.now, ctx.trx);
      for (const id of changed) ctx.record({ collection: 'departaments', id, op: 'upsert' });
    },
    async afterCommit(ctx, next, previous, inputs) {
      if (previous && previous.active !== false && next.active === false) await deps.revokeUser?.(ctx.tenant, next.id, 'disabled');
      // A password or e-mail set by someone else (an admin resetting a compromised account) ends
      // the user's sessions and refresh tokens, as the user's own change does.
      else if (previous && ((typeof inputs.password === 'string' && inputs.password !== '') || normaliseEmail(String(previous.email ?? '')) !== normaliseEmail(String(next.email ?? '')))) {
        await deps.revokeUser?.(ctx.tenant, next.id, 'credentials_changed');
      }
      if (previous && deps.sendAccountNotice) {
        const oldEmail = String(previous.email ?? '');
        const emailChanged = oldEmail !== '' && oldEmail !== next.email;
        const passwordChanged = typeof inputs.password === 'string' && inputs.password !== '';
        if (oldEmail && (emailChanged || passwordChanged)) {
          await deps.sendAccountNotice(ctx.tenant, { email: oldEmail, displayName: String(previous.displayName ?? next.displayName ?? '') }, { ...(emailChanged && { email: String(next.email) }), password: passwordChanged });
        }
      }
      if (inputs.sendLogin === true) await deps.sendSignInLink(ctx.tenant, next.id);
    },
    toApi(record) {
      const { photoUrl, type: _type, status: _status, team: _team, whatsapp: _whatsapp, ...rest } = record;
      return { ...rest, photoURL: rest.photoURL ?? photoUrl ?? null };
    },
  };
}

function isActiveAdmin(record: Record<string, unknown>): boolean {
  return isAdminRecord(record) && record.active !== false;
}

function isAdminRecord(record: Record<string, unknown>): boolean {
  return Boolean((record.claims as Record<string, unknown> | undefined)?.admin);
}

/** Claims compared by their granted (truthy) entries: `{ admin: false }` and `{}` are the same. */
function sameClaims(a: unknown, b: unknown): boolean {
  const granted = (claims: unknown) =>
    JSON.stringify(
      Object.entries((claims && typeof claims === 'object' ? claims : {}) as Record<string, unknown>)
        .filter(([, value]) => value !== false && value !== null && value !== undefined && value !== '')
        .sort(([x], [y]) => x.localeCompare(y)),
    );
  return granted(a) === granted(b);
}
