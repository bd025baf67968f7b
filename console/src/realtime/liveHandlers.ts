import { format, messages, MESSAGES_PAGE_SIZE } from '@atendimento/schemas';
import type { ChatMessage, Room } from '../model/chat';
import type { ConsoleStores } from '../store/consoleStores';
import { messageActions, roomActions, uiActions } from '../store/consoleStores';
import type { LiveUpdate } from './liveSource';

/** Where a subscription's records go: a room list (tab) or the messages of one room. */
export type LiveTarget =
  | { collection: 'rooms'; listKey: string; notify?: 'newChat' | 'newMessage' }
  | { collection: 'room'; roomId: string }
  | { collection: 'messages'; roomId: string };

export interface LiveEffects {
  /** Browser notification (seed 001 §4: 'Nova Mensagem - {author}', 'Novo Chat'). */
  notifyBrowser?: (title: string, body: string, roomId: string) => void;
}

type Handler = (stores: ConsoleStores, target: LiveTarget, update: LiveUpdate, effects: LiveEffects) => void;

/**
 * THE map from live event name (`collection.kind`) to store action: every realtime frame the
 * console receives goes through here and nowhere else.
 *
 * To make another collection live: subscribe with `useLiveQuery(collection, query, target)`,
 * add its `collection.snapshot` / `collection.changes` handlers below, and a store action.
 */
export const LIVE_HANDLERS: Record<string, Handler> = {
  'rooms.snapshot': (stores, target, update) => {
    if (target.collection !== 'rooms') return;
    roomActions.setLiveWindow(stores.rooms, target.listKey, update.records as unknown as Room[]);
  },
  'rooms.changes': (stores, target, update, effects) => {
    if (target.collection !== 'rooms') return;
    const before = stores.rooms.get().records;
    roomActions.setLiveWindow(stores.rooms, target.listKey, update.records as unknown as Room[]);
    if (update.frame.resumed || !effects.notifyBrowser) return;
    for (const r of (update.frame.added ?? []) as unknown as Room[]) {
      if (target.notify === 'newChat' && !before[r.id]) effects.notifyBrowser(messages.chat.newChatNotification, r.author?.displayName ?? '', r.id);
    }
    for (const r of [...(update.frame.added ?? []), ...(update.frame.modified ?? [])] as unknown as Room[]) {
      const prev = before[r.id];
      const last = r.lastMessage;
      if (target.notify === 'newMessage' && prev && last && last.messageId !== prev.lastMessage?.messageId && last.author?.type === 'client') {
        effects.notifyBrowser(format(messages.chat.newMessageNotification, { author: r.author?.displayName ?? '' }), last.text ?? '', r.id);
      }
    }
  },
  'room.snapshot': (stores, target, update) => {
    roomActions.upsert(stores.rooms, update.records as unknown as Room[]);
    closeUnseenRoom(stores, target);
  },
  'room.changes': (stores, _target, update) => roomActions.upsert(stores.rooms, update.records as unknown as Room[]),
  'messages.snapshot': (stores, target, update) => {
    if (target.collection !== 'messages') return;
    const page = update.records as unknown as ChatMessage[];
    messageActions.upsert(stores.messages, target.roomId, page, { isFetching: false, error: null, ...(stores.messages.get().byRoom[target.roomId]?.ids.length ? {} : { hasMore: page.length >= MESSAGES_PAGE_SIZE }) });
  },
  'messages.changes': (stores, target, update) => {
    if (target.collection !== 'messages') return;
    messageActions.upsert(stores.messages, target.roomId, [...(update.frame.added ?? []), ...(update.frame.modified ?? [])] as unknown as ChatMessage[]);
  },
};

/**
 * An open chat whose room the server does not show this user (transferred, or reopened from
 * memory after it left their scope, store/uiMemory.ts) closes instead of loading for ever.
 */
function closeUnseenRoom(stores: ConsoleStores, target: LiveTarget): void {
  if (target.collection === 'room' && !stores.rooms.get().records[target.roomId]) uiActions.closeRoom(stores.ui, target.roomId);
}

/** Routes one update through LIVE_HANDLERS; errors are reported on the list or room. */
export function dispatchLive(stores: ConsoleStores, target: LiveTarget, update: LiveUpdate, effects: LiveEffects = {}): void {
  if (update.kind === 'error') {
    const text = update.frame.errorMessage ?? messages.chat.loadFailed;
    if (target.collection === 'rooms') roomActions.patchList(stores.rooms, target.listKey, { isFetching: false, error: text });
    if (target.collection === 'messages') messageActions.patchRoom(stores.messages, target.roomId, { isFetching: false, error: text });
    closeUnseenRoom(stores, target);
    return;
  }
  LIVE_HANDLERS[`${target.collection}.${update.kind}`]?.(stores, target, update, effects);
}
