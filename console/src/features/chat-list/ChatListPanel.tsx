import { useCallback, useEffect, useMemo, useState } from 'react';
import { LazyPart } from '../../ui/LazyPart';
import { Box, Chip, CircularProgress, IconButton, Paper, Typography } from '@mui/material';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import ChecklistIcon from '@mui/icons-material/Checklist';
import GroupAddIcon from '@mui/icons-material/GroupAdd';
import { availableChatTabs, CHAT_TAB_BY_ID, chatTabLabels, hasTenantClaim, isAdmin as isAdminUser, messages, type ChatTabId, type RoomTabId } from '@atendimento/schemas';
import { useConsole } from '../../ConsoleContext';
import type { Room } from '../../model/chat';
import { EMPTY_LIST, roomActions, uiActions } from '../../store/consoleStores';
import { useStore } from '../../store/createStore';
import { useMinuteClock } from '../../ui/useMinuteClock';
import { texts } from '../../ui/texts';
import { Hint } from '../../ui/Hint';
import { BulkCloseBar } from '../chat-card/BulkCloseBar';
import { ChatList } from './ChatList';
import { ChatTabs } from './ChatTabs';
import { ContactList } from './ContactList';
import { NewContactForm } from './NewContactForm';
import { SEARCH_LIST_KEY, SearchBox } from './SearchBox';
import { useRoomList } from './useRoomList';
import { QueueChips } from './QueueChips';
import { useLiveOptions } from './useLiveOptions';
import { chatPaths } from '../../model/chatApi';
import { useAgentDirectory } from '../internal-chat/useAgentDirectory';
import { lazyNamed } from '../../ui/lazyNamed';
import { useTagColors } from '../open-chat/useTagOptions';

// Its own chunk, fetched when 'Novo chat interno' is clicked: its TextField would otherwise
// carry Select, Menu and Popover into the list's first screen.
const InternalChatDialog = lazyNamed(() => import('../internal-chat/InternalChatDialog'), 'InternalChatDialog');

/**
 * The chat list panel (seed 001 §2 "Chat list panel"): new-contact form, search with filters,
 * vertical tabs with badges, 'Tudo'/'Não Lido' chips, order toggle, the windowed list,
 * selection mode and the bulk 'Encerrar' bar.
 */
export function ChatListPanel({ onOpenRoom }: { onOpenRoom: (room: Room, options?: { beside: boolean }) => void }) {
  const { user, appConfig, stores, api, notify, now: nowFn } = useConsole();
  // The tenant's chatTabs orders, renames and hides them (never adds one the claims deny).
  const tabs = useMemo(() => availableChatTabs(user, appConfig), [user, appConfig]);
  const labels = useMemo(() => chatTabLabels(appConfig), [appConfig]);
  const ui = useStore(stores.ui, (s) => s);
  const tab = tabs.includes(ui.tab) ? ui.tab : tabs.includes('userChats') ? 'userChats' : tabs[0] ?? 'userChats';
  const [search, setSearch] = useState({ active: false, searching: false });
  const [starting, setStarting] = useState(false);
  const directory = useAgentDirectory(starting);
  const now = useMinuteClock(nowFn);
  const admin = isAdminUser(user);
  const tagColors = useTagColors();
  const roomTab: RoomTabId = tab === 'contacts' ? 'userChats' : tab;
  const unreadOnly = ui.unreadOnly && CHAT_TAB_BY_ID[tab].unreadChips;
  const queueFilter = tab === 'allQueuesChats' ? ui.queueFilter ?? null : null;
  // Seed 001 §2: a salesman (claim vendHistory with an ERP user id) toggles 'Meu Histórico' / 'Hitorico dos meus clientes'.
  const salesman = Boolean(user.claims?.vendHistory && user.erpUserId);
  const clientsHistory = tab === 'chatsHistories' && salesman && ui.historyView === 'clients';
  const { list, loadMore, complete } = useRoomList(roomTab, ui.order, { unreadOnly, queue: queueFilter, clientsHistory });
  // A narrowed list (a queue chip, the clients' history) no longer tells the tab's totals.
  const narrowed = Boolean(queueFilter) || clientsHistory;
  const departments = useLiveOptions('departaments', tab === 'allQueuesChats');
  const queueNames = useMemo(() => Object.fromEntries(departments.map((d) => [`depto${d.id}`, d.label])), [departments]);
  const searchList = useStore(stores.rooms, (s) => s.lists[SEARCH_LIST_KEY] ?? EMPTY_LIST);
  const records = useStore(stores.rooms, (s) => s.records);
  const shown = search.active ? searchList : list;

  // Badges: the server's counters (polled every 5 s); the open tab's own badges from its live
  // list when that list is the whole tab (so a chat taken or closed leaves the badge at once),
  // or while the counters have not arrived.
  const unreadInList = useMemo(() => list.ids.filter((id) => records[id]?.lastMessage?.unread).length, [list.ids, records]);
  const counts = useMemo(() => {
    const out: Partial<Record<string, { total: number; unread: number }>> = { ...ui.counters };
    if (tab === 'contacts' || narrowed) return out;
    if (complete && unreadOnly) out[tab] = { total: Math.max(out[tab]?.total ?? 0, list.ids.length), unread: list.ids.length };
    else if (complete || !out[tab]) out[tab] = { total: list.ids.length, unread: unreadInList };
    return out;
  }, [ui.counters, tab, list.ids.length, unreadInList, complete, unreadOnly, narrowed]);
  // ...and kept in the counters, so the badge stays right after leaving the tab until the next poll.
  useEffect(() => {
    if (tab === 'contacts' || !complete || unreadOnly || narrowed) return;
    const known = stores.ui.get().counters[tab];
    if (known?.total === list.ids.length && known.unread === unreadInList) return;
    uiActions.patch(stores.ui, { counters: { ...stores.ui.get().counters, [tab]: { total: list.ids.length, unread: unreadInList } } });
  }, [stores, tab, complete, unreadOnly, narrowed, list.ids.length, unreadInList]);

  const open = useCallback((room: Room, options?: { beside: boolean }) => (options ? onOpenRoom(room, options) : onOpenRoom(room)), [onOpenRoom]);
  const toggle = useCallback((room: Room) => uiActions.toggleSelected(stores.ui, room.id), [stores]);
  const selectedRooms = ui.selected.map((id) => records[id]).filter((r): r is Room => Boolean(r));
  const defaultOrder = hasTenantClaim(appConfig, 'ascOrder') ? 'asc' : 'desc';
  const order = ui.order ?? defaultOrder;

  return (
    <Paper elevation={1} sx={{ height: '100%', display: 'flex', flexDirection: 'column', overflow: 'hidden' }} aria-label="Lista de chats">
      <Box sx={{ p: 1.5, display: 'flex', flexDirection: 'column', gap: 1 }}>
        <NewContactForm onCreated={open} />
        <SearchBox tab={tab === 'contacts' ? 'contacts' : tab} onState={setSearch} />
      </Box>
      <Box sx={{ flex: 1, display: 'flex', minHeight: 0 }}>
        <ChatTabs tabs={tabs} value={tab} counts={counts} labels={labels} onChange={(t: ChatTabId) => uiActions.patch(stores.ui, { tab: t, selected: [], selectionMode: false })} />
        <Box sx={{ flex: 1, display: 'flex', flexDirection: 'column', minWidth: 0, position: 'relative' }}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, px: 1, py: 0.5, borderBottom: '1px solid #eee' }}>
            <Typography variant="subtitle2" sx={{ flex: 1 }}>{labels[tab]}</Typography>
            {CHAT_TAB_BY_ID[tab].unreadChips && !search.active && (
              <>
                <Chip label="Tudo" size="small" color={ui.unreadOnly ? 'default' : 'primary'} onClick={() => uiActions.patch(stores.ui, { unreadOnly: false })} />
                <Chip label="Não Lido" size="small" color={ui.unreadOnly ? 'primary' : 'default'} onClick={() => uiActions.patch(stores.ui, { unreadOnly: true })} />
              </>
            )}
            {tab === 'internalChats' && (
              <Hint title={messages.internalChat.newChat}>
                <IconButton size="small" aria-label={messages.internalChat.newChat} onClick={() => setStarting(true)}>
                  <GroupAddIcon fontSize="small" />
                </IconButton>
              </Hint>
            )}
            {tab !== 'contacts' && (
              <>
                <Hint title={order === 'desc' ? messages.chat.showOlder : messages.chat.showNewer}>
                  <IconButton size="small" aria-label={order === 'desc' ? messages.chat.showOlder : messages.chat.showNewer} onClick={() => uiActions.patch(stores.ui, { order: order === 'desc' ? 'asc' : 'desc' })}>
                    {order === 'desc' ? <ArrowDownwardIcon fontSize="small" /> : <ArrowUpwardIcon fontSize="small" />}
                  </IconButton>
                </Hint>
                <Hint title="Selecionar chats">
                  <IconButton size="small" aria-label="Selecionar chats" color={ui.selectionMode ? 'primary' : 'default'} onClick={() => uiActions.patch(stores.ui, { selectionMode: !ui.selectionMode, selected: [] })}>
                    <ChecklistIcon fontSize="small" />
                  </IconButton>
                </Hint>
              </>
            )}
          </Box>
          {tab === 'chatsHistories' && salesman && !search.active && (
            <Box role="group" aria-label={texts.history.views} sx={{ display: 'flex', gap: 0.5, px: 1, py: 0.5, borderBottom: '1px solid #eee' }}>
              <Chip label={texts.history.mine} size="small" color={clientsHistory ? 'default' : 'primary'} aria-pressed={!clientsHistory} onClick={() => uiActions.patch(stores.ui, { historyView: 'mine' })} />
              <Chip label={texts.history.clients} size="small" color={clientsHistory ? 'primary' : 'default'} aria-pressed={clientsHistory} onClick={() => uiActions.patch(stores.ui, { historyView: 'clients' })} />
            </Box>
          )}
          {tab === 'allQueuesChats' && !search.active && (
            <QueueChips counts={ui.queueCounts ?? {}} names={queueNames} selected={queueFilter} onSelect={(q) => uiActions.patch(stores.ui, { queueFilter: q })} />
          )}
          <Box sx={{ flex: 1, minHeight: 0, position: 'relative' }}>
            {tab === 'contacts' && !search.active ? (
              <ContactList onOpenRoom={open} />
            ) : (
              <ChatList
                ids={shown.ids}
                records={records}
                now={now}
                activeIds={ui.openRooms}
                selectionMode={ui.selectionMode}
                selected={ui.selected}
                isAdmin={admin}
                tagColors={tagColors}
                onOpen={open}
                onToggleSelect={toggle}
                onEndReached={search.active ? undefined : loadMore}
              />
            )}
            {/* Mounted only while searching: a closed Backdrop would stay in the DOM (and in screen readers). */}
            {search.searching && (
              <Box role="status" sx={{ position: 'absolute', inset: 0, zIndex: 2, display: 'flex', alignItems: 'center', justifyContent: 'center', bgcolor: 'rgba(255,255,255,0.7)', flexDirection: 'column', gap: 1 }}>
                <CircularProgress size={28} />
                <Typography>{messages.chat.searching}</Typography>
              </Box>
            )}
          </Box>
          {ui.selectionMode && (
            <BulkCloseBar
              rooms={selectedRooms}
              onRemove={(r) => uiActions.toggleSelected(stores.ui, r.id)}
              onCancel={() => uiActions.patch(stores.ui, { selectionMode: false, selected: [] })}
              onDone={() => {
                for (const r of selectedRooms) roomActions.upsert(stores.rooms, [{ ...r, active: false }]);
                uiActions.patch(stores.ui, { selectionMode: false, selected: [] });
              }}
            />
          )}
        </Box>
      </Box>
      {starting && (
        <LazyPart>
          <InternalChatDialog
            open
            mode="start"
            agents={directory}
            onCancel={() => setStarting(false)}
            onConfirm={async (agents, internalChatName) => {
              try {
                const { body } = await api.request<{ data: Room }>(chatPaths.internalChats(), { method: 'POST', body: { agents, internalChatName }, notify: false });
                setStarting(false);
                onOpenRoom(body.data);
                return true;
              } catch (e) {
                notify((e as Error).message, 'error');
                return false;
              }
            }}
          />
        </LazyPart>
      )}
    </Paper>
  );
}
