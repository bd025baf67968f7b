import { memo, useState } from 'react';
import { Box, IconButton, Menu, MenuItem, Typography } from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { messages as texts } from '@atendimento/schemas';
import type { ChatMessage } from '../../model/chat';
import { AUTHOR_COLORS, LIMITS } from '../../ui/constants';
import { formatDateTime, formatMessageTime, truncate } from '../../ui/format';
import { MessageContent } from './MessageContent';
import { DeliveryIndicator } from './DeliveryIndicator';
import { authorKind, deliveryState, failureText, lastMessagePreview, messageOptions, reactionList } from './messageState';

const QUICK_REACTIONS = ['👍', '❤️', '😂', '😮', '😢', '🙏'];

export interface MessageBubbleProps {
  message: ChatMessage;
  uid: string | null;
  now: number;
  /** The message this one replies to, when loaded. */
  replied?: ChatMessage | null;
  channel?: string | null;
  /** A group conversation: each customer message names the member who wrote it. */
  group?: boolean;
  internalRoom?: boolean;
  readOnly?: boolean;
  seeDeletedMessages?: boolean;
  disableDeleteMessages?: boolean;
  highlighted?: boolean;
  onReply?: (m: ChatMessage) => void;
  onEdit?: (m: ChatMessage) => void;
  onDelete?: (m: ChatMessage) => void;
  onReact?: (m: ChatMessage, emoji: string) => void;
  onResend?: (m: ChatMessage) => void;
  onReload?: (m: ChatMessage) => void;
  onJumpToReply?: (messageExtId: string) => void;
}

/**
 * One message in the open chat: colour and side by author (seed 001 §9), reply quote, content,
 * edited marker, time, delivery indicator, reactions and the options menu.
 */
export const MessageBubble = memo(function MessageBubble(props: MessageBubbleProps) {
  const { message: m, uid, now, replied, readOnly } = props;
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [reactAnchor, setReactAnchor] = useState<HTMLElement | null>(null);
  const kind = authorKind(m, uid);
  const state = deliveryState(m, now);
  const productSide = kind !== 'client';
  const centred = kind === 'system';
  const options = messageOptions(m, { uid, internalRoom: props.internalRoom, disableDeleteMessages: props.disableDeleteMessages, channel: props.channel });
  const hasOptions = !readOnly && (options.reply || options.edit || options.remove || options.react);
  const deleted = state === 'deleted';
  const showName = kind === 'otherAgent' || kind === 'bot' || kind === 'annotation' || (kind === 'client' && Boolean(props.group));
  const reactions = reactionList(m);
  const edited = Boolean(m.versions?.length || m.editMessageId);
  // The customer's own edits and deletes (WhatsApp) say so: agents must know who changed it.
  const byCustomer = kind === 'client';
  const deletedText = byCustomer ? texts.whatsappKinds.deletedByCustomer : texts.chat.messageDeleted;

  return (
    <Box
      data-message-id={m.id}
      data-author-kind={kind}
      sx={{ display: 'flex', justifyContent: centred ? 'center' : productSide ? 'flex-end' : 'flex-start', px: 2, py: 0.5 }}
    >
      <Box
        sx={{
          position: 'relative',
          maxWidth: '75%',
          minWidth: 90,
          bgcolor: AUTHOR_COLORS[kind],
          borderRadius: 2,
          px: 1.5,
          py: 1,
          boxShadow: 1,
          outline: props.highlighted ? '2px solid #1976d2' : 'none',
          transition: 'outline 0.3s',
          '&:hover .message-options': { opacity: 1 },
        }}
      >
        {m.annotation && <Typography variant="caption" sx={{ color: '#6d4c41', fontWeight: 600, display: 'block' }}>{texts.chat.internalNote}</Typography>}
        {showName && <Typography variant="caption" sx={{ fontWeight: 600, display: 'block' }}>{m.author?.displayName ?? ''}</Typography>}
        {replied !== undefined && m.replyTo && (
          <Box
            role="button"
            tabIndex={0}
            onClick={() => m.replyTo && props.onJumpToReply?.(m.replyTo)}
            onKeyDown={(e) => e.key === 'Enter' && m.replyTo && props.onJumpToReply?.(m.replyTo)}
            sx={{ borderLeft: '3px solid #1976d2', bgcolor: 'rgba(0,0,0,0.05)', px: 1, py: 0.5, mb: 0.5, cursor: 'pointer', borderRadius: 1 }}
            data-reply-preview
          >
            <Typography variant="caption" sx={{ fontWeight: 600, display: 'block' }}>{replied?.author?.displayName ?? 'Mensagem'}</Typography>
            <Typography variant="caption">{replied ? truncate(lastMessagePreview(replied), LIMITS.replyQuoteWidth) : '...'}</Typography>
          </Box>
        )}
        {deleted && !props.seeDeletedMessages ? (
          <Typography
            variant="body2"
            sx={{
              fontStyle: "italic",
              color: "text.secondary"
            }}>{deletedText}</Typography>
        ) : (
          <>
            {deleted && <Typography
              variant="caption"
              sx={{
                fontStyle: "italic",
                color: "text.secondary",
                display: "block"
              }}>{deletedText}</Typography>}
            <MessageContent message={deleted && m.deletedContent ? ({ ...m, ...m.deletedContent } as ChatMessage) : m} onReload={props.onReload} />
          </>
        )}
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', alignItems: 'center', gap: 0.5, mt: 0.25 }}>
          {edited && <Typography variant="caption" sx={{
            color: "text.secondary"
          }}>{byCustomer ? texts.whatsappKinds.editedByCustomer : 'Editada'}</Typography>}
          <Typography variant="caption" title={formatDateTime(m.lifeControl?.createdAt)} data-message-time sx={{
            color: "text.secondary"
          }}>{formatMessageTime(m.lifeControl?.createdAt, now)}</Typography>
          {productSide && kind !== 'system' && <DeliveryIndicator state={state} failure={state === 'failed' ? failureText(m) : undefined} onResend={!readOnly && props.onResend ? () => props.onResend!(m) : undefined} />}
        </Box>
        {reactions.length > 0 && (
          <Box sx={{ position: 'absolute', bottom: -12, right: 8, bgcolor: '#fff', borderRadius: 3, px: 0.5, boxShadow: 1, fontSize: 13 }} aria-label="Reações">
            {reactions.join(' ')}
          </Box>
        )}
        {hasOptions && (
          <IconButton
            className="message-options"
            size="small"
            aria-label="Opções da mensagem"
            onClick={(e) => setAnchor(e.currentTarget)}
            // On the bubble's colour, so it stays visible over an image or a long first line.
            sx={{ position: 'absolute', top: 2, right: 2, opacity: 0, p: 0.25, bgcolor: AUTHOR_COLORS[kind], boxShadow: 1, '&:hover': { bgcolor: AUTHOR_COLORS[kind] } }}
          >
            <ExpandMoreIcon fontSize="small" />
          </IconButton>
        )}
        <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
          {options.reply && <MenuItem onClick={() => { setAnchor(null); props.onReply?.(m); }}>Responder</MenuItem>}
          {options.react && <MenuItem onClick={(e) => { setReactAnchor(e.currentTarget); setAnchor(null); }}>Reagir</MenuItem>}
          {options.edit && <MenuItem onClick={() => { setAnchor(null); props.onEdit?.(m); }}>Editar</MenuItem>}
          {options.remove && <MenuItem onClick={() => { setAnchor(null); props.onDelete?.(m); }}>Excluir</MenuItem>}
        </Menu>
        <Menu anchorEl={reactAnchor} open={Boolean(reactAnchor)} onClose={() => setReactAnchor(null)} slotProps={{
          list: { sx: { display: 'flex' } }
        }}>
          {QUICK_REACTIONS.map((e) => (
            <MenuItem key={e} aria-label={`Reagir com ${e}`} onClick={() => { setReactAnchor(null); props.onReact?.(m, e); }}>{e}</MenuItem>
          ))}
        </Menu>
      </Box>
    </Box>
  );
});
