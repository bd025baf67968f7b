import { isValidFilter, messages, type SubscribeFrame } from '@atendimento/schemas';
import type { Logger } from '../logger';
import type { TenantRow } from '../db/repositories/tenant-repository';
import type { Principal } from '../services/auth/auth-service';
import type { ChangeEvent, ChangeFeed } from '../services/changes/change-feed';
import { AppError } from '../errors';
import type { LiveCollection, LiveQuery } from '../services/changes/live-collection';
import { prepareRecord, type PreparedRecord } from './prepared-record';
import { SubscriptionWindow, WindowDiff } from './subscription-window';

/** The socket side of a subscription: who asks, and how frames reach them. */
export interface SubscriptionOwner {
  readonly tenant: TenantRow;
  readonly principal: Principal;
  /** Sends a text frame (dropping the socket if it reads too slowly). */
  send(frame: string | Buffer): void;
  /** Closes the socket after an internal failure; the client reconnects and resumes. */
  fail(reason: string): void;
}

/** One live query of one socket. */
export class Subscription {
  state: 'pending' | 'active' | 'closed' = 'pending';
  query!: LiveQuery;
  queryKey = '';
  /**
   * The window and cursor this subscription reflects. Private while the subscription starts;
   * once active it may be shared with every subscription of the same query in the same state
   * (docs/realtime.md "Fan-out"), so one window apply serves them all.
   */
  group: SubscriptionGroup | null = null;

  /** A method, not a field check, so TypeScript does not narrow it across awaits. */
  isClosed(): boolean {
    return this.state === 'closed';
  }

  /** The tenant's change seq this subscription reflects. */
  get cursor(): number {
    return this.group?.cursor ?? 0;
  }

  get window(): SubscriptionWindow | undefined {
    return this.group?.window;
  }

  constructor(
    readonly owner: SubscriptionOwner,
    readonly id: string,
    readonly collection: LiveCollection,
    readonly frame: SubscribeFrame,
  ) {}
}

/**
 * Subscriptions of one tenant and collection with the same resolved query (so the same scope:
 * permissions are part of the query) whose windows hold exactly the same records at the same
 * position. They receive the same changes, so their windows stay equal: the window is applied
 * once per batch and the frame text is built once per subscription id.
 */
class SubscriptionGroup {
  /** The tenant's change seq this window reflects. */
  cursor = 0;
  readonly members = new Set<Subscription>();
  /** Position in the tenant's index (null: private to a starting subscription). */
  indexKey: string | null = null;

  constructor(
    readonly collection: LiveCollection,
    readonly query: LiveQuery,
    readonly queryKey: string,
    readonly window: SubscriptionWindow,
  ) {}
}

/** Per tenant: where the hub is in the change log, the work queue that keeps order, the subscriptions. */
interface TenantState {
  /** Last seq the hub has applied (undefined until the first subscription or batch). */
  position: number | undefined;
  chain: Promise<unknown>;
  /** Active groups per collection name. */
  groups: Map<string, Set<SubscriptionGroup>>;
  /** Active groups per collection + query, to find one a new subscription can join. */
  byQuery: Map<string, SubscriptionGroup[]>;
  /** Changes handed over by the feed whose batch is queued but not started: later ones join it. */
  inbox: ChangeEvent[] | null;
  /** Resumes queued but not started: later ones join the same run. */
  resumes: PendingResume[] | null;
}

interface PendingResume {
  sub: Subscription;
  cursor: number;
  ids: string[];
  /** The client says `ids` were a full window: top it up to the query's limit after the replay. */
  full: boolean;
  resolve(value: boolean): void;
  reject(err: unknown): void;
}

interface EngineOptions {
  changes: ChangeFeed;
  logger: Logger;
  /** Replays longer than this many changes send a fresh snapshot instead. */
  maxReplay?: number;
}

const PAGE = 1000;
const LOAD_CHUNK = 500;
const MAX_LIMIT = 10_000;

function uniqueIds(events: ChangeEvent[]): string[] {
  return [...new Set(events.map((e) => e.id))];
}

/**
 * Snapshot → changes for every subscription of every tenant (docs/realtime.md):
 * - each tenant has one queue; batches from the change feed, subscription starts and resumes
 *   run in it in order, so a subscription never sees a change twice or out of order;
 * - per batch, changed records are loaded once per collection and serialised once, then each
 *   subscription's window decides what its client must add, modify or remove;
 * - a window that lost a record while full (or whose record moved past the tail) is read again.
 */
export function createSubscriptionEngine(options: EngineOptions) {
  const { changes, logger } = options;
  const maxReplay = options.maxReplay ?? 10_000;
  const collections = new Map<string, LiveCollection>();
  const tenants = new Map<string, TenantState>();
  const reading = new Map<string, Promise<{ records: PreparedRecord[]; seq: number }>>();

  function tenantState(tenantId: string): TenantState {
    let t = tenants.get(tenantId);
    if (!t) tenants.set(tenantId, (t = { position: undefined, chain: Promise.resolve(), groups: new Map(), byQuery: new Map(), inbox: null, resumes: null }));
    return t;
  }

  function enqueue<T>(t: TenantState, work: () => Promise<T>): Promise<T> {
    const run = t.chain.then(work);
    t.chain = run.catch((err) => logger.error({ err }, 'hub.queue_failed'));
    return run;
  }

  /** Changes in (after, upTo], or null when the log no longer covers the range (pruned). */
  async function readRange(tenantId: string, after: number, upTo: number): Promise<ChangeEvent[] | null> {
    const out: ChangeEvent[] = [];
    let from = after;
    while (from < upTo) {
      const page = await changes.since(tenantId, from, PAGE);
      if (page.length === 0 || page[0]!.seq !== from + 1) return null;
      for (const e of page) if (e.seq <= upTo) out.push(e);
      from = page[page.length - 1]!.seq;
      if (page.length < PAGE) break;
    }
    return out;
  }

  async function loadPrepared(collection: LiveCollection, tenantId: string, ids: string[]): Promise<Map<string, PreparedRecord | null>> {
    const out = new Map<string, PreparedRecord | null>();
    for (let i = 0; i < ids.length; i += LOAD_CHUNK) {
      const chunk = ids.slice(i, i + LOAD_CHUNK);
      for (const record of await collection.load(tenantId, chunk)) out.set(String(record.id), prepareRecord(record));
    }
    for (const id of ids) if (!out.has(id)) out.set(id, null);
    return out;
  }

  async function readWindow(collection: LiveCollection, tenantId: string, query: LiveQuery): Promise<{ records: PreparedRecord[]; seq: number }> {
    const { result, seq } = await changes.read(tenantId, (trx) => collection.snapshot(trx, tenantId, query));
    return { records: result.map(prepareRecord), seq };
  }

  /**
   * A snapshot read shared by the subscriptions of one query that start while it is running
   * (2,000 agents opening the same queue after a restart): consistent at its seq like any
   * snapshot, and whatever changed after that seq is applied by the queue as usual.
   */
  function sharedWindowRead(collection: LiveCollection, tenantId: string, query: LiveQuery, queryKey: string): Promise<{ records: PreparedRecord[]; seq: number }> {
    const key = `${tenantId}\u0000${collection.name}\u0000${queryKey}`;
    let read = reading.get(key);
    if (!read) {
      read = readWindow(collection, tenantId, query).finally(() => reading.delete(key));
      reading.set(key, read);
    }
    return read;
  }

  /** A `changes` frame after its subscription id: the same text for every member of a group. */
  function changesBody(diff: WindowDiff, cursor: number, resumed: boolean, omit: string[] | undefined): string {
    const { added, modified, removed } = diff.lists();
    return (
      `,"added":[${added.map((r) => r.jsonWithout(omit)).join(',')}],"modified":[${modified.map((r) => r.jsonWithout(omit)).join(',')}],` +
      `"removed":${JSON.stringify(removed)},"cursor":${cursor}${resumed ? ',"resumed":true' : ''}}`
    );
  }

  function changesFrame(subId: string, body: string): string {
    return `{"type":"changes","id":${JSON.stringify(subId)}${body}`;
  }

  /** The records of a (shared) snapshot read, joined once for every subscription it serves. */
  const joined = new WeakMap<PreparedRecord[], Map<string, string>>();
  function recordsJson(records: PreparedRecord[], omit: string[] | undefined): string {
    let cuts = joined.get(records);
    if (!cuts) joined.set(records, (cuts = new Map()));
    const key = omit?.join('\u0000') ?? '';
    let text = cuts.get(key);
    if (text === undefined) cuts.set(key, (text = records.map((r) => r.jsonWithout(omit)).join(',')));
    return text;
  }

  function snapshotFrame(sub: Subscription, records: PreparedRecord[], cursor: number): string {
    return (
      `{"type":"snapshot","id":${JSON.stringify(sub.id)},"records":[${recordsJson(records, sub.query.omitFields)}],"cursor":${cursor},` +
      `"orderBy":${JSON.stringify(sub.query.orderBy)},"limit":${sub.query.limit}}`
    );
  }

  /** A starting subscription's own window (joins a shared group when it becomes active). */
  function privateGroup(sub: Subscription): SubscriptionGroup {
    const group = new SubscriptionGroup(sub.collection, sub.query, sub.queryKey, new SubscriptionWindow(sub.query));
    group.members.add(sub);
    return group;
  }

  /**
   * Makes a started subscription live: it joins an active group of the same query whose window
   * holds exactly what its own does at the same position, or its own window becomes a group.
   * Runs in the tenant's queue, so no batch is half-applied meanwhile.
   */
  function activate(t: TenantState, sub: Subscription): void {
    sub.state = 'active';
    const own = sub.group!;
    const key = `${sub.collection.name}\u0000${sub.queryKey}`;
    // An active group reflects at least the hub's position (batches without its collection
    // leave its cursor behind, not its window); a starting one may be ahead of it.
    const at = t.position ?? 0;
    const list = t.byQuery.get(key);
    for (const group of list ?? []) {
      if (Math.max(group.cursor, at) === Math.max(own.cursor, at) && group.window.sameAs(own.window)) {
        group.cursor = Math.max(group.cursor, own.cursor);
        own.members.delete(sub);
        group.members.add(sub);
        sub.group = group;
        return;
      }
    }
    own.indexKey = key;
    if (list) list.push(own);
    else t.byQuery.set(key, [own]);
    let set = t.groups.get(sub.collection.name);
    if (!set) t.groups.set(sub.collection.name, (set = new Set()));
    set.add(own);
  }

  function unindex(t: TenantState, group: SubscriptionGroup): void {
    if (group.indexKey === null) return;
    t.groups.get(group.collection.name)?.delete(group);
    const list = t.byQuery.get(group.indexKey);
    const at = list?.indexOf(group) ?? -1;
    if (at >= 0) list!.splice(at, 1);
    if (list?.length === 0) t.byQuery.delete(group.indexKey);
    group.indexKey = null;
  }

  /** Applies `events` (all of one collection) to groups' windows, refilling those that need it. */
  async function applyToGroups(
    tenantId: string,
    collection: LiveCollection,
    groups: SubscriptionGroup[],
    events: ChangeEvent[],
    loaded: Map<string, PreparedRecord | null>,
    cursor: number,
    diffs: Map<SubscriptionGroup, WindowDiff>,
  ): Promise<void> {
    const allIds = uniqueIds(events);
    const refills = new Map<string, SubscriptionGroup[]>();
    for (const group of groups) {
      const ids = events[0]!.seq > group.cursor ? allIds : uniqueIds(events.filter((e) => e.seq > group.cursor));
      group.cursor = Math.max(group.cursor, cursor);
      if (ids.length === 0) continue;
      let diff = diffs.get(group);
      if (!diff) diffs.set(group, (diff = new WindowDiff()));
      if (group.window.apply(ids, loaded, diff) === 'refill') {
        const same = refills.get(group.queryKey);
        if (same) same.push(group);
        else refills.set(group.queryKey, [group]);
      }
    }
    // Identical queries in different states (started at other moments) still share one read.
    for (const same of refills.values()) {
      const { records } = await readWindow(collection, tenantId, same[0]!.query);
      for (const group of same) group.window.refill(records, diffs.get(group)!);
    }
  }

  /**
   * Sends each group's net changes to its members: the frame after the id is built once per
   * group, the whole frame once per distinct subscription id (usually one per group), and the
   * same bytes go to every socket.
   */
  function flush(diffs: Map<SubscriptionGroup, WindowDiff>, cursor: number): void {
    for (const [group, diff] of diffs) {
      if (diff.empty) continue;
      const body = changesBody(diff, cursor, false, group.query.omitFields);
      const encoded = new Map<string, Buffer>();
      for (const sub of group.members) {
        if (sub.isClosed()) continue;
        let bytes = encoded.get(sub.id);
        if (!bytes) encoded.set(sub.id, (bytes = Buffer.from(changesFrame(sub.id, body))));
        sub.owner.send(bytes);
      }
    }
  }

  /** One batch from the change feed (already in seq order for the tenant). */
  async function processBatch(tenantId: string, t: TenantState, batch: ChangeEvent[]): Promise<void> {
    let events = batch;
    const last = events[events.length - 1]!.seq;
    if (t.position !== undefined) {
      if (last <= t.position) return;
      const position = t.position;
      events = events.filter((e) => e.seq > position);
      if (events[0]!.seq > position + 1) {
        // The feed started this tenant at a later note: read the skipped part ourselves.
        const gap = await readRange(tenantId, position, events[0]!.seq - 1);
        if (gap) events = [...gap, ...events];
        else logger.warn({ tenantId, from: position, to: events[0]!.seq }, 'hub.gap_not_in_log');
      }
    }
    t.position = last;
    if (t.groups.size === 0) return;

    const byCollection = new Map<string, ChangeEvent[]>();
    for (const e of events) {
      if (!t.groups.get(e.collection)?.size) continue;
      const list = byCollection.get(e.collection);
      if (list) list.push(e);
      else byCollection.set(e.collection, [e]);
    }
    for (const [name, list] of byCollection) {
      const groups = [...t.groups.get(name)!];
      if (groups.length === 0) continue;
      const collection = collections.get(name)!;
      const diffs = new Map<SubscriptionGroup, WindowDiff>();
      try {
        const loaded = await loadPrepared(collection, tenantId, uniqueIds(list));
        await applyToGroups(tenantId, collection, groups, list, loaded, last, diffs);
      } catch (err) {
        // The windows may now be wrong: drop those sockets; their clients resume from the last
        // cursor they received and get exactly what they missed. No new subscription may join.
        logger.error({ err, tenantId, collection: name }, 'hub.batch_failed');
        for (const group of groups) {
          unindex(t, group);
          for (const sub of group.members) sub.owner.fail(messages.errors.internal);
        }
        continue;
      }
      flush(diffs, last);
    }
  }

  /** Fresh snapshot, then whatever the hub applied to others since the snapshot's seq. */
  async function startSnapshot(t: TenantState, sub: Subscription): Promise<void> {
    const tenantId = sub.owner.tenant.id;
    const { records, seq } = await sharedWindowRead(sub.collection, tenantId, sub.query, sub.queryKey);
    changes.track(tenantId, seq);
    await enqueue(t, async () => {
      if (sub.isClosed()) return;
      const own = (sub.group = privateGroup(sub));
      own.window.reset(records);
      own.cursor = seq;
      sub.owner.send(snapshotFrame(sub, records, seq));
      if (t.position === undefined || t.position < seq) {
        // Batches up to `seq` still in the queue are already in the snapshot: skipped by cursor.
        t.position ??= seq;
      } else if (t.position > seq) {
        const events = await readRange(tenantId, seq, t.position);
        if (!events) throw new Error(`hub: change log pruned between a snapshot (${seq}) and now (${t.position})`);
        const mine = events.filter((e) => e.collection === sub.collection.name);
        const diffs = new Map<SubscriptionGroup, WindowDiff>();
        if (mine.length) {
          const loaded = await loadPrepared(sub.collection, tenantId, uniqueIds(mine));
          await applyToGroups(tenantId, sub.collection, [own], mine, loaded, t.position, diffs);
        }
        own.cursor = t.position;
        flush(diffs, t.position);
      }
      // The socket may have closed during the reads above: a closed subscription must not be indexed.
      if (sub.isClosed()) return;
      activate(t, sub);
    });
  }

  /**
   * Resume from the client's cursor and held ids: replays exactly the changes after the cursor.
   * Resolves false when a snapshot is needed (log pruned, gap too long, unknown cursor).
   * Resumes queue up and run together: after a restart or a network drop thousands of clients
   * come back holding the same cursor and ids, and those are computed once (see resumeRun).
   */
  function startResume(t: TenantState, sub: Subscription, cursor: number, ids: string[], full: boolean): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      const pending: PendingResume = { sub, cursor, ids, full, resolve, reject };
      if (t.resumes) {
        t.resumes.push(pending);
        return;
      }
      const batch = (t.resumes = [pending]);
      void enqueue(t, () => {
        if (t.resumes === batch) t.resumes = null;
        return resumeRun(t, sub.owner.tenant.id, batch);
      });
    });
  }

  /** Every resume queued since the last run: one per distinct (query, cursor, held ids). */
  async function resumeRun(t: TenantState, tenantId: string, batch: PendingResume[]): Promise<void> {
    const alike = new Map<string, PendingResume[]>();
    for (const p of batch) {
      const key = `${p.sub.collection.name}\u0000${p.sub.queryKey}\u0000${p.cursor}\u0000${p.full}\u0000${p.ids.join('\u0000')}`;
      const list = alike.get(key);
      if (list) list.push(p);
      else alike.set(key, [p]);
    }
    let latest: number;
    try {
      latest = await changes.latestSeq(tenantId);
    } catch (err) {
      for (const p of batch) p.reject(err);
      return;
    }
    const ranges = new Map<number, Promise<ChangeEvent[] | null>>();
    for (const list of alike.values()) {
      try {
        await resumeAlike(t, tenantId, list, latest, ranges);
      } catch (err) {
        for (const p of list) p.reject(err);
      }
    }
  }

  /**
   * Resumes with the same query, cursor and held ids: one replay, one frame text, one group.
   * A window the client held full and now asks with a higher limit (a list growing as the agent
   * scrolls) is then topped up by one read of the window: only the records past what it holds
   * are sent, not the whole window again (docs/realtime.md "Resume").
   */
  async function resumeAlike(t: TenantState, tenantId: string, list: PendingResume[], latest: number, ranges: Map<number, Promise<ChangeEvent[] | null>>): Promise<void> {
    const { sub: first, cursor, ids, full } = list[0]!;
    const answer = (value: boolean) => {
      for (const p of list) p.resolve(value);
    };
    if (list.every((p) => p.sub.isClosed())) return answer(true);
    if (cursor > latest) return answer(false); // a cursor from another database or a reset log
    if (t.position === undefined) {
      changes.track(tenantId, latest);
      t.position = latest;
    }
    const position = t.position;
    let events: ChangeEvent[] = [];
    if (cursor < position) {
      if (position - cursor > maxReplay) return answer(false);
      let range = ranges.get(cursor);
      if (!range) ranges.set(cursor, (range = readRange(tenantId, cursor, position)));
      const read = await range;
      if (!read) return answer(false);
      events = read;
    }
    const mine = events.filter((e) => e.collection === first.collection.name);
    const stale = new Set(mine.map((e) => e.id));
    const current = await loadPrepared(first.collection, tenantId, [...new Set([...ids, ...stale])]);
    const own = privateGroup(first);
    const diff = new WindowDiff();
    own.window.resume(ids, current, stale, diff, full);
    own.cursor = cursor;
    const next = Math.max(cursor, position);
    const diffs = new Map([[own, diff]]);
    if (mine.length) await applyToGroups(tenantId, first.collection, [own], mine, current, next, diffs);
    if (own.window.beyond && own.window.held.size < first.query.limit) {
      own.window.refill((await readWindow(first.collection, tenantId, first.query)).records, diff);
    }
    own.cursor = next;
    // Always answered, even empty: the client learns the resume worked and its new cursor.
    const body = changesBody(diff, next, true, first.query.omitFields);
    const encoded = new Map<string, Buffer>();
    let shared: SubscriptionGroup | null = null;
    for (const { sub } of list) {
      // The socket may have closed during the reads above: a closed subscription must not be indexed.
      if (sub.isClosed()) continue;
      let bytes = encoded.get(sub.id);
      if (!bytes) encoded.set(sub.id, (bytes = Buffer.from(changesFrame(sub.id, body))));
      sub.owner.send(bytes);
      if (shared) {
        sub.state = 'active';
        sub.group = shared;
        shared.members.add(sub);
        continue;
      }
      sub.group = own;
      own.members.clear();
      own.members.add(sub);
      activate(t, sub);
      shared = sub.group;
    }
    answer(true);
  }

  function checkQuery(query: LiveQuery, collection: string): LiveQuery {
    if (!Number.isInteger(query.limit) || query.limit < 1 || query.limit > MAX_LIMIT) {
      throw new Error(`LiveCollection "${collection}".resolve returned limit ${query.limit}; return an integer from 1 to ${MAX_LIMIT}.`);
    }
    if (query.filter !== null && !isValidFilter(query.filter)) {
      throw new Error(`LiveCollection "${collection}".resolve returned an invalid filter; build it from @atendimento/schemas Filter.`);
    }
    return query;
  }

  function remove(sub: Subscription): void {
    sub.state = 'closed';
    const group = sub.group;
    if (!group) return;
    group.members.delete(sub);
    const t = tenants.get(sub.owner.tenant.id);
    if (group.members.size === 0 && t) unindex(t, group);
  }

  return {
    collections,
    remove,

    /** Makes a collection subscribable over /ws (live-collection.ts lists the steps). */
    registerCollection(collection: LiveCollection): void {
      if (collections.has(collection.name)) {
        throw new Error(`hub.registerCollection: "${collection.name}" is already registered. Register each collection once, where its domain is wired.`);
      }
      collections.set(collection.name, collection);
    },

    /**
     * The change feed's listener: queue the batch behind the tenant's earlier work. Batches
     * that arrive while the previous one is still queued join it, so a burst of commits goes
     * out as one frame per socket (fan-out costs per frame, not per record). Not awaited by
     * the feed: the hub's queue keeps the order.
     */
    onChanges(tenantId: string, events: ChangeEvent[]): void {
      const t = tenants.get(tenantId);
      if (!t || events.length === 0) return; // nobody here ever subscribed in this tenant
      if (t.inbox) {
        for (const e of events) t.inbox.push(e);
        return;
      }
      const inbox = (t.inbox = [...events]);
      void enqueue(t, () => {
        if (t.inbox === inbox) t.inbox = null;
        return processBatch(tenantId, t, inbox);
      });
    },

    /**
     * Resolves the query with the collection's rules, then sends a snapshot or resumes. Errors
     * the caller can act on (403, bad query) become an `error` frame for this subscription.
     */
    async start(sub: Subscription): Promise<void> {
      const { owner, frame } = sub;
      const t = tenantState(owner.tenant.id);
      try {
        const resolved = await sub.collection.resolve(owner.tenant, owner.principal, frame.query ?? {});
        if (sub.isClosed()) return;
        sub.query = checkQuery(resolved, sub.collection.name);
        sub.queryKey = JSON.stringify(sub.query);
        const ids = frame.ids;
        if (frame.cursor !== undefined && ids && (await startResume(t, sub, frame.cursor, ids, frame.full === true))) return;
        if (sub.isClosed()) return;
        await startSnapshot(t, sub);
      } catch (err) {
        remove(sub);
        if (err instanceof AppError && err.status < 500) {
          owner.send(JSON.stringify({ type: 'error', id: sub.id, error: err.code, errorMessage: err.errorMessage }));
        } else {
          logger.error({ err, collection: sub.collection.name, tenantId: owner.tenant.id }, 'hub.subscribe_failed');
          owner.send(JSON.stringify({ type: 'error', id: sub.id, error: 'internal', errorMessage: messages.errors.internal }));
        }
      }
    },

    /** Resolves when every tenant queue is drained (tests, shutdown). */
    async idle(): Promise<void> {
      await Promise.all([...tenants.values()].map((t) => t.chain));
    },

    stats(): { subscriptions: number; groups: number; tenants: number } {
      let subscriptions = 0;
      let groups = 0;
      for (const t of tenants.values()) {
        for (const set of t.groups.values()) {
          groups += set.size;
          for (const group of set) subscriptions += group.members.size;
        }
      }
      return { subscriptions, groups, tenants: tenants.size };
    },
  };
}
