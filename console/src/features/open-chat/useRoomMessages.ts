import { useCallback, useMemo, useRef } from 'react';
import { MAX_MESSAGES_LIMIT, MESSAGES_PAGE_SIZE, messages as seedTexts, type MessagesPageAnswer } from '@atendimento/schemas';
import { useConsole } from '../../ConsoleContext';
import type { ChatMessage } from '../../model/chat';
import { chatPaths } from '../../model/chatApi';
import { useLiveQuery } from '../../realtime/useLiveQuery';
import { EMPTY_MESSAGES, messageActions, type RoomMessages } from '../../store/consoleStores';
import { useStore } from '../../store/createStore';

/**
 * Messages of one open chat: the newest page (20) live over the `messages` collection, older
 * pages over GET /api/rooms/:id/messages as the agent scrolls up (seed 001 §2, 002 §7).
 */
export function useRoomMessages(roomId: string): { list: RoomMessages; records: Record<string, ChatMessage>; loadOlder: () => Promise<boolean> } {
  const { api, stores } = useConsole();
  const query = useMemo(() => ({ roomId, limit: MESSAGES_PAGE_SIZE }), [roomId]);
  const target = useMemo(() => ({ collection: 'messages' as const, roomId }), [roomId]);
  useLiveQuery('messages', query, target);
  const list = useStore(stores.messages, (s) => s.byRoom[roomId] ?? EMPTY_MESSAGES);
  const records = useStore(stores.messages, (s) => s.records);
  // Cursor of the next older page; undefined until the first REST page answered.
  const cursor = useRef<string | null | undefined>(undefined);
  const retried = useRef(false);

  /** Loads the next older page; resolves false when there is nothing older (or it failed). */
  const loadOlder = useCallback(async (): Promise<boolean> => {
    const current = stores.messages.get().byRoom[roomId] ?? EMPTY_MESSAGES;
    if (current.isFetching || cursor.current === null) return false;
    messageActions.patchRoom(stores.messages, roomId, { isFetching: true });
    // The first call re-reads what the live window holds plus one page, to learn the cursor.
    const params = cursor.current
      ? new URLSearchParams({ before: cursor.current, limit: String(MESSAGES_PAGE_SIZE) })
      : new URLSearchParams({ limit: String(Math.min(MAX_MESSAGES_LIMIT, current.ids.length + MESSAGES_PAGE_SIZE)) });
    try {
      const { body } = await api.request<MessagesPageAnswer>(chatPaths.messages(roomId, params), { notify: false });
      cursor.current = body.meta.before;
      const known = new Set(current.ids);
      const fresh = body.data.filter((m) => !known.has(m.id));
      messageActions.upsert(stores.messages, roomId, body.data as ChatMessage[], { isFetching: false, hasMore: body.meta.before !== null, error: null });
      return fresh.length > 0 || body.meta.before !== null;
    } catch {
      // Seed 001 §8: retried once, then 'Não foi possivel carregar o chat...'.
      messageActions.patchRoom(stores.messages, roomId, { isFetching: false });
      if (!retried.current) {
        retried.current = true;
        return loadOlder();
      }
      messageActions.patchRoom(stores.messages, roomId, { error: seedTexts.chat.loadFailed });
      return false;
    }
  }, [api, stores, roomId]);

  return { list, records, loadOlder };
}
