import { isStranger, type Filter, type OrderBy } from '@atendimento/schemas';
import { forbidden } from '../../errors';
import type { Transaction } from '../../db/knex';
import type { Principal } from '../auth/auth-service';
import type { TenantRow } from '../../db/repositories/tenant-repository';

/** A subscription's query after the server has applied what this caller may see. */
export interface LiveQuery {
  /** The caller's filters AND the server's scope (tenant is implicit). */
  filter: Filter | null;
  orderBy: OrderBy[];
  limit: number;
  /**
   * Keep soft-deleted records (lifeControl.deletedAt set) in the window. Optional, default
   * false: the hub treats a soft-deleted record as removed (registers list live rows only).
   */
  includeDeleted?: boolean;
  /**
   * Top-level fields this caller must not receive (survey answers for who lacks showNPS /
   * showCSAT). Part of the query, so only subscriptions with the same cut share a group.
   */
  omitFields?: string[];
}

/** API-shaped record: always has an id; soft-deleted ones carry lifeControl.deletedAt. */
export type LiveRecord = { id: string; [key: string]: unknown };

/**
 * The contract between the domains and the realtime hub: services implement it, the hub
 * (server/src/hub) serves it, and neither imports the other for it.
 *
 * One collection clients can subscribe to over /ws (seed 002 §7 "Realtime subscriptions").
 *
 * To make a collection live:
 * 1. write its records through `feed.transaction` and `record({ collection: name, id, op })`;
 * 2. implement this interface (usually beside the collection's repository);
 * 3. register it with `hub.registerCollection(...)` where the domain is wired (server.ts).
 */
export interface LiveCollection {
  name: string;
  /**
   * Turns the client's query into the server's: checks the caller may subscribe at all
   * (throw AppError 403 otherwise) and ANDs the caller's scope (department membership,
   * claims, own records...). A client can narrow what it sees, never widen it.
   */
  resolve(tenant: TenantRow, principal: Principal, query: unknown): LiveQuery | Promise<LiveQuery>;
  /** First page for a resolved query, inside the hub's consistent read transaction. */
  snapshot(trx: Transaction, tenantId: string, query: LiveQuery): Promise<LiveRecord[]>;
  /** Current state of changed records (deleted ones included, so they can be removed). */
  load(tenantId: string, ids: string[]): Promise<LiveRecord[]>;
}

/**
 * The caller is a signed-in member of the tenant: not a visitor, not a stranger (a public
 * sign-up with nothing granted yet, docs/security.md). For the collections that list the staff
 * and the tenant's structure (users, departments, queues, tags, channels, presence): REST
 * refuses strangers those lists, and the hub must not hand them out either.
 */
export function assertMember(principal: Principal): asserts principal is Extract<Principal, { kind: 'user' }> {
  if (principal.kind !== 'user' || isStranger(principal.user, [...principal.agentOf, ...principal.supervisorOf])) throw forbidden();
}
