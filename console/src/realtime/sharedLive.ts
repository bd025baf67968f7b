import type { LiveQueryInput, LiveSource, LiveSubscriptionLike } from './liveSource';

interface Shared {
  sub: LiveSubscriptionLike;
  users: number;
}

const bySource = new WeakMap<LiveSource, Map<string, Shared>>();

/**
 * One hub subscription for every holder of the same live query (a collection every part of the
 * console reads the same way, like `tags`: the list's chips, each open chat's header, the tags
 * dialog). Each holder gets its own handle; the subscription closes with the last one. A
 * holder that comes late reads `records` at once (the shared subscription is already live).
 */
export function subscribeShared(live: LiveSource, collection: string, query?: LiveQueryInput): LiveSubscriptionLike {
  const key = `${collection}\u0000${JSON.stringify(query ?? {})}`;
  let shared = bySource.get(live);
  if (!shared) bySource.set(live, (shared = new Map()));
  const map = shared;
  let entry = map.get(key);
  if (!entry) map.set(key, (entry = { sub: live.subscribe(collection, query), users: 0 }));
  const held = entry;
  held.users++;
  let closed = false;
  return {
    get records() {
      return held.sub.records;
    },
    get state() {
      return held.sub.state;
    },
    onUpdate: (listener) => held.sub.onUpdate(listener),
    close() {
      if (closed) return;
      closed = true;
      held.users--;
      if (held.users > 0) return;
      map.delete(key);
      held.sub.close();
    },
  };
}
