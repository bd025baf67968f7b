import { compareBy, type OrderBy } from '../query';
import type { ChangesFrame, LiveRecordData, SnapshotFrame } from './protocol';

/**
 * The records one subscription holds, kept by id and listed in the server's order. Used by
 * the realtime client; console stores can use it directly for their `records` by id.
 */
export class LiveSet<T extends LiveRecordData = LiveRecordData> {
  readonly byId = new Map<string, T>();
  /** The tenant's change seq the records reflect; null before the first snapshot. */
  cursor: number | null = null;
  orderBy: OrderBy[] = [];
  limit = 0;
  private sorted: T[] | null = [];

  /** Replaces everything with a snapshot. */
  applySnapshot(frame: SnapshotFrame): void {
    this.byId.clear();
    for (const r of frame.records) this.byId.set(r.id, r as T);
    this.orderBy = frame.orderBy;
    this.limit = frame.limit;
    this.cursor = frame.cursor;
    this.sorted = null;
  }

  /** Starts from what another set holds (its records, order, limit and cursor). */
  adopt(other: LiveSet<T>): void {
    this.byId.clear();
    for (const [id, r] of other.byId) this.byId.set(id, r);
    this.orderBy = other.orderBy;
    this.limit = other.limit;
    this.cursor = other.cursor;
    this.sorted = null;
  }

  /** Applies removed, then added and modified, then moves the cursor. */
  applyChanges(frame: ChangesFrame): void {
    for (const id of frame.removed) this.byId.delete(id);
    for (const r of frame.added) this.byId.set(r.id, r as T);
    for (const r of frame.modified) this.byId.set(r.id, r as T);
    this.cursor = frame.cursor;
    if (frame.removed.length || frame.added.length || frame.modified.length) this.sorted = null;
  }

  /** The records in the server's order (cached until the next change). */
  list(): T[] {
    if (!this.sorted) this.sorted = [...this.byId.values()].sort(compareBy(this.orderBy));
    return this.sorted;
  }

  ids(): string[] {
    return [...this.byId.keys()];
  }

  get size(): number {
    return this.byId.size;
  }
}
