import { lazy, useEffect, useMemo, useState } from 'react';
import { LazyPart } from '../../ui/LazyPart';
import { Box, Button, Chip, IconButton, Link, Paper, Tooltip, Typography } from '@mui/material';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import CloseIcon from '@mui/icons-material/Close';
import ReplyIcon from '@mui/icons-material/Reply';
import { format, messages as seedTexts, type MailAddress } from '@atendimento/schemas';
import { useConsole } from '../../ConsoleContext';
import type { ChatMessage, Room } from '../../model/chat';
import { newIdempotencyKey } from '../../model/chatApi';
import { uiActions } from '../../store/consoleStores';
import { texts } from '../../ui/texts';
import { ChatMenu } from '../open-chat/ChatMenu';
import { useChatActions } from '../open-chat/useChatActions';
import { useRoomMessages } from '../open-chat/useRoomMessages';
import type { MailReplyDraft } from './MailReplyDialog';

// The reply dialog carries the rich-text editor (TipTap + ProseMirror, ~130 kB gzip): loaded
// on the first 'Responder', never on the console's first screen (bench B10b).
const MailReplyDialog = lazy(() => import('./MailReplyDialog').then((m) => ({ default: m.MailReplyDialog })));

const t = seedTexts.mail;
/** More than this many mails collapse to the first two plus the last (seed 001 §9). */
export const MAIL_COLLAPSE_THRESHOLD = 3;

const who = (a: MailAddress | null | undefined) => (a ? (a.name ? `${a.name} <${a.address}>` : a.address) : '');
const list = (l: MailAddress[] | undefined) => (l ?? []).map(who).join(', ');

function formatDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleString('pt-BR', { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/**
 * One mail of the thread. The HTML was sanitised by the server (no script, no handlers, no
 * remote loads, no positioning); the box also contains layout and paint, so nothing inside can
 * draw outside it. Remote images load only after the agent's click.
 */
function MailCard({ message, onResend }: { message: ChatMessage; onResend?: (m: ChatMessage) => void }) {
  const mail = message.mail;
  const [remote, setRemote] = useState(false);
  const failed = message.status?.failed;
  const fromAgent = message.author.type === 'agent';
  const html = remote && mail?.remoteHtml ? mail.remoteHtml : mail?.html;
  return (
    <Paper variant="outlined" sx={{ p: 1.5, bgcolor: fromAgent ? '#f3f8ff' : '#fff' }} data-mail-message={message.id}>
      <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1, flexWrap: 'wrap' }}>
        <Typography variant="subtitle2">{fromAgent ? message.author.displayName : who(mail?.from) || message.author.displayName}</Typography>
        <Typography
          variant="caption"
          sx={{
            color: "text.secondary",
            ml: 'auto'
          }}>{formatDate(message.lifeControl.createdAt)}</Typography>
      </Box>
      {mail && (
        <Typography variant="caption" component="div" sx={{
          color: "text.secondary"
        }}>
          {t.to}: {list(mail.to)}{mail.cc.length > 0 && ` · ${t.cc}: ${list(mail.cc)}`}
        </Typography>
      )}
      {mail?.auto && <Chip size="small" color="warning" label={mail.auto === 'bounce' ? t.bounce : t.autoReply} sx={{ mt: 0.5 }} />}
      {html ? (
        <Box
          data-mail-html
          sx={{ mt: 1, overflow: 'auto', maxWidth: '100%', contain: 'layout paint', position: 'relative', isolation: 'isolate', wordBreak: 'break-word', '& img': { maxWidth: '100%', height: 'auto' } }}
          dangerouslySetInnerHTML={{ __html: html }}
        />
      ) : (
        <Typography variant="body2" sx={{ mt: 1, whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{message.text}</Typography>
      )}
      {mail?.remoteImages && !remote && (
        <Box sx={{ mt: 1, display: 'flex', gap: 1, alignItems: 'center' }}>
          <Typography variant="caption" sx={{
            color: "text.secondary"
          }}>{t.remoteImagesBlocked}</Typography>
          <Button size="small" onClick={() => setRemote(true)}>{t.loadRemoteImages}</Button>
        </Box>
      )}
      {(message.attachments?.length ?? 0) > 0 && (
        <Box sx={{ mt: 1, display: 'flex', flexWrap: 'wrap', gap: 1 }} aria-label={t.attachments}>
          {message.attachments!.map((a) => (
            <Chip key={a.url} icon={<AttachFileIcon />} label={a.filename} component="a" href={a.url} target="_blank" rel="noopener noreferrer" clickable />
          ))}
        </Box>
      )}
      {(mail?.skippedAttachments?.length ?? 0) > 0 && (
        <Typography variant="caption" color="error" component="div">{mail!.skippedAttachments!.map((a) => `${a.fileName}: ${seedTexts.chat.uploadAny100}`).join(' · ')}</Typography>
      )}
      {failed && (
        <Box sx={{ mt: 1, display: 'flex', alignItems: 'center', gap: 1 }} role="alert">
          <Typography variant="caption" color="error">{message.status?.errors?.[0]?.titleptBR ?? message.status?.errors?.[0]?.title ?? seedTexts.chat.sendFailed}</Typography>
          {onResend && <Link component="button" variant="caption" onClick={() => onResend(message)}>Reenviar</Link>}
        </Box>
      )}
    </Paper>
  );
}

/**
 * The e-mail thread pane (seed 001 §2 "E-mail thread"): header with sender, recipients and
 * subject; the mails in order, more than 3 collapsed to the first two plus the last with
 * 'Expandir +N'; 'Responder' opens the reply dialog (answering the last mail).
 */
export function MailThreadPane({ room, onOpenContact }: { room: Room; onOpenContact?: (room: Room) => void }) {
  const { stores, readOnly } = useConsole();
  const actions = useChatActions(room);
  const { list: ids, records } = useRoomMessages(room.id);
  const [expanded, setExpanded] = useState(false);
  const [replying, setReplying] = useState(false);
  // Mounted from the first 'Responder' on (the chunk loads once; the dialog resets itself on each open).
  const [replyOpened, setReplyOpened] = useState(false);
  // One key per draft: a failed send retried from the dialog is the same reply.
  const [draftKey, setDraftKey] = useState(newIdempotencyKey);
  const mails = useMemo(() => ids.ids.map((id) => records[id]).filter((m): m is ChatMessage => Boolean(m) && !m!.annotation && !m!.id.startsWith('pending:')), [ids.ids, records]);
  const hidden = mails.length > MAIL_COLLAPSE_THRESHOLD && !expanded ? mails.length - 3 : 0;
  const shown = hidden > 0 ? [...mails.slice(0, 2), ...mails.slice(-1)] : mails;
  const last = mails.at(-1) ?? null;
  const lastFromCustomer = [...mails].reverse().find((m) => m.author.type === 'client') ?? last;
  const subject = room.subject ?? last?.mail?.subject ?? t.noSubject;
  const customer = room.chatId;
  const openContact = () => {
    uiActions.patch(stores.ui, { drawerRoomId: room.id });
    onOpenContact?.(room);
  };

  useEffect(() => {
    if (!replying) setDraftKey(newIdempotencyKey());
  }, [replying]);

  const send = async (draft: MailReplyDraft) => {
    if (!lastFromCustomer) return false;
    const ok = await actions.replyMail(lastFromCustomer.id, draft, draftKey);
    if (ok) setReplying(false);
    return ok;
  };

  return (
    <Paper elevation={1} sx={{ height: '100%', display: 'flex', flexDirection: 'column', overflow: 'hidden', minWidth: 0 }} data-chat-pane={room.id} data-mail-thread>
      <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1.5, px: 2, py: 1, borderBottom: '1px solid #ddd', bgcolor: '#fff' }} data-chat-header>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1 }}>
            <Typography variant="subtitle1" noWrap role="heading" aria-level={2} sx={{
              fontWeight: 600
            }}>{subject}</Typography>
            <Typography variant="caption" sx={{
              color: "text.secondary"
            }}>#{room.roomInc}</Typography>
            {!room.active && <Chip size="small" label={texts.composer.closedChat} />}
          </Box>
          <Typography variant="body2" noWrap><strong>{t.from}:</strong> {room.author?.displayName && room.author.displayName !== customer ? `${room.author.displayName} <${customer}>` : customer}</Typography>
          {/* The customer's side of the thread: who they wrote to (after our reply the last mail is to them). */}
          <Typography variant="body2" noWrap><strong>{t.to}:</strong> {[...(lastFromCustomer?.mail?.to ?? []).map((a) => a.address), ...room.mailCC].filter((a, i, all) => all.indexOf(a) === i).join(', ')}</Typography>
        </Box>
        {!readOnly && <ChatMenu room={room} actions={actions} onContact={openContact} />}
        {!readOnly && (
          <Tooltip title={texts.menu.closePane}>
            <IconButton aria-label={texts.menu.closePane} onClick={() => uiActions.closeRoom(stores.ui, room.id)}><CloseIcon /></IconButton>
          </Tooltip>
        )}
      </Box>
      <Box sx={{ flex: 1, overflow: 'auto', p: 2, display: 'flex', flexDirection: 'column', gap: 1.5, bgcolor: '#f7f7f7' }} role="log" aria-label="Mensagens">
        {shown.map((m, i) => (
          <Box key={m.id}>
            {hidden > 0 && i === 2 && (
              <Box sx={{ display: 'flex', justifyContent: 'center', mb: 1.5 }}>
                <Button size="small" variant="outlined" onClick={() => setExpanded(true)}>{format(t.expand, { n: hidden })}</Button>
              </Box>
            )}
            <MailCard message={m} onResend={readOnly ? undefined : (msg) => void actions.resend(msg)} />
          </Box>
        ))}
      </Box>
      {!readOnly && room.active && (
        <Box sx={{ p: 1.5, borderTop: '1px solid #ddd', display: 'flex', justifyContent: 'flex-end' }}>
          <Button variant="contained" startIcon={<ReplyIcon />} disabled={!lastFromCustomer} onClick={() => {
            setReplyOpened(true);
            setReplying(true);
          }}>{t.reply}</Button>
        </Box>
      )}
      {replyOpened && (
        <LazyPart>
          <MailReplyDialog
            open={replying}
            subject={/^re\s*:/i.test(subject) ? subject : `Re: ${subject}`}
            to={customer}
            initialCc={room.mailCC}
            onCancel={() => setReplying(false)}
            onSend={send}
          />
        </LazyPart>
      )}
    </Paper>
  );
}
