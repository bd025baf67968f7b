import { useEffect, useRef } from 'react';
import { useConsole } from '../ConsoleContext';
import { dispatchLive, type LiveEffects, type LiveTarget } from './liveHandlers';
import type { LiveQueryInput, LiveSubscriptionLike } from './liveSource';

/** True when `next` asks what `prev` asked with a higher limit only (a list growing as it scrolls). */
function grows(prev: LiveQueryInput, next: LiveQueryInput): boolean {
  if (typeof prev.limit !== 'number' || typeof next.limit !== 'number' || next.limit <= prev.limit) return false;
  return JSON.stringify({ ...prev, limit: 0 }) === JSON.stringify({ ...next, limit: 0 });
}

/**
 * Keeps one live subscription open while the component is mounted (or until `query` changes)
 * and routes its updates through the LIVE_HANDLERS map into the stores. When only the limit
 * grows (a list loading more as the agent scrolls), the new subscription starts from the
 * records the previous one held, so the server sends the rooms past them instead of the whole
 * larger window again (docs/realtime.md "Resume"; tests/bench B10c).
 */
export function useLiveQuery(collection: string, query: LiveQueryInput | null, target: LiveTarget, effects?: LiveEffects): void {
  const { live, stores } = useConsole();
  const key = query ? `${collection}:${JSON.stringify(query)}:${JSON.stringify(target)}` : null;
  const effectsRef = useRef(effects);
  effectsRef.current = effects;
  const previous = useRef<{ sub: LiveSubscriptionLike; query: LiveQueryInput; scope: string } | null>(null);
  useEffect(() => {
    if (!key || !query) return;
    const scope = `${collection}:${JSON.stringify(target)}`;
    const before = previous.current;
    const from = before && before.scope === scope && grows(before.query, query) ? before.sub : undefined;
    const sub = from ? live.subscribe(collection, query, { from }) : live.subscribe(collection, query);
    previous.current = { sub, query, scope };
    const off = sub.onUpdate((update) => dispatchLive(stores, target, update, effectsRef.current ?? {}));
    return () => {
      off();
      sub.close();
    };
    // The key captures query and target.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, live, stores]);
}
