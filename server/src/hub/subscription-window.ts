import { compareBy, getPath, matches, type OrderBy } from '@atendimento/schemas';
import type { LiveQuery } from '../services/changes/live-collection';
import type { PreparedRecord } from './prepared-record';

/** What a subscription remembers per record it holds: the content hash and the order key. */
interface Held {
  /** Content hash of what the client has; 0 = unknown (always resend on change). */
  h: number;
  /** Only the ordered fields and the id: windows stay small even for large records. */
  k: Record<string, unknown>;
}

type Entry = { kind: 'added' | 'modified'; rec: PreparedRecord } | { kind: 'removed'; prevHash: number };

/**
 * The net effect of several steps (a batch, then a refill) on what the client holds, so one
 * `changes` frame moves the client from its state to the server's without repeats.
 */
export class WindowDiff {
  readonly entries = new Map<string, Entry>();

  add(rec: PreparedRecord): void {
    const prev = this.entries.get(rec.id);
    if (prev?.kind === 'removed') {
      // Removed then back in the same frame: the client still has it; resend only if it changed.
      if (prev.prevHash === rec.hash) this.entries.delete(rec.id);
      else this.entries.set(rec.id, { kind: 'modified', rec });
      return;
    }
    this.entries.set(rec.id, { kind: 'added', rec });
  }

  modify(rec: PreparedRecord): void {
    const prev = this.entries.get(rec.id);
    this.entries.set(rec.id, { kind: prev?.kind === 'added' ? 'added' : 'modified', rec });
  }

  remove(id: string, prevHash: number): void {
    const prev = this.entries.get(id);
    if (prev?.kind === 'added') this.entries.delete(id);
    else this.entries.set(id, { kind: 'removed', prevHash: prev ? 0 : prevHash });
  }

  get empty(): boolean {
    return this.entries.size === 0;
  }

  /** Splits into the frame's lists (records keep their shared JSON). */
  lists(): { added: PreparedRecord[]; modified: PreparedRecord[]; removed: string[] } {
    const added: PreparedRecord[] = [];
    const modified: PreparedRecord[] = [];
    const removed: string[] = [];
    for (const [id, e] of this.entries) {
      if (e.kind === 'removed') removed.push(id);
      else if (e.kind === 'added') added.push(e.rec);
      else modified.push(e.rec);
    }
    return { added, modified, removed };
  }
}

/** Projects the ordered fields (dotted paths) and the id into a small object compareBy can read. */
function projector(orderBy: OrderBy[]): (data: unknown) => Record<string, unknown> {
  const paths = orderBy.map((o) => o.field.split('.'));
  return (data) => {
    const key: Record<string, unknown> = { id: getPath(data, 'id') };
    paths.forEach((path, i) => {
      let target = key;
      for (let j = 0; j < path.length - 1; j++) {
        const next = (target[path[j]!] ??= {}) as Record<string, unknown>;
        target = next;
      }
      target[path[path.length - 1]!] = getPath(data, orderBy[i]!.field);
    });
    return key;
  };
}

/**
 * One subscription's window over a collection: the ids the client holds (at most `limit`, in
 * `orderBy`), and whether more matching records may exist past the tail (`beyond`). Applies
 * changed records and reports added / modified / removed; says when only a fresh read of the
 * window can be right (a record left a full window, or moved past its tail).
 */
export class SubscriptionWindow {
  readonly held = new Map<string, Held>();
  /** There may be matching records after the tail that the client does not hold. */
  beyond = false;
  private readonly compare: (a: unknown, b: unknown) => number;
  private readonly project: (data: unknown) => Record<string, unknown>;

  constructor(readonly query: LiveQuery) {
    this.compare = compareBy(query.orderBy);
    this.project = projector(query.orderBy);
  }

  /** Does this record belong to the query (scope and filters)? */
  matches(rec: PreparedRecord | null | undefined): rec is PreparedRecord {
    return Boolean(rec) && (!rec!.deleted || Boolean(this.query.includeDeleted)) && matches(rec!.data, this.query.filter);
  }

  /** Starts from a snapshot page (already filtered, ordered and limited by the collection). */
  reset(records: PreparedRecord[]): void {
    this.held.clear();
    for (const r of records) this.held.set(r.id, { h: r.hash, k: this.project(r.data) });
    this.beyond = records.length >= this.query.limit;
  }

  /**
   * Starts from what a resuming client says it holds: `current` are those records now, and
   * `stale` the ids that changed after the client's cursor (their content is unknown).
   */
  resume(claimed: string[], current: Map<string, PreparedRecord | null>, stale: Set<string>, diff: WindowDiff, claimedFull = false): void {
    this.held.clear();
    for (const id of claimed) {
      const rec = current.get(id);
      if (stale.has(id) && rec) {
        // Changed after the cursor: the replay decides; its content is unknown to us.
        this.held.set(id, { h: 0, k: this.project(rec.data) });
      } else if (this.matches(rec)) {
        this.held.set(id, { h: rec.hash, k: this.project(rec.data) });
      } else {
        diff.remove(id, 0);
      }
    }
    // A window the client held full may have records past its tail that now fit (its query
    // asks a higher limit, or some of it left its scope): the caller tops it up.
    this.beyond = claimedFull || this.held.size >= this.query.limit;
    while (this.held.size > this.query.limit) {
      const tail = this.tail()!;
      this.held.delete(tail[0]);
      diff.remove(tail[0], tail[1].h);
    }
  }

  /**
   * Holds exactly the same records with known, equal content (and the same `beyond`): fed the
   * same changes, the two windows stay equal, so one can serve both subscriptions.
   */
  sameAs(other: SubscriptionWindow): boolean {
    if (other === this) return true;
    if (other.beyond !== this.beyond || other.held.size !== this.held.size) return false;
    for (const [id, mine] of this.held) {
      const theirs = other.held.get(id);
      if (!theirs || mine.h === 0 || theirs.h !== mine.h) return false;
    }
    return true;
  }

  private tail(): [string, Held] | null {
    let worst: [string, Held] | null = null;
    for (const entry of this.held) if (!worst || this.compare(entry[1].k, worst[1].k) > 0) worst = entry;
    return worst;
  }

  /**
   * Applies the current state of changed records (null = gone). Returns 'refill' when the
   * window must be read again (the diff so far stays valid; `refill` continues from it).
   */
  apply(ids: Iterable<string>, records: Map<string, PreparedRecord | null>, diff: WindowDiff): 'ok' | 'refill' {
    let refill = false;
    let oldTail: Held | null | undefined;
    const candidates: PreparedRecord[] = [];
    for (const id of ids) {
      const rec = records.get(id);
      const held = this.held.get(id);
      if (this.matches(rec)) {
        if (!held) {
          candidates.push(rec);
          continue;
        }
        if (held.h === rec.hash) continue;
        const k = this.project(rec.data);
        if (this.beyond && !refill && this.compare(k, held.k) > 0) {
          // Moved towards the tail: a record past the window may now come before it.
          if (oldTail === undefined) oldTail = this.tail()?.[1] ?? null;
          if (oldTail && this.compare(k, oldTail.k) > 0) refill = true;
        }
        held.h = rec.hash;
        held.k = k;
        diff.modify(rec);
      } else if (held) {
        this.held.delete(id);
        diff.remove(id, held.h);
        // A full window lost one: the next record past the tail belongs in it now.
        if (this.beyond) refill = true;
      }
    }
    if (refill) return 'refill';
    if (candidates.length > 1) candidates.sort((a, b) => this.compare(a.data, b.data));
    for (const rec of candidates) {
      if (this.held.size < this.query.limit) {
        this.held.set(rec.id, { h: rec.hash, k: this.project(rec.data) });
        diff.add(rec);
        continue;
      }
      const tail = this.tail()!;
      const k = this.project(rec.data);
      this.beyond = true;
      if (this.compare(k, tail[1].k) >= 0) break; // this one and the rest (sorted) fall past the tail
      this.held.delete(tail[0]);
      diff.remove(tail[0], tail[1].h);
      this.held.set(rec.id, { h: rec.hash, k });
      diff.add(rec);
    }
    return 'ok';
  }

  /** Replaces the window with a fresh read, adding to `diff` what the client must change. */
  refill(records: PreparedRecord[], diff: WindowDiff): void {
    const next = new Set(records.map((r) => r.id));
    for (const [id, held] of this.held) {
      if (!next.has(id)) {
        this.held.delete(id);
        diff.remove(id, held.h);
      }
    }
    for (const rec of records) {
      const held = this.held.get(rec.id);
      if (!held) {
        this.held.set(rec.id, { h: rec.hash, k: this.project(rec.data) });
        diff.add(rec);
      } else if (held.h !== rec.hash) {
        held.h = rec.hash;
        held.k = this.project(rec.data);
        diff.modify(rec);
      }
    }
    this.beyond = records.length >= this.query.limit;
  }
}
