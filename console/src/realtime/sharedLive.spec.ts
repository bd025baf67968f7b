import { describe, expect, it } from 'vitest';
import type { LiveSource, LiveSubscriptionLike, LiveUpdate } from './liveSource';
import { subscribeShared } from './sharedLive';

/** A hub stand-in that counts subscriptions and lets the test push frames. */
function countingLive() {
  const opened: { collection: string; closed: boolean; push: (update: LiveUpdate) => void }[] = [];
  const live: LiveSource = {
    subscribe(collection) {
      const listeners = new Set<(update: LiveUpdate) => void>();
      const entry = { collection, closed: false, records: [] as LiveUpdate['records'], state: 'loading' as LiveSubscriptionLike['state'], push: (update: LiveUpdate) => {
        entry.records = update.records;
        entry.state = 'live';
        for (const l of listeners) l(update);
      } };
      opened.push(entry);
      return {
        get records() { return entry.records; },
        get state() { return entry.state; },
        onUpdate(listener) { listeners.add(listener); return () => void listeners.delete(listener); },
        close() { entry.closed = true; },
      };
    },
  };
  return { live, opened };
}

describe('subscribeShared', () => {
  it('holds one hub subscription per query for every holder, closed with the last one', () => {
    const { live, opened } = countingLive();
    const list = subscribeShared(live, 'tags', { limit: 500 });
    const header = subscribeShared(live, 'tags', { limit: 500 });
    // Another query is another subscription.
    const other = subscribeShared(live, 'tags', { limit: 10 });
    expect(opened.map((o) => o.collection)).toEqual(['tags', 'tags']);
    const seen: string[][] = [];
    header.onUpdate((u) => seen.push(u.records.map((r) => r.id)));
    opened[0]!.push({ kind: 'snapshot', records: [{ id: 'vip' }], frame: {} });
    expect(seen).toEqual([['vip']]);
    // A late holder reads what is there at once.
    const dialog = subscribeShared(live, 'tags', { limit: 500 });
    expect([dialog.state, dialog.records.map((r) => r.id)]).toEqual(['live', ['vip']]);
    list.close();
    list.close(); // twice counts once
    dialog.close();
    expect(opened[0]!.closed).toBe(false);
    header.close();
    expect(opened[0]!.closed).toBe(true);
    // After the last one, the next holder subscribes again.
    subscribeShared(live, 'tags', { limit: 500 });
    expect(opened).toHaveLength(3);
    other.close();
    expect(opened[1]!.closed).toBe(true);
  });
});
