import { messages } from '@atendimento/schemas';
import { conflict } from '../../../errors';
import type { RegisterLookups } from '../../../db/repositories/register-lookups';
import type { RegisterHooks } from '../register-hooks';

/**
 * Tags: a name is used once per tenant (case and spacing aside). Agents pick tags by name in a
 * chat, on cards and in filters; two 'VIP' tags could not be told apart there.
 */
export function tagsHooks(lookups: RegisterLookups): RegisterHooks {
  const key = (name: unknown) => String(name ?? '').trim().replace(/\s+/g, ' ').toLocaleLowerCase('pt-BR');
  return {
    async beforeWrite(ctx, next) {
      next.name = String(next.name ?? '').trim();
      const wanted = key(next.name);
      const taken = (await lookups.tagNames(ctx.tenant.id, ctx.trx)).some((tag) => tag.id !== next.id && key(tag.name) === wanted);
      if (taken) throw conflict('tag_name_in_use', messages.registers.tagNameInUse);
      return {};
    },
  };
}
