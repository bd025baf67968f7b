import { isValidFilter, messages, type SubscribeFrame } from '@atendimento/schemas';
import type { Logger } from '../logger';
import type { TenantRow } from '../db/repositories/tenant-repository';
import type { Principal } from '../services/auth/auth-service';
import type { ChangeEvent, ChangeFeed } from '../services/changes/change-feed';
import { AppError } from '../errors';
import type { LiveCollection, LiveQuery } from './live-collection';
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
  /** The tenant's change seq this subscription reflects. */
  cursor = 0;
  query!: LiveQuery;
  queryKey = '';
  window!: SubscriptionWindow;

  /** A method, not a field check, so TypeScript does not narrow it across awaits. */
  isClosed(): boolean {
    return this.state === 'closed';
  }

  constructor(
    readonly owner: SubscriptionOwner,
    readonly id: string,
    readonly collection: LiveCollection,
    readonly frame: SubscribeFrame,
  ) {}
}

/** Per tenant: where the hub is in the change log, the work queue that keeps order, the subscriptions. */
interface TenantState {
  /** Last seq the hub has applied (undefined until the first subscription or batch). */
  position: number | undefined;
  chain: Promise<unknown>;
  subs: Map<string, Set<Subscription>>;
}

export interface EngineOptions {
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

  function tenantState(tenantId: string): TenantState {
    let t = tenants.get(tenantId);
    if (!t) tenants.set(tenantId, (t = { position: undefined, chain: Promise.resolve(), subs: new Map() }));
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

  function changesFrame(sub: Subscription, diff: WindowDiff, cursor: number, resumed: boolean): string {
    const { added, modified, removed } = diff.lists();
    return (
      `{"type":"changes","id":${JSON.stringify(sub.id)},"added":[${added.map((r) => r.json).join(',')}],` +
      `"modified":[${modified.map((r) => r.json).join(',')}],"removed":${JSON.stringify(removed)},"cursor":${cursor}` +
      `${resumed ? ',"resumed":true' : ''}}`
    );
  }

  function snapshotFrame(sub: Subscription, records: PreparedRecord[], cursor: number): string {
    return (
      `{"type":"snapshot","id":${JSON.stringify(sub.id)},"records":[${records.map((r) => r.json).join(',')}],"cursor":${cursor},` +
      `"orderBy":${JSON.stringify(sub.query.orderBy)},"limit":${sub.query.limit}}`
    );
  }

  function index(t: TenantState, sub: Subscription): void {
    let set = t.subs.get(sub.collection.name);
    if (!set) t.subs.set(sub.collection.name, (set = new Set()));
    set.add(sub);
  }

  /** Applies `events` (all of one collection) to subscriptions, refilling windows that need it. */
  async function applyToSubs(
    tenantId: string,
    collection: LiveCollection,
    subs: Subscription[],
    events: ChangeEvent[],
    loaded: Map<string, PreparedRecord | null>,
    cursor: number,
    diffs: Map<Subscription, WindowDiff>,
  ): Promise<void> {
    const allIds = uniqueIds(events);
    const refills = new Map<string, Subscription[]>();
    for (const sub of subs) {
      const ids = events[0]!.seq > sub.cursor ? allIds : uniqueIds(events.filter((e) => e.seq > sub.cursor));
      sub.cursor = Math.max(sub.cursor, cursor);
      if (ids.length === 0) continue;
      let diff = diffs.get(sub);
      if (!diff) diffs.set(sub, (diff = new WindowDiff()));
      if (sub.window.apply(ids, loaded, diff) === 'refill') {
        const group = refills.get(sub.queryKey);
        if (group) group.push(sub);
        else refills.set(sub.queryKey, [sub]);
      }
    }
    // Identical queries (fifty agents of one department) share one read.
    for (const group of refills.values()) {
      const { records } = await readWindow(collection, tenantId, group[0]!.query);
      for (const sub of group) sub.window.refill(records, diffs.get(sub)!);
    }
  }

  /** Sends each subscription its net changes; identical frames are encoded once. */
  function flush(diffs: Map<Subscription, WindowDiff>, cursor: number): void {
    const encoded = new Map<string, Buffer>();
    for (const [sub, diff] of diffs) {
      if (diff.empty || sub.isClosed()) continue;
      const text = changesFrame(sub, diff, cursor, false);
      let bytes = encoded.get(text);
      if (!bytes) encoded.set(text, (bytes = Buffer.from(text)));
      sub.owner.send(bytes);
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
    if (t.subs.size === 0) return;

    const byCollection = new Map<string, ChangeEvent[]>();
    for (const e of events) {
      if (!t.subs.get(e.collection)?.size) continue;
      const list = byCollection.get(e.collection);
      if (list) list.push(e);
      else byCollection.set(e.collection, [e]);
    }
    for (const [name, list] of byCollection) {
      const subs = [...t.subs.get(name)!].filter((s) => s.state === 'active');
      if (subs.length === 0) continue;
      const collection = collections.get(name)!;
      const diffs = new Map<Subscription, WindowDiff>();
      try {
        const loaded = await loadPrepared(collection, tenantId, uniqueIds(list));
        await applyToSubs(tenantId, collection, subs, list, loaded, last, diffs);
      } catch (err) {
        // The windows may now be wrong: drop those sockets; their clients resume from the last
        // cursor they received and get exactly what they missed.
        logger.error({ err, tenantId, collection: name }, 'hub.batch_failed');
        for (const sub of subs) sub.owner.fail(messages.errors.internal);
        continue;
      }
      flush(diffs, last);
    }
  }

  /** Fresh snapshot, then whatever the hub applied to others since the snapshot's seq. */
  async function startSnapshot(t: TenantState, sub: Subscription): Promise<void> {
    const tenantId = sub.owner.tenant.id;
    const { records, seq } = await readWindow(sub.collection, tenantId, sub.query);
    changes.track(tenantId, seq);
    await enqueue(t, async () => {
      if (sub.isClosed()) return;
      sub.window.reset(records);
      sub.cursor = seq;
      sub.owner.send(snapshotFrame(sub, records, seq));
      if (t.position === undefined || t.position < seq) {
        // Batches up to `seq` still in the queue are already in the snapshot: skipped by cursor.
        t.position ??= seq;
      } else if (t.position > seq) {
        const events = await readRange(tenantId, seq, t.position);
        if (!events) throw new Error(`hub: change log pruned between a snapshot (${seq}) and now (${t.position})`);
        const mine = events.filter((e) => e.collection === sub.collection.name);
        const diffs = new Map<Subscription, WindowDiff>();
        if (mine.length) {
          const loaded = await loadPrepared(sub.collection, tenantId, uniqueIds(mine));
          await applyToSubs(tenantId, sub.collection, [sub], mine, loaded, t.position, diffs);
        }
        sub.cursor = t.position;
        flush(diffs, t.position);
      }
      // The socket may have closed during the reads above: a closed subscription must not be indexed.
      if (sub.isClosed()) return;
      sub.state = 'active';
      index(t, sub);
    });
  }

  /**
   * Resume from the client's cursor and held ids: replays exactly the changes after the cursor.
   * Returns false when a snapshot is needed (log pruned, gap too long, unknown cursor).
   */
  async function startResume(t: TenantState, sub: Subscription, cursor: number, ids: string[]): Promise<boolean> {
    const tenantId = sub.owner.tenant.id;
    return enqueue(t, async () => {
      if (sub.isClosed()) return true;
      const latest = await changes.latestSeq(tenantId);
      if (cursor > latest) return false; // a cursor from another database or a reset log
      if (t.position === undefined) {
        changes.track(tenantId, latest);
        t.position = latest;
      }
      const position = t.position;
      let events: ChangeEvent[] = [];
      if (cursor < position) {
        if (position - cursor > maxReplay) return false;
        const read = await readRange(tenantId, cursor, position);
        if (!read) return false;
        events = read;
      }
      const mine = events.filter((e) => e.collection === sub.collection.name);
      const stale = new Set(mine.map((e) => e.id));
      const current = await loadPrepared(sub.collection, tenantId, [...new Set([...ids, ...stale])]);
      const diff = new WindowDiff();
      sub.window.resume(ids, current, stale, diff);
      sub.cursor = cursor;
      const next = Math.max(cursor, position);
      const diffs = new Map([[sub, diff]]);
      if (mine.length) await applyToSubs(tenantId, sub.collection, [sub], mine, current, next, diffs);
      else if (sub.window.beyond && sub.window.held.size < sub.query.limit) {
        sub.window.refill((await readWindow(sub.collection, tenantId, sub.query)).records, diff);
      }
      sub.cursor = next;
      // The socket may have closed during the reads above: a closed subscription must not be indexed.
      if (sub.isClosed()) return true;
      // Always answered, even empty: the client learns the resume worked and its new cursor.
      sub.owner.send(changesFrame(sub, diff, next, true));
      sub.state = 'active';
      index(t, sub);
      return true;
    });
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
    tenants.get(sub.owner.tenant.id)?.subs.get(sub.collection.name)?.delete(sub);
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

    /** The change feed's listener: queue the batch behind the tenant's earlier work. */
    onChanges(tenantId: string, events: ChangeEvent[]): Promise<void> | void {
      const t = tenants.get(tenantId);
      if (!t || events.length === 0) return; // nobody here ever subscribed in this tenant
      return enqueue(t, () => processBatch(tenantId, t, events));
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
        sub.window = new SubscriptionWindow(sub.query);
        const ids = frame.ids;
        if (frame.cursor !== undefined && ids && (await startResume(t, sub, frame.cursor, ids))) return;
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

    stats(): { subscriptions: number; tenants: number } {
      let subscriptions = 0;
      for (const t of tenants.values()) for (const set of t.subs.values()) subscriptions += set.size;
      return { subscriptions, tenants: tenants.size };
    },
  };
}

export type SubscriptionEngine = ReturnType<typeof createSubscriptionEngine>;
