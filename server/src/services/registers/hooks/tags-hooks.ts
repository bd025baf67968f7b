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
  // The tenant's names, read once per transaction and kept up to date by its writes: an import
  // of thousands of tags writes them in a few transactions, not a read of every tag per row.
  const namesOf = new WeakMap<object, Map<string, string>>();
  async function names(tenantId: string, trx: Parameters<RegisterLookups['tagNames']>[1] & object): Promise<Map<string, string>> {
    let map = namesOf.get(trx);
    if (!map) {
      map = new Map((await lookups.tagNames(tenantId, trx)).map((tag) => [key(tag.name), tag.id]));
      namesOf.set(trx, map);
    }
    return map;
  }
  /** The row's name taken for it in `map`, or 409 when another tag holds it. */
  function claim(map: Map<string, string>, row: Record<string, unknown>, previous: Record<string, unknown> | null): void {
    row.name = String(row.name ?? '').trim();
    const wanted = key(row.name);
    const holder = map.get(wanted);
    if (holder !== undefined && holder !== row.id) throw conflict('tag_name_in_use', messages.registers.tagNameInUse);
    if (previous && key(previous.name) !== wanted && map.get(key(previous.name)) === row.id) map.delete(key(previous.name));
    map.set(wanted, String(row.id));
  }
  return {
    async beforeWrite(ctx, next, previous) {
      claim(await names(ctx.tenant.id, ctx.trx), next, previous);
      return {};
    },
    // An import: the slice's names against the tenant's and each other, one read per transaction.
    async beforeInsertMany(ctx, rows) {
      const map = await names(ctx.tenant.id, ctx.trx);
      for (const row of rows) claim(map, row, null);
    },
  };
}
