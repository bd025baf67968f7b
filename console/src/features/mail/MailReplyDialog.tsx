import { useEffect, useRef, useState } from 'react';
import { Box, Button, Chip, Dialog, DialogActions, DialogContent, DialogTitle, IconButton, TextField, Tooltip, Typography } from '@mui/material';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import CodeIcon from '@mui/icons-material/Code';
import FormatBoldIcon from '@mui/icons-material/FormatBold';
import FormatItalicIcon from '@mui/icons-material/FormatItalic';
import FormatListBulletedIcon from '@mui/icons-material/FormatListBulleted';
import FormatListNumberedIcon from '@mui/icons-material/FormatListNumbered';
import FormatQuoteIcon from '@mui/icons-material/FormatQuote';
import FormatUnderlinedIcon from '@mui/icons-material/FormatUnderlined';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { UPLOAD_LIMITS, messages as seedTexts } from '@atendimento/schemas';

const t = seedTexts.mail;

export interface MailReplyDraft {
  /** The editor's HTML (the server sanitises it again). */
  html: string;
  cc: string[];
  files: File[];
}

/** The formatting the seed names (001 §2 "E-mail thread"): bold, italic, underline, lists, code block, quote. */
function Toolbar({ editor }: { editor: Editor }) {
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'), italic: e.isActive('italic'), underline: e.isActive('underline'), bulletList: e.isActive('bulletList'),
      orderedList: e.isActive('orderedList'), codeBlock: e.isActive('codeBlock'), blockquote: e.isActive('blockquote'),
    }),
  });
  const buttons = [
    { key: 'bold', label: t.bold, icon: <FormatBoldIcon fontSize="small" />, run: () => editor.chain().focus().toggleBold().run() },
    { key: 'italic', label: t.italic, icon: <FormatItalicIcon fontSize="small" />, run: () => editor.chain().focus().toggleItalic().run() },
    { key: 'underline', label: t.underline, icon: <FormatUnderlinedIcon fontSize="small" />, run: () => editor.chain().focus().toggleUnderline().run() },
    { key: 'bulletList', label: t.bulletList, icon: <FormatListBulletedIcon fontSize="small" />, run: () => editor.chain().focus().toggleBulletList().run() },
    { key: 'orderedList', label: t.orderedList, icon: <FormatListNumberedIcon fontSize="small" />, run: () => editor.chain().focus().toggleOrderedList().run() },
    { key: 'codeBlock', label: t.codeBlock, icon: <CodeIcon fontSize="small" />, run: () => editor.chain().focus().toggleCodeBlock().run() },
    { key: 'blockquote', label: t.quote, icon: <FormatQuoteIcon fontSize="small" />, run: () => editor.chain().focus().toggleBlockquote().run() },
  ] as const;
  return (
    <Box role="toolbar" aria-label="Formatação" sx={{ display: 'flex', gap: 0.5, borderBottom: '1px solid #ddd', pb: 0.5 }}>
      {buttons.map((b) => (
        <Tooltip key={b.key} title={b.label}>
          <IconButton size="small" aria-label={b.label} aria-pressed={state[b.key]} color={state[b.key] ? 'primary' : 'default'} onMouseDown={(e) => e.preventDefault()} onClick={b.run}>
            {b.icon}
          </IconButton>
        </Tooltip>
      ))}
    </Box>
  );
}

/**
 * The 'Responder' dialog of an e-mail thread (seed 001 §2): a rich-text editor (TipTap: bold,
 * italic, underline, bullet and ordered lists, code block, quote), Cc, attachments ('Anexo')
 * and 'Cancelar'. An empty reply cannot be sent (seed 001 §5). A send that failed leaves the
 * dialog open with its draft, so sending again is the same reply (the caller keeps its key).
 */
export function MailReplyDialog(props: {
  open: boolean;
  /** "Re: ..." and the customer, shown above the editor. */
  subject: string;
  to: string;
  initialCc?: string[];
  /** A draft to start from (stories). */
  initialHtml?: string;
  sending?: boolean;
  onCancel: () => void;
  /** Resolves true when sent (the dialog closes), false to keep the draft. */
  onSend: (draft: MailReplyDraft) => Promise<boolean>;
}) {
  const { open, onCancel, onSend } = props;
  const [cc, setCc] = useState((props.initialCc ?? []).join(', '));
  const [files, setFiles] = useState<File[]>([]);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const editor = useEditor({
    extensions: [StarterKit.configure({ heading: false, horizontalRule: false, link: { openOnClick: false } })],
    content: props.initialHtml ?? '',
    immediatelyRender: true,
    editorProps: { attributes: { 'aria-label': t.reply, role: 'textbox', 'aria-multiline': 'true', class: 'mail-editor' } },
  });
  const empty = useEditorState({ editor, selector: ({ editor: e }) => !e || e.isEmpty || !e.getText().trim() }) ?? true;

  // The pane mounts this dialog on the first 'Responder' (a lazy chunk), already open: the editor
  // was just created with the content, and its commands are not ready before its view mounts.
  const reopened = useRef(false);
  useEffect(() => {
    if (!open) return;
    setCc((props.initialCc ?? []).join(', '));
    setFiles([]);
    setError(null);
    if (reopened.current) editor?.commands.setContent(props.initialHtml ?? '');
    // Reset only when the dialog opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);
  useEffect(() => {
    reopened.current = true;
  }, []);

  const addFiles = (list: FileList | null) => {
    const picked = Array.from(list ?? []);
    const tooBig = picked.find((f) => f.size > UPLOAD_LIMITS.document);
    if (tooBig) setError(seedTexts.chat.uploadAny100);
    setFiles((current) => [...current, ...picked.filter((f) => f.size <= UPLOAD_LIMITS.document)]);
  };

  const canSend = !sending && !props.sending && (!empty || files.length > 0);
  const send = async () => {
    if (!editor || !canSend) return;
    setSending(true);
    try {
      const ok = await onSend({ html: empty ? '' : editor.getHTML(), cc: cc.split(/[,;\s]+/).map((s) => s.trim()).filter(Boolean), files });
      if (ok) editor.commands.clearContent();
    } finally {
      setSending(false);
    }
  };

  return (
    <Dialog open={open} onClose={onCancel} fullWidth maxWidth="md" aria-labelledby="mail-reply-title">
      <DialogTitle id="mail-reply-title">{t.reply}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
        <Typography variant="body2"><strong>{t.to}:</strong> {props.to}</Typography>
        <Typography variant="body2"><strong>{t.subject}:</strong> {props.subject}</Typography>
        <TextField label={t.cc} size="small" value={cc} onChange={(e) => setCc(e.target.value)} placeholder="nome@empresa.com.br" />
        <Box sx={{ border: '1px solid #ccc', borderRadius: 1, p: 1 }}>
          {editor && <Toolbar editor={editor} />}
          <Box sx={{ minHeight: 160, maxHeight: 360, overflow: 'auto', '& .mail-editor': { outline: 'none', minHeight: 150, p: 1 }, '& blockquote': { borderLeft: '3px solid #ccc', ml: 0, pl: 1.5, color: '#555' }, '& pre': { bgcolor: '#f4f4f4', p: 1, borderRadius: 1 } }}>
            <EditorContent editor={editor} />
          </Box>
        </Box>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
          <Button size="small" startIcon={<AttachFileIcon />} onClick={() => fileInput.current?.click()}>{t.attachment}</Button>
          <input ref={fileInput} type="file" multiple hidden data-testid="mail-attachment-input" onChange={(e) => { addFiles(e.target.files); e.target.value = ''; }} />
          {files.map((f, i) => <Chip key={`${f.name}-${i}`} label={f.name} onDelete={() => setFiles((all) => all.filter((_, j) => j !== i))} />)}
        </Box>
        {error && <Typography color="error" variant="body2" role="alert">{error}</Typography>}
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>{t.cancel}</Button>
        <Button variant="contained" disabled={!canSend} onClick={() => void send()}>{sending ? t.sending : t.send}</Button>
      </DialogActions>
    </Dialog>
  );
}
