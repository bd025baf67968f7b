import { compareBy, isAdmin, matches, messages, type StatusOption } from '@atendimento/schemas';
import type { Clock } from '../../clock';
import type { Logger } from '../../logger';
import type { Db } from '../../db/knex';
import type { TenantRow } from '../../db/repositories/tenant-repository';
import type { AgentRow, StatusRecord, StatusRepository } from '../../db/repositories/status-repository';
import { STATUS_COLUMNS } from '../../db/repositories/status-repository';
import type { ChangeFeed } from '../changes/change-feed';
import type { Principal } from '../auth/auth-service';
import { forbidden, notFound, validationError } from '../../errors';
import { assertMember, type LiveCollection, type LiveRecord } from '../changes/live-collection';
import { andFilters, readLiveQuery } from './live-query-input';

type UserPrincipal = Extract<Principal, { kind: 'user' }>;

/** Live collection of agents with `status` and `online` ('Agentes Online' = online == true). */
const PRESENCE_COLLECTION = 'presence';
/** Online window of seed 002 §4 / §9: a status record within 90000 ms. */
export const ONLINE_WINDOW_MS = 90_000;
/** Records that say "not here": the agent is offline from that moment. */
const OFFLINE = new Set(['offline', 'logoff']);
const DEFAULT_STATUSES: StatusOption[] = [
  { text: 'online', color: '#01b882', icon: 'check_circle', index: 0 },
  { text: 'ausente', color: '#f2b000', icon: 'schedule', index: 1 },
  { text: 'offline', color: '#9e9e9e', icon: 'cancel', index: 2 },
];

interface PresenceDeps {
  db: Db;
  changes: ChangeFeed;
  statuses: StatusRepository;
  clock: Clock;
  logger: Logger;
  windowMs?: number;
}

/** An agent as the `presence` collection (transfer lists, 'Agentes Online') shows it. */
interface PresenceUser extends LiveRecord {
  type: string;
  displayName: string;
  email: string;
  photoUrl: string | null;
  active: boolean;
  /** The chosen status text (statusList), kept on the user. */
  status: string | null;
  /** A status record within the online window that is not offline/logoff. */
  online: boolean;
  lifeControl: { createdAt: string; updatedAt: string; deletedAt: string | null };
}

/**
 * Presence (seed 002 §4, 001 §3, 000 §4; docs/realtime.md): status records from the status
 * bar's heartbeat, the derived online flag, and the `presence` and `status` live collections.
 * A sweeper turns agents offline when their last record leaves the window (browser closed
 * without 'logoff'), by emitting a `presence` change for them.
 *
 * `presence` is the seed's users list with presence: the `users` name belongs to the agents
 * register's live collection (registers area), which carries the register fields.
 */
export function createPresenceService(deps: PresenceDeps) {
  const { db, changes, statuses, clock, logger } = deps;
  const windowMs = deps.windowMs ?? ONLINE_WINDOW_MS;
  let sweptUpTo = clock.now().getTime() - windowMs;
  let timer: ReturnType<typeof setInterval> | null = null;
  let sweeping: Promise<number> | null = null;

  const windowStart = (now = clock.now()) => new Date(now.getTime() - windowMs).toISOString();

  function isOnline(latest: StatusRecord | undefined, now = clock.now()): boolean {
    return Boolean(latest) && latest!.createdAt > windowStart(now) && !OFFLINE.has(latest!.status.toLowerCase());
  }

  /** The tenant's status of that text (case-insensitive), as its list writes it; null when none. */
  function listedStatus(tenant: TenantRow, text: string): string | null {
    const list = tenant.appConfig.statusList?.length ? tenant.appConfig.statusList : DEFAULT_STATUSES;
    const lower = text.toLowerCase();
    return (text ? list.find((s) => s.text.toLowerCase() === lower)?.text : undefined) ?? null;
  }

  /** 'logon', 'logoff' or a status of the tenant's list (case-insensitive) → the stored text. */
  function canonicalStatus(tenant: TenantRow, value: unknown): string {
    const text = typeof value === 'string' ? value.trim() : '';
    const lower = text.toLowerCase();
    if (lower === 'logon' || lower === 'logoff') return lower;
    const found = listedStatus(tenant, text);
    if (!found) throw validationError([{ field: 'status', message: messages.realtime.invalidStatus }]);
    return found;
  }

  function toUser(agent: AgentRow, latest: Map<string, StatusRecord>, now: Date): PresenceUser {
    return {
      id: agent.id,
      type: agent.type,
      displayName: agent.displayName,
      email: agent.email,
      photoUrl: agent.photoUrl,
      active: agent.active,
      status: agent.status,
      online: isOnline(latest.get(agent.id), now),
      lifeControl: { createdAt: agent.createdAt, updatedAt: agent.updatedAt, deletedAt: agent.deletedAt },
    };
  }

  const toStatus = (r: StatusRecord): LiveRecord => ({ id: r.id, userId: r.userId, status: r.status, lifeControl: { createdAt: r.createdAt } });

  /** `presence`: active agents with status and online, for members (not visitors, not strangers). */
  const presenceCollection: LiveCollection = {
    name: PRESENCE_COLLECTION,
    resolve(_tenant, principal, input) {
      assertMember(principal);
      const q = readLiveQuery(input, { defaultOrder: [{ field: 'displayName', direction: 'asc' }], defaultLimit: 100, maxLimit: 1000 });
      // Only agents are listed (seed 002 §7), and only active ones (transfer lists, 'Agentes Online').
      const scope = andFilters({ field: 'type', op: '==', value: 'agent' }, { field: 'active', op: '==', value: true });
      return { filter: andFilters(scope, q.filter), orderBy: q.orderBy, limit: q.limit };
    },
    async snapshot(trx, tenantId, query) {
      const now = clock.now();
      const [agents, latest] = await Promise.all([statuses.agents(trx, tenantId), statuses.latestSince(trx, tenantId, windowStart(now))]);
      return agents
        .map((a) => toUser(a, latest, now))
        .filter((u) => matches(u, query.filter))
        .sort(compareBy(query.orderBy))
        .slice(0, query.limit);
    },
    async load(tenantId, ids) {
      const now = clock.now();
      const [agents, latest] = await Promise.all([statuses.agents(db, tenantId, ids), statuses.latestSince(db, tenantId, windowStart(now), ids)]);
      return agents.map((a) => toUser(a, latest, now));
    },
  };

  /** `status`: the status records themselves (newest first); agents see their own only. */
  const statusCollection: LiveCollection = {
    name: 'status',
    resolve(_tenant, principal, input) {
      if (principal.kind !== 'user') throw forbidden();
      const q = readLiveQuery(input, {
        defaultOrder: [{ field: 'lifeControl.createdAt', direction: 'desc' }],
        defaultLimit: 100,
        maxLimit: 1000,
        fields: Object.keys(STATUS_COLUMNS),
        ops: ['==', '!=', 'in', 'not-in', '<', '<=', '>', '>='],
      });
      const seesAll = isAdmin(principal.user) || principal.supervisorOf.length > 0;
      const scope = seesAll ? null : { field: 'userId', op: '==' as const, value: principal.user.id };
      return { filter: andFilters(scope, q.filter), orderBy: q.orderBy, limit: q.limit };
    },
    async snapshot(trx, tenantId, query) {
      return (await statuses.list(trx, tenantId, query)).map(toStatus);
    },
    async load(tenantId, ids) {
      return (await statuses.byIds(tenantId, ids)).map(toStatus);
    },
  };

  async function sweepNow(): Promise<number> {
    const to = clock.now().getTime() - windowMs;
    const from = sweptUpTo;
    if (to <= from) return 0;
    const candidates = await statuses.usersWithRecordsBetween(new Date(from).toISOString(), new Date(to).toISOString());
    const byTenant = new Map<string, string[]>();
    for (const c of candidates) {
      const list = byTenant.get(c.tenantId);
      if (list) list.push(c.userId);
      else byTenant.set(c.tenantId, [c.userId]);
    }
    let flipped = 0;
    for (const [tenantId, userIds] of byTenant) {
      // Latest record since `from`: if it is now out of the window and said "here", the agent just went offline.
      const latest = await statuses.latestSince(db, tenantId, new Date(from).toISOString(), userIds);
      const gone = userIds.filter((id) => {
        const rec = latest.get(id);
        return rec && rec.createdAt <= new Date(to).toISOString() && !OFFLINE.has(rec.status.toLowerCase());
      });
      if (gone.length === 0) continue;
      await changes.transaction(tenantId, async (_trx, record) => {
        for (const id of gone) record({ collection: PRESENCE_COLLECTION, id, op: 'upsert' });
      });
      flipped += gone.length;
    }
    sweptUpTo = to;
    return flipped;
  }

  return {
    collections: [presenceCollection, statusCollection] as LiveCollection[],
    isOnline,

    /**
     * `POST /api/users/:id/status` (seed 002 §7): records the status (every record is kept for
     * the userStatus report), keeps a chosen status on the user, and emits `presence` only when
     * what lists show changes (status text or online), not on every heartbeat.
     */
    async setStatus(tenant: TenantRow, principal: UserPrincipal, userId: string, body: Record<string, unknown>): Promise<{ status: string }> {
      const asked = canonicalStatus(tenant, body.status);
      if (body.heartbeat !== undefined && typeof body.heartbeat !== 'boolean') throw validationError([{ field: 'heartbeat', message: messages.realtime.invalidHeartbeat }]);
      // 403 before looking the id up, so a non-admin cannot probe which user ids exist.
      if (userId !== principal.user.id && !isAdmin(principal.user)) throw forbidden();
      const now = clock.now();
      return changes.transaction(tenant.id, async (trx, record) => {
        const agent = await statuses.findAgent(trx, tenant.id, userId);
        if (!agent) throw notFound();
        // A heartbeat repeats what its tab last knew; a status chosen since on another device
        // (or set by an admin) wins, and the answer tells the tab to show it (docs/realtime.md
        // "Presence"). A choice is never a heartbeat, so a tab's own choice always lands.
        const status = body.heartbeat === true && asked !== 'logon' && asked !== 'logoff' && agent.status && agent.status !== asked && listedStatus(tenant, agent.status) === agent.status ? agent.status : asked;
        const before = (await statuses.latestSince(trx, tenant.id, windowStart(now), [userId])).get(userId);
        const saved = await statuses.insert(trx, tenant.id, userId, status, now);
        record({ collection: 'status', id: saved.id, op: 'upsert' });
        const chosenChanged = status !== 'logon' && status !== 'logoff' && agent.status !== status;
        if (chosenChanged) await statuses.setChosenStatus(trx, tenant.id, userId, status, now);
        if (chosenChanged || isOnline(before, now) !== isOnline(saved, now)) record({ collection: PRESENCE_COLLECTION, id: userId, op: 'upsert' });
        // The agents register's `users` records carry the chosen status too.
        if (chosenChanged) record({ collection: 'users', id: userId, op: 'upsert' });
        return { status };
      });
    },

    /** Emits `presence` changes for agents whose last record just left the online window. */
    sweep(): Promise<number> {
      sweeping ??= sweepNow()
        .catch((err) => {
          logger.warn({ err }, 'presence.sweep_failed');
          return 0;
        })
        .finally(() => {
          sweeping = null;
        });
      return sweeping;
    },

    /** Sweeps every `everyMs` (an agent goes offline at most this late after the window). */
    start(everyMs: number): void {
      if (timer || everyMs <= 0) return;
      timer = setInterval(() => void this.sweep(), everyMs);
      timer.unref?.();
    },

    stop(): void {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
