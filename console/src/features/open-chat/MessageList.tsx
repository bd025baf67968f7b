import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Badge, Box, CircularProgress, Divider, Fab, Typography } from '@mui/material';
import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import { format, messages as seedTexts } from '@atendimento/schemas';
import { useConsole } from '../../ConsoleContext';
import type { ChatMessage, Room } from '../../model/chat';
import { LIMITS } from '../../ui/constants';
import { texts } from '../../ui/texts';
import { MessageBubble } from '../renderers/MessageBubble';
import { isOwn } from '../renderers/messageState';
import { useRoomMessages } from './useRoomMessages';

/** The divider text of seed 001 §2: '1 MENSAGEM NÃO LIDA' / 'N MENSAGENS NÃO LIDAS'. */
function unreadDividerText(n: number): string {
  return n === 1 ? seedTexts.chat.unreadOne : format(seedTexts.chat.unreadMany, { n });
}

export interface MessageActions {
  onReply?: (m: ChatMessage) => void;
  onEdit?: (m: ChatMessage) => void;
  onDelete?: (m: ChatMessage) => void;
  onReact?: (m: ChatMessage, emoji: string) => void;
  onResend?: (m: ChatMessage) => void;
  /** 'recarregar' on a file the server could not download. */
  onReload?: (m: ChatMessage) => void;
}

const NEAR_TOP_PX = 80;
const WAITING_TICK_MS = 5000;
const AT_BOTTOM_PX = 48;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The open chat's messages (seed 001 §2 "Open chat", §4 "Scrolling"): infinite scroll upward
 * keeping the reading position, the unread divider, the scroll-to-bottom button with a count
 * of messages that arrived while scrolled up, and scroll-to-reply.
 */
export function MessageList({ room, actions, onAtBottom }: { room: Room; actions: MessageActions; onAtBottom?: (atBottom: boolean) => void }) {
  const { user, now: nowFn, readOnly, appConfig, stores } = useConsole();
  const { list, records, loadOlder } = useRoomMessages(room.id);
  const scroller = useRef<HTMLDivElement>(null);
  const ids = list.ids;
  const uid = user?.id ?? null;
  // Unread contact messages when the chat opened: the divider sits before them.
  const [unreadAtOpen] = useState(() => room.unreadCount ?? (room.lastMessage?.unread ? 1 : 0));
  const [dividerBefore, setDividerBefore] = useState<string | null>(null);
  const [dividerCount, setDividerCount] = useState(0);
  const [newCount, setNewCount] = useState(0);
  const [atBottom, setAtBottom] = useState(true);
  const [highlight, setHighlight] = useState<string | null>(null);
  const atBottomRef = useRef(true);
  const lastIdRef = useRef<string | null>(null);
  const firstIdRef = useRef<string | null>(null);
  const heightBeforeOlder = useRef<number | null>(null);
  // Failure detection (seed 001 §4): an own message with no status turns 'failed' 60 s after it
  // was created, so while one is waiting the list re-reads the clock every few seconds.
  const [, setTick] = useState(0);
  const waiting = useMemo(() => ids.some((id) => {
    const m = records[id];
    return m && isOwn(m, uid) && !m.status;
  }), [ids, records, uid]);
  useEffect(() => {
    if (!waiting) return;
    const t = setInterval(() => setTick((n) => n + 1), WAITING_TICK_MS);
    return () => clearInterval(t);
  }, [waiting]);
  const now = nowFn();

  const scrollToBottom = useCallback((smooth = false) => {
    const el = scroller.current;
    if (!el) return;
    if (smooth && el.scrollTo) el.scrollTo({ top: el.scrollHeight, behavior: 'smooth' });
    else el.scrollTop = el.scrollHeight;
    setNewCount(0);
  }, []);

  // The pane resized (window, a second pane, the drawer): a reader at the bottom stays there.
  useEffect(() => {
    const el = scroller.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (atBottomRef.current) el.scrollTop = el.scrollHeight;
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // First page: place the divider before the unread contact messages and go to the bottom.
  useLayoutEffect(() => {
    if (ids.length === 0 || lastIdRef.current !== null) return;
    if (unreadAtOpen > 0) {
      const clientIds = ids.filter((id) => records[id]?.author?.type === 'client');
      const first = clientIds[Math.max(0, clientIds.length - unreadAtOpen)];
      if (first) {
        setDividerBefore(first);
        setDividerCount(Math.min(unreadAtOpen, clientIds.length));
      }
    }
    lastIdRef.current = ids[ids.length - 1]!;
    firstIdRef.current = ids[0]!;
    scrollToBottom();
  }, [ids, records, unreadAtOpen, scrollToBottom]);

  // Later changes: an older page keeps the reading position; new messages follow the rules of §4.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (ids.length === 0 || lastIdRef.current === null) return;
    if (firstIdRef.current !== ids[0] && heightBeforeOlder.current !== null && el) {
      el.scrollTop += el.scrollHeight - heightBeforeOlder.current;
      heightBeforeOlder.current = null;
    }
    firstIdRef.current = ids[0]!;
    const lastId = ids[ids.length - 1]!;
    if (lastId === lastIdRef.current) return;
    const at = ids.indexOf(lastIdRef.current);
    const arrived = (at === -1 ? ids.slice(-1) : ids.slice(at + 1)).map((id) => records[id]).filter((m): m is ChatMessage => Boolean(m));
    lastIdRef.current = lastId;
    const ownArrived = arrived.some((m) => isOwn(m, uid));
    // Answering is reading: once the agent replies, the unread divider has done its job (as in WhatsApp).
    if (ownArrived) {
      setDividerBefore(null);
      setDividerCount(0);
    }
    if (atBottomRef.current || ownArrived) {
      scrollToBottom();
      return;
    }
    const others = arrived.filter((m) => !isOwn(m, uid));
    if (others.length === 0) return;
    setNewCount((n) => n + others.length);
    setDividerCount((n) => {
      if (n === 0) setDividerBefore(others[0]!.id);
      return n + others.length;
    });
  }, [ids, records, uid, scrollToBottom]);

  const onScroll = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    const bottom = el.scrollHeight - el.scrollTop - el.clientHeight < AT_BOTTOM_PX;
    if (bottom !== atBottomRef.current) {
      atBottomRef.current = bottom;
      setAtBottom(bottom);
      onAtBottom?.(bottom);
    }
    if (bottom) setNewCount(0);
    if (el.scrollTop < NEAR_TOP_PX && list.hasMore && !list.isFetching) {
      heightBeforeOlder.current = el.scrollHeight;
      void loadOlder();
    }
  }, [list.hasMore, list.isFetching, loadOlder, onAtBottom]);

  /** Scroll-to-reply (seed 001 §9): up to 10 older pages, 20 polls of 50 ms each, highlight 1300 ms. */
  const jumpTo = useCallback(
    async (ref: string) => {
      const { pages, polls, pollMs, highlightMs } = LIMITS.scrollToReply;
      const find = () => {
        const s = stores.messages.get();
        const found = (s.byRoom[room.id]?.ids ?? []).map((id) => s.records[id]).find((m) => m && (m.messageExtId === ref || m.id === ref));
        return found ?? null;
      };
      let target = find();
      for (let page = 0; !target && page < pages; page += 1) {
        const more = await loadOlder();
        for (let poll = 0; !target && poll < polls; poll += 1) {
          target = find();
          if (!target) await sleep(pollMs);
        }
        if (!more) break;
      }
      if (!target) return;
      const el = scroller.current?.querySelector(`[data-message-id="${CSS.escape(target.id)}"]`) as HTMLElement | null;
      el?.scrollIntoView?.({ behavior: 'smooth', block: 'center' });
      setHighlight(target.id);
      setTimeout(() => setHighlight((h) => (h === target!.id ? null : h)), highlightMs);
    },
    [loadOlder, room.id, stores],
  );

  const byRef = useMemo(() => {
    const out = new Map<string, ChatMessage>();
    for (const id of ids) {
      const m = records[id];
      if (!m) continue;
      out.set(m.id, m);
      if (m.messageExtId) out.set(m.messageExtId, m);
    }
    return out;
  }, [ids, records]);

  const seeDeleted = Boolean(user?.claims?.seeDeletedMessages);
  const disableDelete = Boolean(user?.claims?.disableDeleteMessages || appConfig?.claims?.disableDeleteMessages);

  return (
    <Box sx={{ position: 'relative', flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' }}>
      <Box ref={scroller} onScroll={onScroll} role="log" aria-label="Mensagens" sx={{ flex: 1, overflowY: 'auto', bgcolor: '#efeae2', py: 1 }}>
        {list.isFetching && (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 1 }} role="status" aria-label={texts.list.loadingOlder}>
            <CircularProgress size={20} />
          </Box>
        )}
        {list.error && (
          <Typography role="alert" color="error" sx={{ textAlign: 'center', p: 2 }}>{list.error}</Typography>
        )}
        {ids.map((id) => {
          const m = records[id];
          if (!m) return null;
          const replied = m.replyTo ? byRef.get(m.replyTo) ?? (m.replied as unknown as ChatMessage | null) ?? null : undefined;
          return (
            <Box key={id}>
              {dividerBefore === id && dividerCount > 0 && (
                <Divider data-unread-divider sx={{ my: 1, color: '#1976d2', fontSize: 12, fontWeight: 600 }}>{unreadDividerText(dividerCount)}</Divider>
              )}
              <MessageBubble
                message={m}
                uid={uid}
                now={now}
                replied={replied}
                channel={room.channel}
                group={room.group}
                internalRoom={room.internal}
                readOnly={readOnly || !room.active}
                seeDeletedMessages={seeDeleted}
                disableDeleteMessages={disableDelete}
                highlighted={highlight === id}
                onReply={actions.onReply}
                onEdit={actions.onEdit}
                onDelete={actions.onDelete}
                onReact={actions.onReact}
                onResend={actions.onResend}
                onReload={actions.onReload}
                onJumpToReply={(ref) => void jumpTo(ref)}
              />
            </Box>
          );
        })}
      </Box>
      {!atBottom && (
        <Badge badgeContent={newCount} color="error" sx={{ position: 'absolute', right: 24, bottom: 16 }} data-new-count={newCount}>
          <Fab size="small" aria-label={texts.list.scrollToBottom} onClick={() => scrollToBottom(true)}>
            <KeyboardArrowDownIcon />
          </Fab>
        </Badge>
      )}
    </Box>
  );
}
