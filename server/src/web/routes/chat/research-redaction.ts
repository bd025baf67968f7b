import { hiddenResearchFields } from '@atendimento/schemas';
import type { ApiRegistry, AppContext } from '../../access';

/** How deep an answer is searched for room records (`data`, `data[i]`, `data.rooms[i]`). */
const MAX_DEPTH = 4;

/**
 * `value` without `fields` on the room records in it; untouched parts are shared, changed ones
 * copied (services may hand out records they still hold).
 */
function cut(value: unknown, fields: readonly string[], depth: number): unknown {
  if (depth > MAX_DEPTH || !value || typeof value !== 'object' || Buffer.isBuffer(value) || typeof (value as { pipe?: unknown }).pipe === 'function') return value;
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    value.forEach((item, i) => {
      const next = cut(item, fields, depth + 1);
      if (next !== item) (out ??= [...value])[i] = next;
    });
    return out ?? value;
  }
  const record = value as Record<string, unknown>;
  let out: Record<string, unknown> | null = null;
  // A room record: the only shape carrying survey answers.
  if ('roomInc' in record && fields.some((f) => f in record)) {
    out = { ...record };
    for (const field of fields) delete out[field];
  }
  for (const key of Object.keys(record)) {
    const item = record[key];
    if (!item || typeof item !== 'object') continue;
    const next = cut(item, fields, depth + 1);
    if (next !== item) (out ??= { ...record })[key] = next;
  }
  return out ?? value;
}

/**
 * Survey answers (a room's `nps` / `csat`) leave the server only for admins and holders of
 * showNPS / showCSAT (`maySeeResearch`): every chat route's answer is cut for the caller after
 * its handler, so a route added later cannot forget it. The hub does the same per subscription.
 */
export function redactingResearch(api: ApiRegistry): ApiRegistry {
  return {
    ...api,
    add(spec) {
      api.add({
        ...spec,
        handler: async (ctx) => {
          await spec.handler(ctx);
          const principal = (ctx as AppContext).state.principal;
          const fields = hiddenResearchFields(principal?.kind === 'user' ? principal.user : null);
          if (fields.length) ctx.body = cut(ctx.body, fields, 0);
        },
      });
    },
  };
}
