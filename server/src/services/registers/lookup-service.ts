import { format, messages, type Filter } from '@atendimento/schemas';
import { normaliseSearch } from '@atendimento/schemas/registers/index';
import { badRequest } from '../../errors';
import type { RegisterRepository } from '../../db/repositories/register-repository';
import type { Caller, RegisterService } from './register-service';
import { CHANNELS_TABLE } from './register-tables';

/** One option of a picker: the record's id and title. */
export interface LookupOption {
  id: string;
  label: string;
  [extra: string]: unknown;
}

const MAX = 100;

function idList(raw: unknown): string[] | null {
  if (raw === undefined || raw === '') return null;
  if (typeof raw !== 'string') throw badRequest('bad_query', format(messages.registers.badQuery, { param: 'ids' }));
  const ids = raw.startsWith('[') ? (JSON.parse(raw) as unknown[]) : raw.split(',');
  if (!Array.isArray(ids) || ids.length > 500 || !ids.every((id) => typeof id === 'string' && id.length <= 200)) {
    throw badRequest('bad_query', format(messages.registers.badQuery, { param: 'ids' }));
  }
  return ids as string[];
}

/**
 * GET /api/lookup/{collection}?q=&ids=&type=: options for autocomplete/select widgets and the
 * titles of ids shown as chips. Channels are offered too (QR codes pick meta channels).
 */
export function createLookupService(deps: { registers: RegisterService; repo: RegisterRepository }) {
  return {
    async lookup(caller: Caller, collection: string, params: Record<string, unknown>): Promise<LookupOption[]> {
      let ids: string[] | null;
      try {
        ids = idList(params.ids);
      } catch {
        throw badRequest('bad_query', format(messages.registers.badQuery, { param: 'ids' }));
      }
      const q = typeof params.q === 'string' ? normaliseSearch(params.q) : '';
      const limit = Math.min(MAX, Math.max(1, Number(params.limit ?? 20) || 20));

      if (collection === 'channels') {
        const parts: Filter[] = [{ field: 'active', op: '==', value: true }];
        if (typeof params.type === 'string' && params.type) parts.push({ field: 'type', op: '==', value: params.type });
        if (ids) parts.push({ field: 'id', op: 'in', value: ids });
        if (q) parts.push({ field: 'displayName', op: 'like', value: q });
        const page = await deps.repo.list(caller.tenant.id, { ...CHANNELS_TABLE, fields: { ...CHANNELS_TABLE.fields, id: { column: 'id', type: 'string' } } }, {
          filter: { and: parts },
          orderBy: [{ field: 'displayName', direction: 'asc' }],
          offset: 0,
          limit: ids ? ids.length : limit,
        });
        return page.records.map((r) => ({ id: r.id, label: String(r.displayName ?? r.id), type: r.type, phoneNumber: r.phoneNumber ?? null }));
      }

      const definition = deps.registers.definition(collection);
      const { titleField, searchFields } = definition.list;
      const parts: Filter[] = [];
      if (ids) parts.push({ field: 'id', op: 'in', value: ids });
      if (q) parts.push({ or: searchFields.map((field) => ({ field, op: 'like' as const, value: q })) });
      const records = await deps.registers.pick(caller, collection, {
        filter: parts.length === 0 ? null : parts.length === 1 ? parts[0]! : { and: parts },
        orderBy: [{ field: titleField, direction: 'asc' }],
        offset: 0,
        limit: ids ? Math.max(ids.length, 1) : limit,
      });
      return records.map((r) => ({ id: r.id, label: String(r[titleField] ?? r.id), ...(r.active === false && { active: false }) }));
    },
  };
}

export type LookupService = ReturnType<typeof createLookupService>;
