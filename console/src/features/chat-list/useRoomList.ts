import { useCallback, useMemo, useRef, useState } from 'react';
import { CHAT_TAB_BY_ID, MAX_ROOMS_LIMIT, roomCursor, type Filter, type RoomsPageAnswer, type RoomTabId } from '@atendimento/schemas';
import { useConsole } from '../../ConsoleContext';
import { useLiveQuery } from '../../realtime/useLiveQuery';
import { EMPTY_LIST, roomActions, type RoomList } from '../../store/consoleStores';
import { useStore } from '../../store/createStore';

const UNREAD: Filter = { field: 'lastMessage.unread', op: '==', value: true };
const REST_PAGE = 100;

/** How a tab's list is narrowed: unread only, one queue ('Todas Filas' chips), the clients' history (vendHistory). */
export interface RoomListOptions {
  unreadOnly?: boolean;
  queue?: string | null;
  clientsHistory?: boolean;
}

/** Store key of a tab's list for one order and narrowing. */
function roomListKey(tab: RoomTabId, order: 'asc' | 'desc', { unreadOnly, queue, clientsHistory }: RoomListOptions): string {
  return `${tab}|${order}|${unreadOnly ? 'unread' : 'all'}${queue ? `|queue:${queue}` : ''}${clientsHistory ? '|clients' : ''}`;
}

/**
 * The rooms of a tab: a live window (the tab's limit, raised a page at a time as the agent
 * scrolls, up to MAX_ROOMS_LIMIT), then REST pages after it (GET /api/rooms?after=) for longer
 * histories.
 * `complete`: the live window is the whole tab (fewer rooms than the limit), so its length is
 * the tab's exact count, fresher than the 5 s counter poll.
 */
export function useRoomList(tab: RoomTabId, order: 'asc' | 'desc', options: RoomListOptions = {}): { list: RoomList; listKey: string; loadMore: () => void; complete: boolean } {
  const { api, stores } = useConsole();
  const { unreadOnly = false, queue = null, clientsHistory = false } = options;
  const listKey = roomListKey(tab, order, { unreadOnly, queue, clientsHistory });
  // 'Hitorico dos meus clientes': the server scopes the history to the user's clients.
  const history = clientsHistory ? 'clients' : null;
  const [limits, setLimits] = useState<Record<string, number>>({});
  // Where a list's REST pages were found empty (a window of exactly MAX_ROOMS_LIMIT rooms): not
  // asked again until the window ends at another room (a new chat pushed its last one out).
  const restEndedAfter = useRef(new Map<string, string | null>());
  const limit = limits[listKey] ?? CHAT_TAB_BY_ID[tab].limit;
  const filter = useMemo<Filter | null>(() => {
    const parts: Filter[] = [...(unreadOnly ? [UNREAD] : []), ...(queue ? [{ field: 'queues', op: 'array-contains', value: queue } as Filter] : [])];
    return parts.length === 0 ? null : parts.length === 1 ? parts[0]! : { and: parts };
  }, [unreadOnly, queue]);
  const query = useMemo(() => ({ tab, order, limit, ...(filter ? { filter } : {}), ...(history ? { history } : {}) }), [tab, order, limit, filter, history]);
  const target = useMemo(() => ({ collection: 'rooms' as const, listKey }), [listKey]);
  useLiveQuery('rooms', query, target);
  const list = useStore(stores.rooms, (s) => s.lists[listKey] ?? EMPTY_LIST);
  // The live window holds the whole tab: its snapshot arrived and it is not full.
  const complete = list !== EMPTY_LIST && !list.error && list.extraIds.length === 0 && list.ids.length < limit;

  const loadMore = useCallback(() => {
    const current = stores.rooms.get().lists[listKey] ?? EMPTY_LIST;
    if (current.isFetching || current.ids.length - current.extraIds.length < limit) return; // the live window is not full: nothing more
    if (limit < MAX_ROOMS_LIMIT) {
      roomActions.patchList(stores.rooms, listKey, { isFetching: true });
      // A page more at a time: the grown subscription starts from the rooms held and receives
      // only the page past them (useLiveQuery), so small steps cost what one page costs.
      setLimits((l) => ({ ...l, [listKey]: Math.min(MAX_ROOMS_LIMIT, limit + REST_PAGE) }));
      return;
    }
    // The first REST page starts right after the live window's last room (the window and the
    // REST list share one order, ties by id), not from a re-read of the whole window.
    const lastLive = stores.rooms.get().records[current.ids[current.ids.length - current.extraIds.length - 1]!];
    const after = current.next ?? (lastLive ? roomCursor(lastLive) : null);
    if (current.next === null && (current.extraIds.length > 0 || restEndedAfter.current.get(listKey) === after)) return; // REST pages exhausted
    roomActions.patchList(stores.rooms, listKey, { isFetching: true });
    void (async () => {
      const params = new URLSearchParams({ tab, order, limit: String(REST_PAGE) });
      if (filter) params.set('filter', JSON.stringify(filter));
      if (history) params.set('history', history);
      if (after) params.set('after', after);
      try {
        const { body } = await api.request<RoomsPageAnswer>(`/api/rooms?${params}`, { notify: false });
        roomActions.appendList(stores.rooms, listKey, body.data, { next: body.meta.next, hasMore: body.meta.next !== null });
        if (body.meta.next === null && body.data.length === 0) restEndedAfter.current.set(listKey, after);
      } catch (e) {
        roomActions.patchList(stores.rooms, listKey, { isFetching: false, error: (e as Error).message });
      }
    })();
  }, [api, stores, listKey, limit, tab, order, filter, history]);

  return { list, listKey, loadMore, complete };
}
