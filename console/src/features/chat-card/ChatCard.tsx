import { memo, type MouseEvent } from 'react';
import { Box, Checkbox, Chip, IconButton, Tooltip, Typography } from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import CampaignIcon from '@mui/icons-material/Campaign';
import NotificationsActiveIcon from '@mui/icons-material/NotificationsActive';
import BlockIcon from '@mui/icons-material/Block';
import { channelLabel, messages } from '@atendimento/schemas';
import type { Room } from '../../model/chat';
import { ContactAvatar } from '../../ui/ContactAvatar';
import { formatPhone, relativeTime, visibleContexts } from '../../ui/format';
import { useCopy } from '../../ui/useCopy';
import { lastMessagePreview } from '../renderers/messageState';

/** Height of a card in the windowed list (react-window needs a fixed row height). */
export const CHAT_CARD_HEIGHT = 118;

export interface ChatCardProps {
  room: Room;
  /** Current time (ChatList passes one minute clock for every card). */
  now: number;
  /** The chat is open in a pane. */
  active?: boolean;
  selectionMode?: boolean;
  checked?: boolean;
  /** Admins open blocked contacts; others see the card disabled. */
  isAdmin?: boolean;
  /** `beside`: Ctrl/Cmd held, open next to the chat already open (two panes). */
  onOpen?: (room: Room, options?: { beside: boolean }) => void;
  onToggleSelect?: (room: Room) => void;
}


/**
 * One chat in the list (seed 001 §2 "Chat card"): avatar, title, copyable chat id, number,
 * channel, clients, salesmen, contexts, queues, agents, tags, markers, last message with unread
 * highlight and its relative time. Memoised: rows re-render only when their room changes.
 */
export const ChatCard = memo(function ChatCard({ room, now, active, selectionMode, checked, isAdmin, onOpen, onToggleSelect }: ChatCardProps) {
  const copy = useCopy();
  const blocked = Boolean(room.author?.blockedSending);
  const disabled = blocked && !isAdmin;
  const unread = Boolean(room.lastMessage?.unread);
  const title = room.group ? room.groupData?.subject ?? room.author?.displayName : room.internal ? room.internalChatName ?? room.author?.displayName : room.author?.displayName;
  const chips: { key: string; label: string; color?: 'default' | 'primary' | 'secondary' | 'info' | 'success' | 'warning' }[] = [
    ...(room.clientsName ?? []).map((c) => ({ key: `c${c}`, label: c, color: 'info' as const })),
    ...(room.salesmenName ?? []).map((s) => ({ key: `s${s}`, label: `Representante: ${s}` })),
    ...visibleContexts(room.contexts).map((c) => ({ key: `x${c}`, label: c, color: 'secondary' as const })),
    ...(room.queues ?? []).map((q) => ({ key: `q${q.id}`, label: q.displayName ?? q.name ?? q.id, color: 'primary' as const })),
    ...(room.agents ?? []).map((a) => ({ key: `a${a.id}`, label: a.displayName ?? a.id, color: 'success' as const })),
    ...(room.tagsNames ?? []).map((t) => ({ key: `t${t}`, label: t, color: 'warning' as const })),
  ];
  const stop = (e: MouseEvent) => e.stopPropagation();
  const open = (e?: { ctrlKey: boolean; metaKey: boolean }) => {
    if (disabled) return;
    if (selectionMode) onToggleSelect?.(room);
    else if (e?.ctrlKey || e?.metaKey) onOpen?.(room, { beside: true });
    else onOpen?.(room);
  };

  const chatLabel = chatIdLabel(room);
  return (
    <Box
      role="button"
      tabIndex={disabled ? -1 : 0}
      aria-disabled={disabled || undefined}
      aria-label={`Chat ${room.roomInc} ${title ?? ''}`}
      data-room-id={room.id}
      data-unread={unread || undefined}
      onClick={open}
      onKeyDown={(e) => e.key === 'Enter' && open(e)}
      sx={{
        height: CHAT_CARD_HEIGHT,
        boxSizing: 'border-box',
        display: 'flex',
        gap: 1,
        px: 1.5,
        py: 1,
        borderBottom: '1px solid #e0e0e0',
        cursor: disabled ? 'not-allowed' : 'pointer',
        opacity: disabled ? 0.55 : 1,
        bgcolor: active ? '#e3f2fd' : unread ? '#fffde7' : '#fff',
        '&:hover': { bgcolor: disabled ? undefined : active ? '#e3f2fd' : '#f5f5f5' },
        overflow: 'hidden',
      }}
    >
      <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 0.5 }}>
        {selectionMode ? (
          <Checkbox checked={Boolean(checked)} onClick={stop} onChange={() => onToggleSelect?.(room)} disabled={disabled} size="small" slotProps={{
            input: { 'aria-label': `Selecionar chat ${room.roomInc}` }
          }} />
        ) : (
          <ContactAvatar name={title} photoUrl={room.author?.photoUrl} />
        )}
        <Typography variant="caption" color="text.secondary">#{room.roomInc}</Typography>
      </Box>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
          <Typography variant="subtitle2" noWrap sx={{ flex: 1, fontWeight: unread ? 700 : 500 }}>{title}</Typography>
          <Typography variant="caption" color={unread ? 'success.main' : 'text.secondary'} noWrap data-relative-time>
            {relativeTime(room.lastMessage?.lifeControl?.createdAt ?? room.lifeControl?.createdAt, now)}
          </Typography>
        </Box>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, minWidth: 0 }}>
          <Typography variant="caption" color="text.secondary" noWrap data-chat-id>{formatPhone(chatLabel)}</Typography>
          {chatLabel && (
            <Tooltip title="Copiar id">
              <IconButton size="small" aria-label="Copiar id do chat" onClick={(e) => { stop(e); void copy(chatLabel); }} sx={{ p: 0.25 }}>
                <ContentCopyIcon sx={{ fontSize: 12 }} />
              </IconButton>
            </Tooltip>
          )}
          <Chip label={channelLabel(room.channel)} size="small" variant="outlined" sx={{ height: 18, fontSize: 10 }} />
          {room.referal?.source_id && (
            <Tooltip title="Copiar origem do anúncio">
              <IconButton size="small" aria-label="Copiar origem do anúncio" onClick={(e) => { stop(e); void copy(room.referal!.source_id!); }} sx={{ p: 0.25 }}>
                <CampaignIcon sx={{ fontSize: 14 }} />
              </IconButton>
            </Tooltip>
          )}
          {room.messageActive && <Tooltip title="Notificação externa"><NotificationsActiveIcon sx={{ fontSize: 14 }} color="warning" aria-label="Notificação externa" /></Tooltip>}
          {blocked && (
            <Chip icon={<BlockIcon />} label={messages.contact.blocked} size="small" color="error" sx={{ height: 18, fontSize: 10 }} />
          )}
        </Box>
        <Typography variant="body2" noWrap sx={{ fontWeight: unread ? 700 : 400, color: unread ? 'text.primary' : 'text.secondary' }} data-last-message>
          {room.lastMessage?.author?.type === 'agent' ? '✓ ' : ''}
          {lastMessagePreview(room.lastMessage)}
        </Typography>
        <Box sx={{ display: 'flex', gap: 0.5, mt: 0.5, overflow: 'hidden', flexWrap: 'nowrap' }}>
          {chips.slice(0, 6).map((c) => (
            <Chip key={c.key} label={c.label} size="small" color={c.color ?? 'default'} variant="outlined" sx={{ height: 18, fontSize: 10, maxWidth: 120 }} />
          ))}
        </Box>
      </Box>
      {unread && room.unreadCount > 0 && (
        <Box sx={{ alignSelf: 'center' }}>
          <Box component="span" aria-label={`${room.unreadCount} não lidas`} sx={{ bgcolor: 'success.main', color: '#fff', borderRadius: 10, px: 0.8, fontSize: 11, fontWeight: 700 }}>{room.unreadCount}</Box>
        </Box>
      )}
    </Box>
  );
});

/**
 * What identifies the contact on the card: the chat id (a phone) or, for web chat, whose ids
 * are internal ('webchat:<uuid>'), the e-mail or phone the visitor gave, else nothing.
 */
export function chatIdLabel(room: Pick<Room, 'chatId' | 'author'>): string {
  if (!room.chatId?.startsWith('webchat:')) return room.chatId ?? '';
  return room.author?.email ?? room.author?.phone ?? '';
}
