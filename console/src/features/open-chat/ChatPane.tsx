import { useCallback, useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { Box, Chip, IconButton, Paper, Tooltip, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { adapterOf, channelLabel, hidesLoadedChat, messages as seedTexts, roomTagChips } from '@atendimento/schemas';
import { MailThreadPane } from '../mail/MailThreadPane';
import { useConsole } from '../../ConsoleContext';
import type { ChatMessage, Room } from '../../model/chat';
import { useLiveQuery } from '../../realtime/useLiveQuery';
import { useStore } from '../../store/createStore';
import { uiActions } from '../../store/consoleStores';
import { ContactAvatar } from '../../ui/ContactAvatar';
import { formatDateTime, formatPhone, visibleContexts } from '../../ui/format';
import { usePhoneFormats } from '../../ui/phoneFormats';
import { texts } from '../../ui/texts';
import { usePageVisible } from '../../ui/usePageVisible';
import { Composer } from '../composer/Composer';
import { EditMessageDialog } from '../composer/EditMessageDialog';
import { ChatMenu } from './ChatMenu';
import { SurveyResults } from './SurveyResults';
import { MessageList } from './MessageList';
import { useTagColors } from './useTagOptions';
import { useChatActions, type ChatActions } from './useChatActions';

/**
 * Title of a chat: group subject, internal chat name, else the contact's name (seed 001 §2). An
 * internal chat without a name is titled with the other members' names.
 */
export function chatTitle(room: Room, uid: string | null = null): string {
  if (room.group) return room.groupData?.subject ?? room.author?.displayName ?? '';
  if (room.internal) return room.internalChatName ?? ((room.agents ?? []).filter((a) => a.id !== uid).map((a) => a.displayName).join(', ') || room.author?.displayName || '');
  return room.author?.displayName ?? '';
}

/** 'Encerrado por Ana · Dúvida resolvida · Obs.: … · Próximo contato: 10/12/2026': what the agent wrote when closing. */
function closingSummary(closedBy: NonNullable<Room['closedBy']>): string {
  return [
    texts.closedBy.replace('{name}', closedBy.displayName),
    closedBy.justify,
    closedBy.obs ? texts.closedObs.replace('{obs}', closedBy.obs) : null,
    closedBy.nextContact ? texts.closedNextContact.replace('{date}', closedBy.nextContact) : null,
  ].filter(Boolean).join(' · ');
}

function ChatHeader({ room, onContact, menu, onClose, uid }: { room: Room; onContact: () => void; menu: React.ReactNode; onClose?: () => void; uid: string | null }) {
  usePhoneFormats();
  const tagColors = useTagColors();
  const chips = [
    ...(room.queues ?? []).map((q) => ({ key: `q${q.id}`, label: q.displayName ?? q.name, color: 'primary' as const })),
    ...visibleContexts(room.contexts).map((c) => ({ key: `x${c}`, label: c, color: 'secondary' as const })),
    ...(room.agents ?? []).map((a) => ({ key: `a${a.id}`, label: a.displayName, color: 'success' as const })),
    ...(room.clientsName ?? []).map((c) => ({ key: `c${c}`, label: c, color: 'info' as const })),
    ...roomTagChips(room, tagColors).map((t) => ({ key: `t${t.id}`, label: t.name, color: t.colors ? undefined : ('warning' as const), sx: t.colors ? { bgcolor: t.colors.background, color: t.colors.color, borderColor: t.colors.background } : undefined })),
  ];
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, px: 2, py: 1, borderBottom: '1px solid #ddd', bgcolor: '#fff' }} data-chat-header>
      <Box onClick={room.internal ? undefined : onContact} {...(!room.internal && { role: 'button', 'aria-label': texts.drawer.title })} sx={{ cursor: room.internal ? 'default' : 'pointer' }}><ContactAvatar name={chatTitle(room, uid)} photoUrl={room.internal ? null : room.author?.photoUrl} /></Box>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1 }}>
          <Typography variant="subtitle1" noWrap role="heading" aria-level={2} sx={{
            fontWeight: 600
          }}>{chatTitle(room, uid)}</Typography>
          <Typography variant="caption" data-room-inc sx={{
            color: "text.secondary"
          }}>#{room.roomInc}</Typography>
          {!room.active && <Chip size="small" label={texts.composer.closedChat} />}
        </Box>
        {/* An internal chat has no channel (seed 001 §2 "Internal chat"). */}
        {!room.internal && (
          <Typography variant="caption" component="div" noWrap sx={{
            color: "text.secondary"
          }}>
            {channelLabel(room.channel)}
            {room.chatId && !room.chatId.startsWith('webchat:') ? ` · ${formatPhone(room.chatId)}` : ''}
          </Typography>
        )}
        {chips.length > 0 && (
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, mt: 0.5 }}>
            {chips.map((c) => <Chip key={c.key} size="small" label={c.label} color={c.color} variant="outlined" sx={'sx' in c ? c.sx : undefined} />)}
          </Box>
        )}
        {!room.active && (
          <Typography variant="caption" component="div" data-history-range sx={{
            color: "text.secondary"
          }}>
            {texts.historyRange.replace('{from}', formatDateTime(room.lifeControl?.createdAt ?? room.lastMessageAt)).replace('{to}', formatDateTime(room.closedBy?.closedAt ?? room.lastMessageAt))}
          </Typography>
        )}
        {!room.active && room.closedBy && (
          <Typography variant="caption" component="div" data-closed-by sx={{ color: 'text.secondary', whiteSpace: 'pre-wrap' }}>
            {closingSummary(room.closedBy)}
          </Typography>
        )}
        {!room.active && <SurveyResults room={room} />}
      </Box>
      {menu}
      {onClose && (
        <Tooltip title={texts.menu.closePane}>
          <IconButton aria-label={texts.menu.closePane} onClick={onClose}><CloseIcon /></IconButton>
        </Tooltip>
      )}
    </Box>
  );
}

/**
 * One open chat (seed 001 §2 "Open chat"): header, message list and composer. The room stays
 * live (`rooms` by roomId) while the pane is open. In the public read-only variant (`readOnly`
 * from the context) there is no menu, no close button and no composer.
 */
export function ChatPane({ roomId, onOpenContact }: { roomId: string; onOpenContact?: (room: Room) => void }) {
  const { stores, user, readOnly, appConfig } = useConsole();
  const room = useStore(stores.rooms, (s) => s.records[roomId]);
  const query = useMemo(() => ({ roomId }), [roomId]);
  const target = useMemo(() => ({ collection: 'room' as const, roomId }), [roomId]);
  useLiveQuery('rooms', query, target);
  // Seed 001 §4 auto-hide: a chat that became a colleague's (transferred away) closes itself.
  const hides = Boolean(room && user && !readOnly && hidesLoadedChat(user, room, appConfig));
  useEffect(() => {
    if (hides) uiActions.closeRoom(stores.ui, roomId);
  }, [hides, stores, roomId]);

  if (!room) {
    return (
      <Paper sx={{ height: '100%', display: 'flex', alignItems: 'center', justifyContent: 'center' }} data-chat-pane={roomId}>
        <Typography sx={{
          color: "text.secondary"
        }}>...</Typography>
      </Paper>
    );
  }
  if (adapterOf(room.channel) === 'mail') return <MailThreadPane key={room.id} room={room} onOpenContact={onOpenContact} />;
  return <OpenChat key={room.id} room={room} readOnly={readOnly} uid={user?.id ?? null} onOpenContact={onOpenContact} />;
}

function OpenChat({ room, readOnly, uid, onOpenContact }: { room: Room; readOnly: boolean; uid: string | null; onOpenContact?: (room: Room) => void }) {
  const { stores } = useConsole();
  const actions = useChatActions(room);
  const [replyTo, setReplyTo] = useState<ChatMessage | null>(null);
  const [editing, setEditing] = useState<ChatMessage | null>(null);
  const [dropped, setDropped] = useState<File[] | null>(null);
  const [atBottom, setAtBottom] = useState(true);
  const inRoom = (room.agents ?? []).some((a) => a.id === uid);
  const markedFor = useRef<string | null>(null);

  const pageVisible = usePageVisible();

  // Reading the chat marks it read (seed 001 §4 "Unread"; WhatsApp read receipt, docs/whatsapp.md):
  // an agent of the room, at the bottom, with the page visible; once per last message.
  useEffect(() => {
    const last = room.lastMessage;
    if (readOnly || !inRoom || !atBottom || !pageVisible || !last) return;
    // A message already seen read here and then marked unread (by anyone) stays unread: only a
    // new last message, or opening the chat, reads it.
    if (!last.unread) {
      markedFor.current = last.messageId;
      return;
    }
    if (markedFor.current === last.messageId) return;
    // An internal chat's own last message is not news to its author (seed 001 §4 "Unread").
    if (room.internal && last.author?.id === uid) return;
    markedFor.current = last.messageId;
    void actions.setUnread(false);
  }, [readOnly, inRoom, atBottom, pageVisible, room.lastMessage, room.internal, uid, actions]);

  // 'Marcar como não lido' on the open chat must stick: the read-on-view above skips that last message.
  const lastId = room.lastMessage?.messageId ?? null;
  const menuActions = useMemo<ChatActions>(() => ({
    ...actions,
    setUnread: (unread: boolean) => {
      if (unread) markedFor.current = lastId;
      return actions.setUnread(unread);
    },
  }), [actions, lastId]);

  const messageActions = useMemo(
    () => (readOnly
      ? {}
      : {
          onReply: (m: ChatMessage) => setReplyTo(m),
          onEdit: (m: ChatMessage) => setEditing(m),
          onDelete: (m: ChatMessage) => void actions.remove(m),
          onReact: (m: ChatMessage, emoji: string) => void actions.react(m, emoji),
          onResend: (m: ChatMessage) => void actions.resend(m),
          onReload: (m: ChatMessage) => void actions.reloadMedia(m),
        }),
    [readOnly, actions],
  );
  const openContact = useCallback(() => {
    uiActions.patch(stores.ui, { drawerRoomId: room.id });
    onOpenContact?.(room);
  }, [stores, room, onOpenContact]);

  const onDrop = (e: DragEvent) => {
    if (readOnly || !room.active) return;
    const files = Array.from(e.dataTransfer?.files ?? []);
    if (files.length === 0) return;
    e.preventDefault();
    setDropped(files);
  };

  return (
    <Paper
      elevation={1}
      sx={{ height: '100%', display: 'flex', flexDirection: 'column', overflow: 'hidden', minWidth: 0 }}
      data-chat-pane={room.id}
      onDragOver={(e) => { if (!readOnly) e.preventDefault(); }}
      onDrop={onDrop}
    >
      <ChatHeader
        room={room}
        uid={uid}
        onContact={openContact}
        menu={readOnly ? null : <ChatMenu room={room} actions={menuActions} onContact={openContact} />}
        onClose={readOnly ? undefined : () => uiActions.closeRoom(stores.ui, room.id)}
      />
      <MessageList room={room} actions={messageActions} onAtBottom={setAtBottom} />
      {!readOnly && room.active && (inRoom || room.internal ? (
        <Composer room={room} actions={actions} replyTo={replyTo} onCancelReply={() => setReplyTo(null)} dropped={dropped} onDroppedConsumed={() => setDropped(null)} />
      ) : (
        <Box sx={{ p: 2, borderTop: '1px solid #ddd', bgcolor: '#f0f2f5', display: 'flex', alignItems: 'center', gap: 2 }} data-enter-first>
          <Typography variant="body2" sx={{ flex: 1 }}>{seedTexts.chatServer.enterFirst}</Typography>
          <Chip color="primary" label={texts.menu.enter} onClick={() => void actions.enter()} />
        </Box>
      ))}
      {!readOnly && (
        <EditMessageDialog
          message={editing}
          onCancel={() => setEditing(null)}
          onSave={(text) => {
            const target = editing;
            setEditing(null);
            if (target) void actions.sendText({ text, editMessageId: target.id });
          }}
        />
      )}
    </Paper>
  );
}
