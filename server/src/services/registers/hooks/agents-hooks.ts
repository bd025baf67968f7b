import { messages } from '@atendimento/schemas';
import { conflict, validationError } from '../../../errors';
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
export function agentsHooks(deps: { lookups: RegisterLookups; sendSignInLink(tenant: TenantRow, userId: string): Promise<void> }): RegisterHooks {
  const { lookups } = deps;
  return {
    async beforeWrite(ctx, next, previous, inputs) {
      const email = normaliseEmail(String(next.email));
      next.email = email;
      const holder = await lookups.userIdByEmail(ctx.tenant.id, email, ctx.trx);
      if (holder && holder !== next.id) throw conflict('email_in_use', messages.auth.emailInUse);
      if (!ctx.admin) next.claims = previous?.claims ?? {};
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
        if (inputs.password.length > 256) throw validationError([{ field: 'password', message: messages.validation.invalidValue }]);
        extra.password_hash = await hashPassword(inputs.password);
      } else if (!previous) {
        extra.password_hash = null;
      }
      if (!previous) extra.email_verified = false;
      return extra;
    },
    async afterDelete(ctx, deleted) {
      const changed = await lookups.removeUsersFromDepartments(ctx.tenant.id, deleted.map((r) => r.id), ctx.now, ctx.trx);
      for (const id of changed) ctx.record({ collection: 'departaments', id, op: 'upsert' });
    },
    async afterCommit(ctx, next, _previous, inputs) {
      if (inputs.sendLogin === true) await deps.sendSignInLink(ctx.tenant, next.id);
    },
    toApi(record) {
      const { photoUrl, type: _type, status: _status, team: _team, whatsapp: _whatsapp, ...rest } = record;
      return { ...rest, photoURL: rest.photoURL ?? photoUrl ?? null };
    },
  };
}
