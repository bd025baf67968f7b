import { compareBy, quotesPaneRoom, type OrderBy } from '@atendimento/schemas';
import type { ChatMessage, ChatTabId, Contact, Room } from '../model/chat';
import { createStore, type Store } from './createStore';

/** One list of the chat list (a tab, a search result, a contact's history). */
export interface RoomList {
  ids: string[];
  isFetching: boolean;
  hasMore: boolean;
  /** Green badge: total in the tab (server count when known, else what is loaded). */
  total: number | null;
  /** Red badge: unread chats in the tab. */
  unread: number | null;
  error: string | null;
  /** Rooms past the live window, loaded page by page over REST (infinite scroll). */
  extraIds: string[];
  /** Cursor of the next REST page (null: none asked yet or no more). */
  next: string | null;
}

export interface RoomsState {
  records: Record<string, Room>;
  lists: Record<string, RoomList>;
}

export interface RoomMessages {
  ids: string[];
  isFetching: boolean;
  hasMore: boolean;
  error: string | null;
}

export interface MessagesState {
  records: Record<string, ChatMessage>;
  byRoom: Record<string, RoomMessages>;
}

export interface ContactsState {
  records: Record<string, Contact>;
  lists: Record<string, { ids: string[]; isFetching: boolean; hasMore: boolean }>;
}

/** Screen state shared by the list, the panes and the drawer. */
export interface UiState {
  tab: ChatTabId;
  unreadOnly: boolean;
  order: 'asc' | 'desc';
  /** Open panes (room ids), at most two side by side. */
  openRooms: string[];
  /** Room whose contact the right drawer shows. */
  drawerRoomId: string | null;
  selectionMode: boolean;
  selected: string[];
  /** Per-tab counts from GET /api/counter. */
  counters: Partial<Record<string, { total: number; unread: number }>>;
  /** Own chats with unread messages (title 'ChatBot UF (n)'). */
  unreadChats: number;
  /** Own chats (favicon badge). */
  ownChats?: number;
  /** Waiting chats per queue on 'Todas Filas' (GET /api/counter). */
  queueCounts?: Record<string, number>;
  /** The queue chip chosen on 'Todas Filas'. */
  queueFilter?: string | null;
  /** 'Histórico' of a salesman: 'Meu Histórico' (mine) or 'Hitorico dos meus clientes' (clients). */
  historyView?: 'mine' | 'clients';
}

export interface ConsoleStores {
  rooms: Store<RoomsState>;
  messages: Store<MessagesState>;
  contacts: Store<ContactsState>;
  ui: Store<UiState>;
}

export function createConsoleStores(seed: { rooms?: Room[]; messages?: ChatMessage[]; contacts?: Contact[]; ui?: Partial<UiState> } = {}): ConsoleStores {
  return {
    rooms: createStore<RoomsState>({ records: byId(seed.rooms ?? []), lists: {} }),
    messages: createStore<MessagesState>({ records: byId(seed.messages ?? []), byRoom: groupMessages(seed.messages ?? []) }),
    contacts: createStore<ContactsState>({ records: byId(seed.contacts ?? []), lists: {} }),
    ui: createStore<UiState>({ tab: 'userChats', unreadOnly: false, order: 'desc', openRooms: [], drawerRoomId: null, selectionMode: false, selected: [], counters: {}, unreadChats: 0, ...seed.ui }),
  };
}

export const EMPTY_LIST: RoomList = Object.freeze({ ids: [], isFetching: false, hasMore: false, total: null, unread: null, error: null, extraIds: [], next: null }) as RoomList;
export const EMPTY_MESSAGES: RoomMessages = Object.freeze({ ids: [], isFetching: false, hasMore: false, error: null }) as RoomMessages;

function byId<T extends { id: string }>(items: T[]): Record<string, T> {
  const out: Record<string, T> = {};
  for (const item of items) out[item.id] = item;
  return out;
}

const createdAt = (m: ChatMessage) => m.lifeControl?.createdAt ?? '';

/** Messages of a room in reading order (oldest first, id breaks ties). */
function sortMessageIds(ids: string[], records: Record<string, ChatMessage>): string[] {
  return [...new Set(ids)].filter((id) => records[id]).sort((a, b) => {
    const ca = createdAt(records[a]!);
    const cb = createdAt(records[b]!);
    return ca < cb ? -1 : ca > cb ? 1 : a < b ? -1 : a > b ? 1 : 0;
  });
}

function groupMessages(messages: ChatMessage[]): Record<string, RoomMessages> {
  const records = byId(messages);
  const out: Record<string, RoomMessages> = {};
  for (const m of messages) {
    if (!m.roomId) continue;
    const list = (out[m.roomId] ??= { ids: [], isFetching: false, hasMore: false, error: null });
    list.ids.push(m.id);
  }
  for (const list of Object.values(out)) list.ids = sortMessageIds(list.ids, records);
  return out;
}

/** Version of a stored record: the server stamps lifeControl.updatedAt on every change after creation. */
function recordVersion(r: { lifeControl?: { createdAt?: string; updatedAt?: string | null } | null }): string {
  return r.lifeControl?.updatedAt ?? r.lifeControl?.createdAt ?? '';
}

/** Whether `incoming` is an older copy of `current` (e.g. a call's HTTP answer arriving after a newer live change). */
function isOlderVersion(incoming: Room | ChatMessage, current: Room | ChatMessage): boolean {
  const a = recordVersion(incoming);
  const b = recordVersion(current);
  return a !== '' && b !== '' && a < b;
}

/** Store actions: the realtime handler map and the API calls write only through these. */
export const roomActions = {
  upsert(store: Store<RoomsState>, rooms: Room[]) {
    if (rooms.length === 0) return;
    store.set((s) => {
      const records = { ...s.records };
      for (const r of rooms) {
        // A room call's answer arriving after a newer live change (lifeControl.updatedAt) must not undo it.
        const current = records[r.id];
        if (!current || !isOlderVersion(r, current)) records[r.id] = { ...current, ...r };
      }
      return { ...s, records };
    });
  },
  /** The live head of a list changed: its rooms in server order, then the REST pages after it. */
  setLiveWindow(store: Store<RoomsState>, key: string, rooms: Room[]) {
    store.set((s) => {
      const records = { ...s.records };
      for (const r of rooms) records[r.id] = r;
      const prev = s.lists[key] ?? EMPTY_LIST;
      const live = rooms.map((r) => r.id);
      const inLive = new Set(live);
      const extraIds = prev.extraIds.filter((id) => !inLive.has(id));
      return { records, lists: { ...s.lists, [key]: { ...prev, ids: extraIds.length ? live.concat(extraIds) : live, extraIds, isFetching: false, error: null } } };
    });
  },
  /** Replaces a list's ids (snapshot or search) and stores its rooms. */
  setList(store: Store<RoomsState>, key: string, rooms: Room[], patch: Partial<RoomList> = {}) {
    store.set((s) => {
      const records = { ...s.records };
      for (const r of rooms) records[r.id] = r;
      const prev = s.lists[key] ?? EMPTY_LIST;
      return { records, lists: { ...s.lists, [key]: { ...prev, ids: rooms.map((r) => r.id), isFetching: false, error: null, ...patch } } };
    });
  },
  /** Appends a further page to a list (infinite scroll). */
  appendList(store: Store<RoomsState>, key: string, rooms: Room[], patch: Partial<RoomList> = {}) {
    store.set((s) => {
      const records = { ...s.records };
      for (const r of rooms) records[r.id] = r;
      const prev = s.lists[key] ?? EMPTY_LIST;
      const seen = new Set(prev.ids);
      const fresh = rooms.map((r) => r.id).filter((id) => !seen.has(id));
      return { records, lists: { ...s.lists, [key]: { ...prev, ids: prev.ids.concat(fresh), extraIds: prev.extraIds.concat(fresh), isFetching: false, ...patch } } };
    });
  },
  patchList(store: Store<RoomsState>, key: string, patch: Partial<RoomList>) {
    store.set((s) => ({ ...s, lists: { ...s.lists, [key]: { ...(s.lists[key] ?? EMPTY_LIST), ...patch } } }));
  },
  /** A live change for a list: add or move the room, keeping the list's order. */
  placeInList(store: Store<RoomsState>, key: string, room: Room, orderBy: OrderBy[]) {
    store.set((s) => {
      const records = { ...s.records, [room.id]: room };
      const prev = s.lists[key] ?? EMPTY_LIST;
      const wasIn = prev.ids.includes(room.id);
      const ids = prev.ids.filter((id) => id !== room.id);
      const cmp = compareBy(orderBy);
      let at = ids.findIndex((id) => records[id] && cmp(room, records[id]) < 0);
      if (at === -1) at = ids.length;
      ids.splice(at, 0, room.id);
      const total = prev.total === null ? null : prev.total + (wasIn ? 0 : 1);
      return { records, lists: { ...s.lists, [key]: { ...prev, ids, total } } };
    });
  },
  removeFromList(store: Store<RoomsState>, key: string, roomId: string) {
    store.set((s) => {
      const prev = s.lists[key];
      if (!prev || !prev.ids.includes(roomId)) return s;
      const total = prev.total === null ? null : Math.max(0, prev.total - 1);
      return { ...s, lists: { ...s.lists, [key]: { ...prev, ids: prev.ids.filter((id) => id !== roomId), total } } };
    });
  },
};

export const messageActions = {
  /** Adds or updates messages of a room (snapshot, live change, older page, own send). */
  upsert(store: Store<MessagesState>, roomId: string, messages: ChatMessage[], patch: Partial<RoomMessages> = {}) {
    store.set((s) => {
      const records = { ...s.records };
      const prev = s.byRoom[roomId] ?? EMPTY_MESSAGES;
      let ids = prev.ids;
      for (const m of messages) {
        // An own send shown optimistically is replaced by the stored one with the same key: the
        // POST's answer (idempotencyKey) or the live record (clientId), whichever comes first.
        const key = m.idempotencyKey ?? m.clientId;
        if (key) {
          const pendingId = `pending:${key}`;
          if (pendingId !== m.id && records[pendingId]) {
            delete records[pendingId];
            ids = ids.filter((id) => id !== pendingId);
          }
        }
        // A late answer (the POST's copy of a message) must not undo a newer live change (read, edit, reaction).
        const current = records[m.id];
        if (!current || !isOlderVersion(m, current)) records[m.id] = { ...current, ...m, roomId };
        ids = ids.concat(m.id);
      }
      return { records, byRoom: { ...s.byRoom, [roomId]: { ...prev, ids: sortMessageIds(ids, records), ...patch } } };
    });
  },
  remove(store: Store<MessagesState>, roomId: string, ids: string[]) {
    store.set((s) => {
      const prev = s.byRoom[roomId];
      if (!prev) return s;
      const drop = new Set(ids);
      return { ...s, byRoom: { ...s.byRoom, [roomId]: { ...prev, ids: prev.ids.filter((id) => !drop.has(id)) } } };
    });
  },
  patchRoom(store: Store<MessagesState>, roomId: string, patch: Partial<RoomMessages>) {
    store.set((s) => ({ ...s, byRoom: { ...s.byRoom, [roomId]: { ...(s.byRoom[roomId] ?? EMPTY_MESSAGES), ...patch } } }));
  },
};

export const contactActions = {
  upsert(store: Store<ContactsState>, contacts: Contact[]) {
    if (contacts.length === 0) return;
    store.set((s) => {
      const records = { ...s.records };
      for (const c of contacts) records[c.id] = { ...records[c.id], ...c };
      return { ...s, records };
    });
  },
};

export const uiActions = {
  patch(store: Store<UiState>, patch: Partial<UiState>) {
    store.set((s) => ({ ...s, ...patch }));
  },
  /** Opens a chat: a second chat opens beside the first; a third replaces the older one. */
  openRoom(store: Store<UiState>, roomId: string, beside = false) {
    store.set((s) => {
      if (s.openRooms.includes(roomId)) return { ...s, drawerRoomId: roomId };
      const openRooms = beside && s.openRooms.length > 0 ? [s.openRooms[s.openRooms.length - 1]!, roomId] : [roomId];
      return { ...s, openRooms, drawerRoomId: roomId };
    });
  },
  /** Opens a pane that is not a chat (the quotes portal) beside its chat; the drawer stays on the chat. */
  openBeside(store: Store<UiState>, paneId: string, roomId: string) {
    store.set((s) => (s.openRooms.includes(paneId) ? s : { ...s, openRooms: [roomId, paneId] }));
  },
  closeRoom(store: Store<UiState>, roomId: string) {
    store.set((s) => {
      // A chat's quotes pane closes with it.
      const openRooms = s.openRooms.filter((id) => id !== roomId && quotesPaneRoom(id) !== roomId);
      const firstChat = openRooms.find((id) => quotesPaneRoom(id) === null) ?? null;
      return { ...s, openRooms, drawerRoomId: s.drawerRoomId === roomId ? firstChat : s.drawerRoomId };
    });
  },
  toggleSelected(store: Store<UiState>, roomId: string) {
    store.set((s) => ({ ...s, selected: s.selected.includes(roomId) ? s.selected.filter((id) => id !== roomId) : [...s.selected, roomId] }));
  },
};
