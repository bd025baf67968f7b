import { useEffect, useRef } from 'react';
import { sessionRealtime } from '../../api/realtime';

/** Most rows one list watches (the hub's register window limit). */
const LIVE_WINDOW_MAX = 500;
/** Changes arriving together (an import, a bulk delete) cause one refetch. */
const LIVE_REFETCH_DEBOUNCE_MS = 300;

/** Stories and specs have no /ws: their RegisterAdmin switches live updates off. */
export const liveRefresh = { enabled: true };

/**
 * Live updates of the generic table (seed 000 §2): subscribes to the register's live
 * collection on the realtime hub, over the rows up to the current page in the list's sort
 * order, and refetches the page when another user or tab adds, changes or removes one of
 * them. The page itself still comes from the REST list (filters, totals, Content-Range). The
 * subscription rides on the session's one realtime client (api/realtime.ts).
 */
export function useLiveRefresh(options: { collection: string; sort: { field: string; order: string }; page: number; perPage: number; refetch: () => void; enabled?: boolean }): void {
  const { collection, sort, page, perPage, refetch, enabled = true } = options;
  const latest = useRef(refetch);
  latest.current = refetch;
  const limit = Math.min(Math.max(page, 1) * perPage, LIVE_WINDOW_MAX);
  useEffect(() => {
    if (!enabled || !liveRefresh.enabled) return;
    const live = sessionRealtime();
    if (!live) return;
    const orderBy = sort.field && sort.field !== 'id' ? [{ field: sort.field, direction: sort.order === 'DESC' ? ('desc' as const) : ('asc' as const) }] : undefined;
    const subscription = live.subscribe(collection, { ...(orderBy && { orderBy }), limit });
    let first = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    subscription.onUpdate((update) => {
      if (update.kind === 'error') return;
      // The first snapshot is what the REST page already shows; later frames are changes.
      if (first && update.kind === 'snapshot') {
        first = false;
        return;
      }
      clearTimeout(timer);
      timer = setTimeout(() => latest.current(), LIVE_REFETCH_DEBOUNCE_MS);
    });
    return () => {
      clearTimeout(timer);
      subscription.close();
    };
  }, [collection, sort.field, sort.order, limit, enabled]);
}
