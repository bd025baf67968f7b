import { useCallback } from 'react';
import { List, type RowComponentProps } from 'react-window';
import { Box, Typography } from '@mui/material';
import { messages } from '@atendimento/schemas';
import type { Room } from '../../model/chat';
import { ChatCard, ChatCardStyles, CHAT_CARD_HEIGHT } from '../chat-card/ChatCard';

export interface ChatListProps {
  ids: string[];
  records: Record<string, Room>;
  now: number;
  activeIds: string[];
  selectionMode: boolean;
  selected: string[];
  isAdmin: boolean;
  /** Tag id → colour for the cards' tag chips. */
  tagColors?: Readonly<Record<string, string | null>>;
  onOpen: (room: Room, options?: { beside: boolean }) => void;
  onToggleSelect: (room: Room) => void;
  /** Called when the last rows come into view (infinite scroll). */
  onEndReached?: () => void;
  height?: number | string;
}

type RowProps = Omit<ChatListProps, 'onEndReached' | 'height'>;

function Row({ index, style, ariaAttributes, ids, records, now, activeIds, selectionMode, selected, isAdmin, tagColors, onOpen, onToggleSelect }: RowComponentProps<RowProps>) {
  const room = records[ids[index]!];
  return (
    <div style={style} {...ariaAttributes}>
      {room && (
        <ChatCard
          room={room}
          now={now}
          active={activeIds.includes(room.id)}
          selectionMode={selectionMode}
          checked={selected.includes(room.id)}
          isAdmin={isAdmin}
          tagColors={tagColors}
          onOpen={onOpen}
          onToggleSelect={onToggleSelect}
        />
      )}
    </div>
  );
}

/**
 * The windowed list of chat cards (react-window): only the visible rows exist in the DOM, so
 * 100k rooms scroll as smoothly as 10. Shows 'Esta lista está vazia' when there is nothing.
 */
export function ChatList({ onEndReached, height = '100%', ...rowProps }: ChatListProps) {
  const count = rowProps.ids.length;
  const onRowsRendered = useCallback(
    (visible: { startIndex: number; stopIndex: number }) => {
      if (onEndReached && visible.stopIndex >= count - 5) onEndReached();
    },
    [onEndReached, count],
  );
  if (count === 0) {
    return (
      <Box sx={{ p: 3, textAlign: 'center' }}>
        <Typography color="text.secondary">{messages.chat.emptyList}</Typography>
      </Box>
    );
  }
  return (
    <>
      <ChatCardStyles />
      <List
        rowComponent={Row}
        rowCount={count}
        rowHeight={CHAT_CARD_HEIGHT}
        rowProps={rowProps}
        overscanCount={4}
        onRowsRendered={onRowsRendered}
        defaultHeight={600}
        style={{ height }}
        aria-label="Lista de chats"
      />
    </>
  );
}
