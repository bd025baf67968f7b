import { hasPermission, hasTenantClaim, isAdmin, isValidFilter, messages, format, type Filter, type OrderBy } from '@atendimento/schemas';
import type { RegisterDefinition } from '@atendimento/schemas/registers/index';
import { AppError, forbidden } from '../../errors';
import { assertMember, type LiveCollection, type LiveQuery } from '../changes/live-collection';
import type { RegisterRepository } from '../../db/repositories/register-repository';
import { checkRegisterFilter, RegisterFilterError } from '../../db/repositories/register-sql';
import type { Principal } from '../auth/auth-service';
import type { RegisterService } from './register-service';
import { mayUseRegister } from './register-access';

const LIVE_DEFAULT_LIMIT = 20;
const LIVE_MAX_LIMIT = 500;

/**
 * Collections the chat console reads for every agent (seed 001 §7 "Live reads": departaments,
 * tags, users, queues): readable by any member of the tenant, whatever the register screen's
 * permission — the console needs them to transfer, tag and route chats; not by a stranger.
 */
const CONSOLE_COLLECTIONS = new Set(['departaments', 'tags', 'users', 'queues']);

const invalid = (detail: string) => new AppError(400, 'invalid_query', format(messages.realtime.invalidQuery, { detail }));

function parseQuery(query: unknown): { filter: Filter | null; orderBy: OrderBy[] | null; limit: number } {
  const q = (query && typeof query === 'object' ? query : {}) as { filter?: unknown; orderBy?: unknown; limit?: unknown };
  let filter: Filter | null = null;
  if (q.filter !== undefined && q.filter !== null) {
    if (!isValidFilter(q.filter)) throw new AppError(400, 'filter_empty', messages.registers.filterEmpty);
    filter = q.filter;
  }
  let orderBy: OrderBy[] | null = null;
  if (q.orderBy !== undefined) {
    if (!Array.isArray(q.orderBy) || q.orderBy.length > 3 || !q.orderBy.every((o) => o && typeof o.field === 'string' && (o.direction === 'asc' || o.direction === 'desc'))) throw invalid('orderBy');
    orderBy = q.orderBy as OrderBy[];
  }
  const limit = q.limit === undefined ? LIVE_DEFAULT_LIMIT : Number(q.limit);
  if (!Number.isInteger(limit) || limit < 1) throw invalid('limit');
  return { filter, orderBy, limit: Math.min(limit, LIVE_MAX_LIMIT) };
}

const and = (...filters: (Filter | null)[]): Filter | null => {
  const parts = filters.filter((f): f is Filter => f !== null);
  return parts.length === 0 ? null : parts.length === 1 ? parts[0]! : { and: parts };
};

/**
 * Seed 001 §6 tenant flags for the console's contact list, non-admins only: hideBlockedContacts
 * (no contact blocked for sending) and hideInactiveContacts (active ones only). A missing flag
 * on an old record counts as the schema's default (not blocked, active).
 */
function hiddenContacts(tenant: Parameters<LiveCollection['resolve']>[0]): Filter | null {
  const parts: Filter[] = [];
  if (hasTenantClaim(tenant.appConfig, 'hideBlockedContacts')) parts.push({ or: [{ field: 'blockedSending', op: '==', value: false }, { field: 'blockedSending', op: '==', value: null }] });
  if (hasTenantClaim(tenant.appConfig, 'hideInactiveContacts')) parts.push({ or: [{ field: 'active', op: '==', value: true }, { field: 'active', op: '==', value: null }] });
  return and(...parts);
}

/**
 * A register as a live collection of the realtime hub: the same rows, scope and API shape as
 * its REST list. Writes are already recorded on the change feed by the register service.
 */
function registerLiveCollection(definition: RegisterDefinition, deps: { registers: RegisterService; repo: RegisterRepository }): LiveCollection {
  const { registers, repo } = deps;
  const name = definition.list.live;
  const table = registers.table(definition.name);
  const fields = registers.fieldsOf(definition.name);

  async function scope(tenant: Parameters<LiveCollection['resolve']>[0], principal: Extract<Principal, { kind: 'user' }>): Promise<Filter | null> {
    const user = principal.user;
    const caller = { tenant, user };
    if (definition.list.claim && !hasTenantClaim(tenant.appConfig, definition.list.claim)) throw forbidden();
    if (name === 'contacts') {
      const hidden = isAdmin(user) ? null : hiddenContacts(tenant);
      // Seed 001 §6 enableAllContacts: otherwise only contacts listing the agent.
      if (hasPermission(user, 'contacts') || user.claims?.enableAllContacts) return hidden;
      return and({ field: 'agents', op: 'array-contains', value: user.id }, hidden);
    }
    if (CONSOLE_COLLECTIONS.has(name)) {
      assertMember(principal);
      return registers.scopeOf(caller, definition.name);
    }
    if (!mayUseRegister(definition.list, tenant, user)) throw forbidden();
    return registers.scopeOf(caller, definition.name);
  }

  return {
    name,
    async resolve(tenant, principal, query): Promise<LiveQuery> {
      if (principal.kind !== 'user') throw forbidden();
      const parsed = parseQuery(query);
      const filter = and(parsed.filter, await scope(tenant, principal));
      const orderBy = parsed.orderBy ?? [{ field: definition.list.sort.field, direction: definition.list.sort.order === 'DESC' ? 'desc' : 'asc' }];
      try {
        checkRegisterFilter(filter, fields);
        for (const o of orderBy) if (!fields[o.field] || fields[o.field]!.type === 'array') throw new RegisterFilterError(`não é possível ordenar por ${o.field}`);
      } catch (error) {
        if (error instanceof RegisterFilterError) throw invalid(error.message);
        throw error;
      }
      return { filter, orderBy, limit: parsed.limit };
    },
    async snapshot(trx, tenantId, query) {
      const page = await repo.list(tenantId, table, { filter: query.filter, orderBy: query.orderBy, offset: 0, limit: query.limit }, { trx });
      return page.records.map((r) => registers.toApi(definition.name, r));
    },
    async load(tenantId, ids) {
      const records = await repo.getMany(tenantId, table, ids, { includeDeleted: true });
      return records.map((r) => registers.toApi(definition.name, r));
    },
  };
}

/** One live collection per register (their `live` names: contacts, users, departaments...). */
export function registerLiveCollections(deps: { registers: RegisterService; repo: RegisterRepository }): LiveCollection[] {
  return [...deps.registers.definitions.values()].map((definition) => registerLiveCollection(definition, deps));
}
