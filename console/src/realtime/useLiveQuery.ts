import { useEffect, useRef } from 'react';
import { useConsole } from '../ConsoleContext';
import { dispatchLive, type LiveEffects, type LiveTarget } from './liveHandlers';
import type { LiveQueryInput } from './liveSource';

/**
 * Keeps one live subscription open while the component is mounted (or until `query` changes)
 * and routes its updates through the LIVE_HANDLERS map into the stores.
 */
export function useLiveQuery(collection: string, query: LiveQueryInput | null, target: LiveTarget, effects?: LiveEffects): void {
  const { live, stores } = useConsole();
  const key = query ? `${collection}:${JSON.stringify(query)}:${JSON.stringify(target)}` : null;
  const effectsRef = useRef(effects);
  effectsRef.current = effects;
  useEffect(() => {
    if (!key || !query) return;
    const sub = live.subscribe(collection, query);
    const off = sub.onUpdate((update) => dispatchLive(stores, target, update, effectsRef.current ?? {}));
    return () => {
      off();
      sub.close();
    };
    // The key captures query and target.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, live, stores]);
}
