import { Suspense, useCallback, useEffect, useMemo, useRef } from 'react';
import { Box, CircularProgress, IconButton, Typography, useMediaQuery } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { format, messages as seedTexts, quotesPaneRoom } from '@atendimento/schemas';
import { ConsoleProvider, useConsole, type ConsoleServices } from './ConsoleContext';
import type { Room } from './model/chat';
import type { LiveSource } from './realtime/liveSource';
import { createConsoleStores, roomActions, uiActions, type ConsoleStores } from './store/consoleStores';
import { useStore } from './store/createStore';
import { recallUi, rememberUi } from './store/uiMemory';
import { Toaster } from './ui/Toaster';
import { LIMITS } from './ui/constants';
import { texts } from './ui/texts';
import { ChatListPanel } from './features/chat-list/ChatListPanel';
import { useCounters } from './features/chat-list/useCounters';
import { useGroupChatNotifications } from './features/internal-chat/useGroupChatNotifications';
import { useBrowserNotifications } from './features/notifications/useBrowserNotifications';
import { useFaviconBadge } from './features/notifications/useFaviconBadge';
import { lazyNamed } from './ui/lazyNamed';

// The open chat and its drawers are chunks of their own (docs/console.md "Loading"): the
// signed-in first screen is the list; they load once the list is up, before a click needs them.
const loadPanes = {
  chat: () => import('./features/open-chat/ChatPane'),
  contact: () => import('./features/contact-drawer/ContactDrawer'),
  quotes: () => import('./features/contact-drawer/QuotesPane'),
  group: () => import('./features/internal-chat/GroupDrawer'),
};
/** After the list is up; a pointer or focus in the view fetches them at once. */
const PREFETCH_AFTER_MS = 3_000;
let prefetched = false;
function prefetchPanes(): void {
  if (prefetched) return;
  prefetched = true;
  // A failed fetch (offline, a new deploy) is tried again by React.lazy when a pane renders.
  for (const load of Object.values(loadPanes)) load().catch(() => (prefetched = false));
}
const ChatPane = lazyNamed(loadPanes.chat, 'ChatPane');
const ContactDrawer = lazyNamed(loadPanes.contact, 'ContactDrawer');
const QuotesPane = lazyNamed(loadPanes.quotes, 'QuotesPane');
const GroupDrawer = lazyNamed(loadPanes.group, 'GroupDrawer');

/** Media query of the narrow layout (seed 001 §2: width 1065 or less). */
const NARROW_QUERY = `(max-width:${LIMITS.narrowWidth}px)`;

export type ServiceViewProps = Omit<ConsoleServices, 'live'> & {
  /** Realtime source: the engine passes its session's one /ws client (docs/console.md). */
  live: LiveSource;
  /** Stories and specs pass their stores and clock. */
  stores?: ConsoleStores;
  now?: () => number;
  /** Forces the narrow layout (stories); otherwise the media query decides. */
  narrow?: boolean;
  /**
   * The chat the address names (`/?chat=<id>`, docs/console.md "The chat in the address"): opened
   * on arrival and whenever the address changes to another chat.
   */
  chatInAddress?: string | null;
  /** Called with the chat in front (the last opened) whenever it changes, null when none is open. */
  onChatInFront?: (roomId: string | null) => void;
};

/**
 * The service view "Atendimento" (seed 001 §2 "Layout"): the chat list on the left (4/12),
 * the open chats on the right (8/12), side by side at half width each when two are open, and
 * the contact drawer. At 1065 px or less one column shows at a time: the list, or the chat.
 */
export function ServiceView(props: ServiceViewProps) {
  const { api, live, user, appConfig, notify, navigate } = props;
  const services = useMemo<ConsoleServices>(() => ({ api, live, user, appConfig, notify, navigate }), [api, live, user, appConfig, notify, navigate]);
  const uid = user.id;
  const given = props.stores;
  const stores = useMemo(() => given ?? createConsoleStores({ ui: recallUi(uid) }), [given, uid]);
  // Back from another screen, the agent finds the tab and the chats they left (store/uiMemory.ts).
  useEffect(() => (given ? undefined : () => rememberUi(uid, stores.ui.get())), [given, stores, uid]);
  return (
    <Toaster>
      {(toast) => (
        <ConsoleProvider services={services} stores={stores} now={props.now} notify={toast}>
          <ServiceLayout narrow={props.narrow} chatInAddress={props.chatInAddress ?? null} onChatInFront={props.onChatInFront} />
        </ConsoleProvider>
      )}
    </Toaster>
  );
}

/**
 * Keeps the address and the chat in front together: a chat named by the address opens (on
 * arrival before the first render, so nothing clears the address first; later when the address
 * names another chat), and the chat in front is reported back when it changes. A chat the user
 * may not see closes itself (liveHandlers), which then clears the address.
 */
function useChatInAddress(stores: ConsoleStores, chatInAddress: string | null, onChatInFront?: (roomId: string | null) => void): void {
  const arrived = useRef(false);
  if (!arrived.current) {
    // The first render: no component listens to the store yet, so opening here re-renders nothing.
    arrived.current = true;
    if (chatInAddress && !stores.ui.get().openRooms.includes(chatInAddress)) uiActions.openRoom(stores.ui, chatInAddress);
  }
  const front = useStore(stores.ui, (s) => {
    const last = s.openRooms[s.openRooms.length - 1];
    return last === undefined ? null : (quotesPaneRoom(last) ?? last);
  });
  const latest = useRef({ front, chatInAddress, onChatInFront });
  latest.current = { front, chatInAddress, onChatInFront };
  useEffect(() => {
    if (chatInAddress && chatInAddress !== latest.current.front) uiActions.openRoom(stores.ui, chatInAddress);
  }, [chatInAddress, stores]);
  useEffect(() => {
    if (front !== latest.current.chatInAddress) latest.current.onChatInFront?.(front);
  }, [front]);
}

function ServiceLayout({ narrow: forced, chatInAddress, onChatInFront }: { narrow?: boolean; chatInAddress: string | null; onChatInFront?: (roomId: string | null) => void }) {
  const { stores } = useConsole();
  useChatInAddress(stores, chatInAddress, onChatInFront);
  const media = useMediaQuery(NARROW_QUERY, { noSsr: true });
  const narrow = forced ?? media;
  const openRooms = useStore(stores.ui, (s) => s.openRooms);
  const drawerRoomId = useStore(stores.ui, (s) => s.drawerRoomId);
  const unreadChats = useStore(stores.ui, (s) => s.unreadChats);
  const ownChats = useStore(stores.ui, (s) => s.ownChats ?? 0);
  useCounters();
  useGroupChatNotifications();
  useBrowserNotifications();
  useFaviconBadge(ownChats);
  // The panes' chunks come after the first screen: on the first pointer or focus in the view
  // (the agent reaching for a chat), or 3 s after the list is up.
  useEffect(() => {
    const timer = setTimeout(prefetchPanes, PREFETCH_AFTER_MS);
    return () => clearTimeout(timer);
  }, []);

  // Browser title 'ChatBot UF (n)' with the agent's own unread chats (seed 001 §4).
  useEffect(() => {
    if (typeof document === 'undefined') return;
    const previous = document.title;
    document.title = unreadChats > 0 ? format(seedTexts.chat.titleCounter, { n: unreadChats }) : previous;
    return () => {
      document.title = previous;
    };
  }, [unreadChats]);

  const open = useCallback(
    (room: Room, beside = false) => {
      roomActions.upsert(stores.rooms, [room]);
      uiActions.openRoom(stores.ui, room.id, beside);
    },
    [stores],
  );
  const onOpenRoom = useCallback((room: Room, options?: { beside: boolean }) => open(room, Boolean(options?.beside)), [open]);
  const onOpenBeside = useCallback((room: Room) => open(room, true), [open]);

  const showList = !narrow || openRooms.length === 0;
  const panes = narrow ? openRooms.slice(-1) : openRooms;
  const drawer = drawerRoomId && openRooms.includes(drawerRoomId) && !narrow ? drawerRoomId : null;
  // The group drawer (seed 001 §2): beside the last opened chat when it is a group conversation.
  const lastOpen = useStore(stores.rooms, (s) => (openRooms.length ? s.records[openRooms[openRooms.length - 1]!] : undefined));
  const groupRoom = lastOpen?.group && !lastOpen.internal ? lastOpen : null;

  return (
    <Box
      data-layout={narrow ? 'narrow' : 'wide'}
      onPointerOver={prefetchPanes}
      onFocus={prefetchPanes}
      sx={{ display: 'flex', gap: 1, height: 'calc(100vh - 112px)', minHeight: 480, p: 1, boxSizing: 'border-box', bgcolor: '#f5f5f5' }}
    >
      {showList && (
        <Box data-region="chat-list" sx={{ width: narrow ? '100%' : `${(4 / 12) * 100}%`, flexShrink: 0, minWidth: 0, height: '100%' }}>
          <ChatListPanel onOpenRoom={onOpenRoom} />
        </Box>
      )}
      {(!narrow || panes.length > 0) && (
        <Suspense fallback={<PaneLoading />}>
        <Box data-region="panes" sx={{ flex: 1, minWidth: 0, display: 'flex', gap: 1, height: '100%' }}>
          {panes.length === 0 && (
            <Box sx={{ flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
              <Typography color="text.secondary">{texts.service.noChatOpen}</Typography>
            </Box>
          )}
          {panes.map((id) => (
            <Box key={id} data-pane={id} sx={{ flex: '1 1 0px', minWidth: 0, height: '100%', display: 'flex', flexDirection: 'column' }}>
              {narrow && (
                <Box>
                  <IconButton aria-label="Voltar para a lista" onClick={() => uiActions.closeRoom(stores.ui, id)}><ArrowBackIcon /></IconButton>
                </Box>
              )}
              <Box sx={{ flex: 1, minHeight: 0 }}>
                {quotesPaneRoom(id) ? <QuotesPane paneId={id} roomId={quotesPaneRoom(id)!} /> : <ChatPane roomId={id} />}
              </Box>
            </Box>
          ))}
          {drawer && <ContactDrawer roomId={drawer} onOpenRoom={onOpenBeside} />}
          {!narrow && groupRoom && <GroupDrawer room={groupRoom} />}
        </Box>
        </Suspense>
      )}
    </Box>
  );
}

/** While an open chat's chunk loads (the first chat of the session, before the prefetch ended). */
function PaneLoading() {
  return (
    <Box sx={{ flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      <CircularProgress size={28} aria-label={texts.service.loadingChat} />
    </Box>
  );
}
