import { FILTER_OPS, format, isValidFilter, messages, type Filter, type FilterOp, type OrderBy } from '@atendimento/schemas';
import { badRequest } from '../../errors';

interface QueryRules {
  defaultOrder: OrderBy[];
  defaultLimit: number;
  maxLimit: number;
  /** Fields a client may filter and sort on; omitted = any field (filtered in memory). */
  fields?: readonly string[];
  /** Operators allowed (SQL-compiled collections support fewer). */
  ops?: readonly FilterOp[];
}

function invalid(detail: string) {
  return badRequest('invalid_query', format(messages.realtime.invalidQuery, { detail }));
}

function checkFields(filter: Filter, rules: QueryRules): void {
  if ('and' in filter) return filter.and.forEach((f) => checkFields(f, rules));
  if ('or' in filter) return filter.or.forEach((f) => checkFields(f, rules));
  if (rules.fields && !rules.fields.includes(filter.field)) throw invalid(`campo "${filter.field}" não pode ser filtrado`);
  if (!(rules.ops ?? FILTER_OPS).includes(filter.op)) throw invalid(`operador "${filter.op}" não suportado em "${filter.field}"`);
  if ((filter.op === 'in' || filter.op === 'not-in') && !(Array.isArray(filter.value) && filter.value.length <= 500)) {
    throw invalid(`"${filter.field}" precisa de uma lista (até 500 valores)`);
  }
}

/**
 * Reads a subscription's `{ filter, orderBy, limit }` from a client with pt-BR 400s for
 * anything malformed, so `resolve` can AND its own scope onto a query known to be sound.
 */
export function readLiveQuery(input: unknown, rules: QueryRules): { filter: Filter | null; orderBy: OrderBy[]; limit: number } {
  const q = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
  let filter: Filter | null = null;
  if (q.filter !== undefined && q.filter !== null) {
    if (!isValidFilter(q.filter)) throw invalid('filtro malformado');
    checkFields(q.filter, rules);
    filter = q.filter;
  }
  let orderBy = rules.defaultOrder;
  if (q.orderBy !== undefined) {
    if (!Array.isArray(q.orderBy) || q.orderBy.length > 3) throw invalid('ordenação malformada');
    orderBy = q.orderBy.map((o: unknown) => {
      const item = o as Partial<OrderBy> | null;
      if (!item || typeof item.field !== 'string' || (item.direction !== 'asc' && item.direction !== 'desc')) throw invalid('ordenação malformada');
      if (rules.fields && !rules.fields.includes(item.field)) throw invalid(`campo "${item.field}" não pode ordenar`);
      return { field: item.field, direction: item.direction };
    });
  }
  let limit = rules.defaultLimit;
  if (q.limit !== undefined) {
    if (!Number.isInteger(q.limit) || (q.limit as number) < 1) throw invalid('limite deve ser um inteiro positivo');
    limit = Math.min(q.limit as number, rules.maxLimit);
  }
  return { filter, orderBy, limit };
}

/** ANDs the server's scope with the client's filter (the client can narrow, never widen). */
export function andFilters(...filters: (Filter | null | undefined)[]): Filter | null {
  const list = filters.filter((f): f is Filter => Boolean(f));
  if (list.length === 0) return null;
  return list.length === 1 ? list[0]! : { and: list };
}
