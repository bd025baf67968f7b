import { memo, useState, type MouseEvent } from 'react';
import { Checkbox, GlobalStyles } from '@mui/material';
import type { Theme } from '@mui/material/styles';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import CampaignIcon from '@mui/icons-material/Campaign';
import NotificationsActiveIcon from '@mui/icons-material/NotificationsActive';
import BlockIcon from '@mui/icons-material/Block';
import { channelLabel, messages, roomTagChips } from '@atendimento/schemas';
import type { Room } from '../../model/chat';
import { initials, PhotoDialog } from '../../ui/ContactAvatar';
import { safeMediaSrc } from '../../ui/RichText';
import { formatPhone, relativeTime, visibleContexts } from '../../ui/format';
import { usePhoneFormats } from '../../ui/phoneFormats';
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
  /** Tag id → colour (the tenant's tags): tag chips in their own colour. */
  tagColors?: Readonly<Record<string, string | null>>;
  /** `beside`: Ctrl/Cmd held, open next to the chat already open (two panes). */
  onOpen?: (room: Room, options?: { beside: boolean }) => void;
  onToggleSelect?: (room: Room) => void;
}

type ChipColor = 'primary' | 'secondary' | 'info' | 'success' | 'warning';

const nowrap = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', margin: 0 } as const;

/**
 * The card's styles, as static class names written once for the whole list (ChatList renders
 * this once; stories too). A card used to be ~24 Material UI components with `sx` objects that
 * emotion serialised on every mount: flinging 100k rooms stalled the main thread (tests/bench
 * B10c, docs/bench.md). The card is plain elements with these classes; state is in data
 * attributes, so no style is computed per row.
 */
export function ChatCardStyles() {
  return (
    <GlobalStyles
      styles={(theme: Theme) => {
        const { palette, typography } = theme;
        const chipColors = Object.fromEntries(
          (['primary', 'secondary', 'info', 'success', 'warning'] as const).map((c) => [`&[data-color="${c}"]`, { color: palette[c].main, borderColor: palette[c].main }]),
        );
        return {
          '.chat-card': {
            height: CHAT_CARD_HEIGHT, boxSizing: 'border-box', display: 'flex', gap: 8, padding: '8px 12px', borderBottom: '1px solid #e0e0e0',
            cursor: 'pointer', background: '#fff', overflow: 'hidden', fontFamily: typography.fontFamily,
            '&[data-unread]': { background: '#fffde7' },
            '&:hover': { background: '#f5f5f5' },
            '&[data-active], &[data-active]:hover': { background: '#e3f2fd' },
            '&[aria-disabled="true"]': { cursor: 'not-allowed', opacity: 0.55 },
            '&[aria-disabled="true"]:hover': { background: '#fff' },
          },
          '.chat-card-side': { display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 4 },
          '.chat-card-avatar': {
            width: 40, height: 40, flexShrink: 0, borderRadius: '50%', overflow: 'hidden', display: 'flex', alignItems: 'center', justifyContent: 'center',
            background: '#90a4ae', color: '#fff', fontFamily: typography.fontFamily, fontSize: 16, lineHeight: 1, userSelect: 'none', objectFit: 'cover',
            '&[data-photo]': { cursor: 'zoom-in' },
          },
          '.chat-card-num, .chat-card-time, .chat-card-id': { ...typography.caption, color: palette.text.secondary, ...nowrap },
          '.chat-card[data-unread] .chat-card-time': { color: palette.success.main },
          '.chat-card-main': { flex: 1, minWidth: 0 },
          '.chat-card-row': { display: 'flex', alignItems: 'center', gap: 4, minWidth: 0 },
          '.chat-card-title': { ...typography.subtitle2, flex: 1, fontWeight: 500, ...nowrap },
          '.chat-card[data-unread] .chat-card-title': { fontWeight: 700 },
          '.chat-card-last': { ...typography.body2, color: palette.text.secondary, ...nowrap },
          '.chat-card[data-unread] .chat-card-last': { fontWeight: 700, color: palette.text.primary },
          '.chat-card-chips': { display: 'flex', gap: 4, marginTop: 4, overflow: 'hidden', flexWrap: 'nowrap' },
          '.chat-card-chip': {
            ...typography.caption, fontSize: 10, lineHeight: '16px', height: 18, boxSizing: 'border-box', display: 'inline-flex', alignItems: 'center', gap: 2,
            flexShrink: 0, maxWidth: 120, padding: '0 6px', borderRadius: 9, border: `1px solid ${palette.grey[400]}`, color: palette.text.primary, ...nowrap,
            ...chipColors,
            '&[data-color="error"]': { background: palette.error.main, borderColor: palette.error.main, color: palette.error.contrastText },
            '& svg': { fontSize: 12 },
          },
          '.chat-card-icon': {
            display: 'inline-flex', padding: 2, border: 0, borderRadius: '50%', background: 'none', color: palette.action.active, cursor: 'pointer', fontSize: 12,
            '&:hover': { background: palette.action.hover },
            '&:focus-visible': { outline: `2px solid ${palette.primary.main}` },
            '&[data-kind="referral"]': { fontSize: 14 },
          },
          '.chat-card-marker': { display: 'inline-flex', fontSize: 14, color: palette.warning.main },
          '.chat-card-badge': { alignSelf: 'center', background: palette.success.main, color: '#fff', borderRadius: 10, padding: '0 6px', fontSize: 11, fontWeight: 700, fontFamily: typography.fontFamily },
        };
      }}
    />
  );
}

/**
 * One chat in the list (seed 001 §2 "Chat card"): avatar, title, copyable chat id, number,
 * channel, clients, salesmen, contexts, queues, agents, tags, markers, last message with unread
 * highlight and its relative time. Memoised: rows re-render only when their room changes.
 * Styled by `ChatCardStyles` (static classes, nothing computed per row).
 */
export const ChatCard = memo(function ChatCard({ room, now, active, selectionMode, checked, isAdmin, tagColors, onOpen, onToggleSelect }: ChatCardProps) {
  usePhoneFormats();
  const copy = useCopy();
  const blocked = Boolean(room.author?.blockedSending);
  const disabled = blocked && !isAdmin;
  const unread = Boolean(room.lastMessage?.unread);
  const title = room.group ? room.groupData?.subject ?? room.author?.displayName : room.internal ? room.internalChatName ?? room.author?.displayName : room.author?.displayName;
  const chips: { key: string; label: string; color?: ChipColor; style?: { background: string; color: string } }[] = [
    ...(room.clientsName ?? []).map((c) => ({ key: `c${c}`, label: c, color: 'info' as const })),
    ...(room.salesmenName ?? []).map((s) => ({ key: `s${s}`, label: `Representante: ${s}` })),
    ...visibleContexts(room.contexts).map((c) => ({ key: `x${c}`, label: c, color: 'secondary' as const })),
    ...(room.queues ?? []).map((q) => ({ key: `q${q.id}`, label: q.displayName ?? q.name ?? q.id, color: 'primary' as const })),
    ...(room.agents ?? []).map((a) => ({ key: `a${a.id}`, label: a.displayName ?? a.id, color: 'success' as const })),
    ...roomTagChips(room, tagColors).map((t) => ({ key: `t${t.id}`, label: t.name, color: t.colors ? undefined : ('warning' as const), style: t.colors ?? undefined })),
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
    <div
      className="chat-card"
      role="button"
      tabIndex={disabled ? -1 : 0}
      aria-disabled={disabled || undefined}
      aria-label={`Chat ${room.roomInc} ${title ?? ''}`}
      data-room-id={room.id}
      data-unread={unread || undefined}
      data-active={active || undefined}
      onClick={open}
      onKeyDown={(e) => e.key === 'Enter' && open(e)}
    >
      <div className="chat-card-side">
        {selectionMode ? (
          <Checkbox checked={Boolean(checked)} onClick={stop} onChange={() => onToggleSelect?.(room)} disabled={disabled} size="small" slotProps={{
            input: { 'aria-label': `Selecionar chat ${room.roomInc}` }
          }} />
        ) : (
          <CardAvatar name={title} photoUrl={room.author?.photoUrl} />
        )}
        <span className="chat-card-num">#{room.roomInc}</span>
      </div>
      <div className="chat-card-main">
        <div className="chat-card-row">
          <h6 className="chat-card-title">{title}</h6>
          <span className="chat-card-time" data-relative-time>
            {relativeTime(room.lastMessage?.lifeControl?.createdAt ?? room.lifeControl?.createdAt, now)}
          </span>
        </div>
        <div className="chat-card-row">
          <span className="chat-card-id" data-chat-id>{formatPhone(chatLabel)}</span>
          {chatLabel && (
            <button type="button" className="chat-card-icon" title="Copiar id" aria-label="Copiar id do chat" onClick={(e) => { stop(e); void copy(chatLabel); }}>
              <ContentCopyIcon fontSize="inherit" />
            </button>
          )}
          <span className="chat-card-chip">{channelLabel(room.channel)}</span>
          {room.referal?.source_id && (
            <button type="button" className="chat-card-icon" data-kind="referral" title="Copiar origem do anúncio" aria-label="Copiar origem do anúncio" onClick={(e) => { stop(e); void copy(room.referal!.source_id!); }}>
              <CampaignIcon fontSize="inherit" />
            </button>
          )}
          {room.messageActive && <span className="chat-card-marker" title="Notificação externa"><NotificationsActiveIcon fontSize="inherit" aria-label="Notificação externa" /></span>}
          {blocked && <span className="chat-card-chip" data-color="error"><BlockIcon fontSize="inherit" />{messages.contact.blocked}</span>}
        </div>
        <p className="chat-card-last" data-last-message>
          {room.lastMessage?.author?.type === 'agent' ? '✓ ' : ''}
          {lastMessagePreview(room.lastMessage)}
        </p>
        <div className="chat-card-chips">
          {chips.slice(0, 6).map((c) => (
            <span key={c.key} className="chat-card-chip" data-color={c.color} title={c.label} style={c.style && { ...c.style, borderColor: c.style.background }}>{c.label}</span>
          ))}
        </div>
      </div>
      {unread && room.unreadCount > 0 && (
        <span className="chat-card-badge" aria-label={`${room.unreadCount} não lidas`}>{room.unreadCount}</span>
      )}
    </div>
  );
});

/**
 * The card's avatar: the same photo-or-initials as ContactAvatar, as a plain element with a
 * static class (Material UI's Avatar computed its `sx` on every row mount); a photo enlarges on click.
 */
function CardAvatar({ name, photoUrl }: { name?: string | null; photoUrl?: string | null }) {
  const [open, setOpen] = useState(false);
  const [broken, setBroken] = useState(false);
  const src = broken ? undefined : safeMediaSrc(photoUrl);
  if (!src) return <span className="chat-card-avatar" aria-hidden="true">{initials(name)}</span>;
  return (
    <>
      <img className="chat-card-avatar" data-photo src={src} alt={name ?? ''} onError={() => setBroken(true)} onClick={(e) => { e.stopPropagation(); setOpen(true); }} />
      {open && <PhotoDialog open src={src} name={name} onClose={() => setOpen(false)} />}
    </>
  );
}

/**
 * What identifies the contact on the card: the chat id (a phone) or, for web chat, whose ids
 * are internal ('webchat:<uuid>'), the e-mail or phone the visitor gave, else nothing.
 */
export function chatIdLabel(room: Pick<Room, 'chatId' | 'author'>): string {
  if (!room.chatId?.startsWith('webchat:')) return room.chatId ?? '';
  return room.author?.email ?? room.author?.phone ?? '';
}
