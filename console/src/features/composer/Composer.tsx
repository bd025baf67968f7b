import { useCallback, useEffect, useMemo, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import { Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, IconButton, InputBase, List, ListItemButton, ListItemText, Menu, MenuItem, Paper, Popover, Tooltip, Typography } from '@mui/material';
import SendIcon from '@mui/icons-material/Send';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import InsertEmoticonIcon from '@mui/icons-material/InsertEmoticon';
import StickyNote2Icon from '@mui/icons-material/StickyNote2';
import CloseIcon from '@mui/icons-material/Close';
import MicIcon from '@mui/icons-material/Mic';
import StopIcon from '@mui/icons-material/Stop';
import DeleteIcon from '@mui/icons-material/Delete';
import { MESSAGE_MAX_LENGTH, messages as seedTexts } from '@atendimento/schemas';
import { useConsole } from '../../ConsoleContext';
import type { ChatMessage, Room } from '../../model/chat';
import type { FixedMessage } from '../../model/chatApi';
import { LIMITS } from '../../ui/constants';
import { formatDuration, truncate } from '../../ui/format';
import { texts } from '../../ui/texts';
import { lastMessagePreview } from '../renderers/messageState';
import type { ChatActions } from '../open-chat/useChatActions';
import { AttachmentPreview, type PendingUpload } from './AttachmentPreview';
import { exactTag, filterFixedMessages, useFixedMessages } from './useFixedMessages';
import { useAudioRecorder } from './useAudioRecorder';
import { PICKER_ACCEPT, previewKindOf, uploadKindOf, uploadLimitError, type PreviewKind } from './uploads';
import { useWhatsappComposer } from '../whatsapp/WhatsappComposerActions';

/** A small emoji set, 12 per row (seed 001 §9); a full picker can replace it behind the same button. */
const EMOJIS = ['😀', '😁', '😂', '🙂', '😉', '😊', '😍', '😘', '😎', '🤔', '😅', '😢', '😭', '😡', '👍', '👎', '👏', '🙏', '💪', '👋', '🤝', '✌️', '👌', '🎉', '❤️', '💙', '💚', '⭐', '🔥', '✅', '❌', '⚠️', '📦', '🚚', '💰', '📞'];

export interface ComposerProps {
  room: Room;
  actions: ChatActions;
  /** The message being answered ('Responder'); cleared after sending. */
  replyTo: ChatMessage | null;
  onCancelReply: () => void;
  /** Files dropped on the chat pane, handed to the previews. */
  dropped?: File[] | null;
  onDroppedConsumed?: () => void;
}

/**
 * The open chat's footer (seed 001 §2 "Open chat" footer, §5 "Message box"): a 4000-character
 * box (counter after 5, 'Limite de caracteres excedido', truncated after 3 s), Enter sends and
 * Ctrl/Shift/Alt/Meta+Enter does not, emoji picker, attach menu with previews and captions,
 * paste of files, internal-note mode, fixed messages on '/', reply preview.
 *
 * With an empty box the send button becomes the microphone (seed 001 §4 "Recording"): a mm:ss
 * timer while recording, then a preview to send or discard.
 */
export function Composer({ room, actions, replyTo, onCancelReply, dropped, onDroppedConsumed }: ComposerProps) {
  const { notify, now } = useConsole();
  const recorder = useAudioRecorder(now);
  const [text, setText] = useState('');
  const [locked, setLocked] = useState(false);
  const [annotation, setAnnotation] = useState(false);
  const [uploads, setUploads] = useState<PendingUpload[]>([]);
  const [attachAnchor, setAttachAnchor] = useState<HTMLElement | null>(null);
  const [emojiAnchor, setEmojiAnchor] = useState<HTMLElement | null>(null);
  const [fixedIndex, setFixedIndex] = useState(0);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const pickers = { media: useRef<HTMLInputElement>(null), document: useRef<HTMLInputElement>(null), audio: useRef<HTMLInputElement>(null) };
  const truncateTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const fixedItems = useFixedMessages(text.startsWith('/'));
  const whatsapp = useWhatsappComposer(room);
  const fixedShown = filterFixedMessages(fixedItems, text);
  const blocked = Boolean(room.author?.blockedSending);
  // Outside WhatsApp's 24-hour window only a template goes (the banner offers it; the server
  // answers 422 to anything else): the box takes internal notes only, instead of a failed bubble.
  const canSend = (!blocked && !whatsapp.windowClosed) || annotation;

  useEffect(() => () => { if (truncateTimer.current) clearTimeout(truncateTimer.current); }, []);

  const addFiles = useCallback(
    (files: File[], only?: PreviewKind) => {
      const accepted: PendingUpload[] = [];
      for (const file of files) {
        const preview = previewKindOf(file);
        if (only && only !== 'document' && preview !== only) continue;
        if (preview === 'audio' && room.internal) continue; // seed 001 §5: the internal chat ignores audio
        const problem = uploadLimitError(file);
        if (problem) {
          notify(problem, 'error');
          continue;
        }
        accepted.push({ file, caption: '' });
      }
      if (accepted.length) setUploads((u) => [...u, ...accepted]);
    },
    [notify, room.internal],
  );

  useEffect(() => {
    if (!dropped?.length) return;
    addFiles(dropped);
    onDroppedConsumed?.();
  }, [dropped, addFiles, onDroppedConsumed]);

  const change = (value: string) => {
    if (locked) return;
    // '/tag' followed by a space expands; while the agent is still typing nothing is replaced
    // ('/tchau' must not swallow the start of '/tchau8kei691').
    const tagged = value.endsWith(' ') ? exactTag(fixedItems, value.slice(0, -1)) : null;
    if (tagged) {
      pickFixed(tagged);
      return;
    }
    setText(value);
    setFixedIndex(0);
    if (value.length > MESSAGE_MAX_LENGTH) {
      // Seed 001 §5: toast, lock the box, and after 3 s keep the first 4000 characters.
      notify(seedTexts.chat.messageTooLong, 'info');
      setLocked(true);
      truncateTimer.current = setTimeout(() => {
        setText((t) => t.slice(0, MESSAGE_MAX_LENGTH));
        setLocked(false);
      }, LIMITS.truncateAfterMs);
    }
  };

  const pickFixed = (f: FixedMessage) => {
    if (f.fileUrl) {
      setText('');
      void actions.sendFixed(f.id);
      return;
    }
    setText(f.message ?? '');
    inputRef.current?.focus();
  };

  const send = async () => {
    // The send button on an exact '/tag' does what Enter does: the fixed message, never '/tag' itself.
    const exact = exactTag(fixedItems, text);
    if (exact) {
      pickFixed(exact);
      return;
    }
    const value = text.trim();
    if (!value || locked || !canSend || value.length > MESSAGE_MAX_LENGTH) return;
    setText('');
    const reply = replyTo;
    onCancelReply();
    await actions.sendText({ text: value, annotation, replyTo: reply });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement | HTMLInputElement>) => {
    const exact = (e.key === 'Enter' || e.key === 'Tab') && !(e.ctrlKey || e.shiftKey || e.altKey || e.metaKey) ? exactTag(fixedItems, text) : null;
    if (exact) {
      e.preventDefault();
      pickFixed(exact);
      return;
    }
    if (fixedShown.length > 0) {
      if (e.key === 'ArrowDown') { e.preventDefault(); setFixedIndex((i) => Math.min(fixedShown.length - 1, i + 1)); return; }
      if (e.key === 'ArrowUp') { e.preventDefault(); setFixedIndex((i) => Math.max(0, i - 1)); return; }
      if (e.key === 'Enter' && !(e.ctrlKey || e.shiftKey || e.altKey || e.metaKey)) {
        e.preventDefault();
        pickFixed(fixedShown[Math.min(fixedIndex, fixedShown.length - 1)]!);
        return;
      }
    }
    if (e.key !== 'Enter') return;
    // Seed 001 §5: Enter sends; with Ctrl/Shift/Alt/Meta it does not (a new line instead).
    if (e.ctrlKey || e.shiftKey || e.altKey || e.metaKey) {
      if (e.ctrlKey || e.metaKey || e.altKey) {
        // Browsers insert a newline only with Shift: add it for the other modifiers too.
        e.preventDefault();
        const el = e.currentTarget;
        const at = el.selectionStart ?? text.length;
        change(`${text.slice(0, at)}\n${text.slice(el.selectionEnd ?? at)}`);
      }
      return;
    }
    e.preventDefault();
    void send();
  };

  const onPaste = (e: ClipboardEvent) => {
    const files = Array.from(e.clipboardData?.files ?? []);
    if (files.length === 0) return;
    e.preventDefault();
    addFiles(files);
  };

  const sendUploads = async () => {
    const list = uploads;
    setUploads([]);
    const reply = replyTo;
    onCancelReply();
    for (const u of list) await actions.sendFile({ file: u.file, kind: uploadKindOf(u.file), caption: u.caption.trim() || undefined, annotation, replyTo: reply });
  };

  const sendRecording = async () => {
    const file = recorder.file;
    if (!file) return;
    const reply = replyTo;
    onCancelReply();
    recorder.reset();
    await actions.sendFile({ file, kind: 'audio', annotation, replyTo: reply });
  };

  const remaining = MESSAGE_MAX_LENGTH - text.length;
  const showMic = !text && !room.internal && recorder.state === 'idle';

  return (
    <Box sx={{ borderTop: '1px solid #ddd', bgcolor: '#f0f2f5', position: 'relative' }} data-composer>
      {whatsapp.banner}
      {annotation && (
        <Box sx={{ bgcolor: '#ffcc80', px: 2, py: 0.5 }} role="status">
          <Typography variant="caption" sx={{ fontWeight: 600 }}>{seedTexts.chat.internalNote}</Typography>
        </Box>
      )}
      {replyTo && (
        <Box sx={{ display: 'flex', alignItems: 'center', mx: 1, mt: 1, px: 1, py: 0.5, bgcolor: '#fff', borderLeft: '4px solid #1976d2', borderRadius: 1 }} data-reply-target>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Typography variant="caption" sx={{ fontWeight: 600, display: 'block' }}>{replyTo.author?.displayName}</Typography>
            <Typography variant="caption" noWrap sx={{
              display: "block"
            }}>{truncate(lastMessagePreview(replyTo), 120)}</Typography>
          </Box>
          <IconButton size="small" aria-label={texts.composer.cancelReply} onClick={onCancelReply}><CloseIcon fontSize="small" /></IconButton>
        </Box>
      )}
      {fixedShown.length > 0 && (
        <Paper elevation={4} sx={{ position: 'absolute', bottom: '100%', left: 8, right: 8, maxHeight: LIMITS.fixedMessagesMaxHeight, overflowY: 'auto', zIndex: 3 }}>
          <List dense aria-label={texts.composer.fixedMessages}>
            {fixedShown.map((f, i) => (
              <ListItemButton key={f.id} selected={i === fixedIndex} onMouseDown={(e) => { e.preventDefault(); pickFixed(f); }}>
                <ListItemText primary={f.tag ? `/${f.tag}` : f.message} secondary={f.tag ? truncate(f.message ?? '', 120) : f.fileName ?? null} />
              </ListItemButton>
            ))}
          </List>
        </Paper>
      )}
      {blocked && !annotation && (
        <Typography variant="caption" color="error" sx={{ px: 2, pt: 0.5, display: 'block' }}>{seedTexts.contact.blocked}</Typography>
      )}
      <Box sx={{ display: 'flex', alignItems: 'flex-end', gap: 0.5, p: 1 }}>
        <Tooltip title={texts.composer.emoji}>
          <IconButton aria-label={texts.composer.emoji} onClick={(e) => setEmojiAnchor(e.currentTarget)}><InsertEmoticonIcon /></IconButton>
        </Tooltip>
        <Tooltip title={texts.composer.attach}>
          <IconButton aria-label={texts.composer.attach} onClick={(e) => setAttachAnchor(e.currentTarget)}><AttachFileIcon /></IconButton>
        </Tooltip>
        <Tooltip title={texts.composer.internalNote}>
          <IconButton aria-label={texts.composer.internalNote} aria-pressed={annotation} color={annotation ? 'warning' : 'default'} onClick={() => setAnnotation((a) => !a)}><StickyNote2Icon /></IconButton>
        </Tooltip>
        {recorder.state !== 'idle' ? (
          <RecordingBar recorder={recorder} onSend={() => void sendRecording()} />
        ) : (
        <InputBase
          inputRef={inputRef}
          multiline
          maxRows={6}
          value={text}
          readOnly={locked}
          disabled={!canSend}
          placeholder={texts.composer.placeholder}
          inputProps={{ 'aria-label': texts.composer.placeholder }}
          onChange={(e) => change(e.target.value)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          sx={{ flex: 1, bgcolor: '#fff', borderRadius: 2, px: 1.5, py: 1 }}
        />
        )}
        {text.length > LIMITS.counterAfter && (
          <Tooltip title={`${texts.composer.counter}: ${remaining}`}>
            <Box sx={{ position: 'relative', display: 'inline-flex', alignSelf: 'center' }} data-counter={remaining}>
              <CircularProgress variant="determinate" size={28} value={Math.min(100, (text.length / MESSAGE_MAX_LENGTH) * 100)} color={remaining < 0 ? 'error' : 'primary'} />
              <Typography variant="caption" sx={{ position: 'absolute', inset: 0, display: 'flex', alignItems: 'center', justifyContent: 'center', fontSize: 9 }}>{remaining}</Typography>
            </Box>
          </Tooltip>
        )}
        {showMic ? (
          <Tooltip title={texts.composer.record}>
            <span>
              <IconButton aria-label={texts.composer.record} color="primary" disabled={!canSend} onClick={() => void recorder.start()}><MicIcon /></IconButton>
            </span>
          </Tooltip>
        ) : recorder.state === 'idle' && (
          <Tooltip title={texts.composer.send}>
            <span>
              <IconButton aria-label={texts.composer.send} color="primary" disabled={!text.trim() || locked || !canSend} onClick={() => void send()}><SendIcon /></IconButton>
            </span>
          </Tooltip>
        )}
      </Box>
      <Menu anchorEl={attachAnchor} open={Boolean(attachAnchor)} onClose={() => setAttachAnchor(null)}>
        <MenuItem onClick={() => { setAttachAnchor(null); pickers.media.current?.click(); }}>{texts.composer.photosVideos}</MenuItem>
        <MenuItem onClick={() => { setAttachAnchor(null); pickers.document.current?.click(); }}>{texts.composer.document}</MenuItem>
        {!room.internal && <MenuItem onClick={() => { setAttachAnchor(null); pickers.audio.current?.click(); }}>{texts.composer.audio}</MenuItem>}
        {whatsapp.items(() => setAttachAnchor(null))}
      </Menu>
      {whatsapp.dialogs}
      {(Object.keys(pickers) as PreviewKind[]).map((kind) => (
        <input
          key={kind}
          ref={pickers[kind]}
          type="file"
          hidden
          multiple={kind !== 'audio'}
          accept={PICKER_ACCEPT[kind]}
          data-picker={kind}
          onChange={(e) => {
            addFiles(Array.from(e.target.files ?? []), kind);
            e.target.value = '';
          }}
        />
      ))}
      <Popover open={Boolean(emojiAnchor)} anchorEl={emojiAnchor} onClose={() => setEmojiAnchor(null)} anchorOrigin={{ vertical: 'top', horizontal: 'left' }} transformOrigin={{ vertical: 'bottom', horizontal: 'left' }}>
        <Box sx={{ display: 'grid', gridTemplateColumns: `repeat(${LIMITS.emojiPerRow}, 32px)`, p: 1 }} role="listbox" aria-label={texts.composer.emoji}>
          {EMOJIS.map((e) => (
            <Box key={e} component="button" type="button" role="option" aria-label={e} onClick={() => { change(text + e); setEmojiAnchor(null); inputRef.current?.focus(); }} sx={{ border: 0, bgcolor: 'transparent', fontSize: 20, cursor: 'pointer', p: 0.25 }}>{e}</Box>
          ))}
        </Box>
      </Popover>
      <Dialog open={recorder.permissionDenied} onClose={recorder.dismissPermission}>
        <DialogTitle>{seedTexts.chat.allowMicrophone}</DialogTitle>
        <DialogContent><Typography>{texts.composer.microphoneHelp}</Typography></DialogContent>
        <DialogActions><Button onClick={recorder.dismissPermission}>{texts.drawer.close}</Button></DialogActions>
      </Dialog>
      <AttachmentPreview uploads={uploads} onChange={setUploads} onCancel={() => setUploads([])} onSend={() => void sendUploads()} />
    </Box>
  );
}

/** Recording in progress (timer, discard, stop) or its preview (player, discard, send). */
function RecordingBar({ recorder, onSend }: { recorder: ReturnType<typeof useAudioRecorder>; onSend: () => void }) {
  const url = useMemo(() => (recorder.file && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(recorder.file) : null), [recorder.file]);
  useEffect(() => () => { if (url) URL.revokeObjectURL(url); }, [url]);
  return (
    <Box sx={{ flex: 1, display: 'flex', alignItems: 'center', gap: 1, bgcolor: '#fff', borderRadius: 2, px: 1.5, py: 0.5 }} data-recorder={recorder.state}>
      <IconButton aria-label={texts.composer.discardRecording} onClick={recorder.reset}><DeleteIcon /></IconButton>
      {recorder.state === 'recording' ? (
        <>
          <Box sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: 'error.main' }} />
          <Typography variant="body2" sx={{ flex: 1, fontVariantNumeric: 'tabular-nums' }} role="timer">{formatDuration(recorder.seconds)}</Typography>
          <IconButton aria-label={texts.composer.stopRecording} color="error" onClick={recorder.stop}><StopIcon /></IconButton>
        </>
      ) : (
        <>
          {url ? <Box component="audio" controls src={url} sx={{ flex: 1, height: 36 }} /> : <Typography sx={{ flex: 1 }}>{recorder.file?.name}</Typography>}
          <IconButton aria-label={texts.composer.send} color="primary" onClick={onSend}><SendIcon /></IconButton>
        </>
      )}
    </Box>
  );
}
