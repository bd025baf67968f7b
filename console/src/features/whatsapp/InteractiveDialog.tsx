import { useEffect, useRef, useState } from 'react';
import {
  Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, IconButton, Paper, TextField, ToggleButton, ToggleButtonGroup, Typography,
} from '@mui/material';
import DeleteIcon from '@mui/icons-material/DeleteOutlineOutlined';
import { messages as seedTexts } from '@atendimento/schemas';
import { INTERACTIVE_LIMITS as L, type InteractiveSend } from '@atendimento/schemas/chat/whatsapp';
import { useConsole } from '../../ConsoleContext';
import { newIdempotencyKey } from '../../model/chatApi';
import type { ChatMessage } from '../../model/chat';
import { InteractiveMessage } from '../renderers/StructuredMessages';
import { whatsappTexts } from './texts';

const t = whatsappTexts.interactive;

const interactivePath = (roomId: string) => `/api/rooms/${encodeURIComponent(roomId)}/message/interactive`;

interface Draft {
  kind: 'button' | 'list';
  header: string;
  body: string;
  footer: string;
  buttons: string[];
  listButton: string;
  sectionTitle: string;
  options: { title: string; description: string }[];
}

const empty: Draft = { kind: 'button', header: '', body: '', footer: '', buttons: [''], listButton: '', sectionTitle: '', options: [{ title: '', description: '' }] };

/** The Cloud API body of a draft (ids are the option's position: the customer's answer names it). */
function interactiveOf(d: Draft): InteractiveSend {
  const frame = { ...(d.header.trim() && { header: { type: 'text' as const, text: d.header.trim() } }), body: { text: d.body.trim() }, ...(d.footer.trim() && { footer: { text: d.footer.trim() } }) };
  if (d.kind === 'button') return { type: 'button', ...frame, action: { buttons: d.buttons.map((title, i) => ({ type: 'reply', reply: { id: `botao_${i + 1}`, title: title.trim() } })) } };
  return {
    type: 'list',
    ...frame,
    action: {
      button: d.listButton.trim(),
      sections: [{ ...(d.sectionTitle.trim() && { title: d.sectionTitle.trim() }), rows: d.options.map((o, i) => ({ id: `opcao_${i + 1}`, title: o.title.trim(), ...(o.description.trim() && { description: o.description.trim() }) })) }],
    },
  };
}

/**
 * Buttons (up to 3) or a list (up to 10 options) for a WhatsApp chat, within WhatsApp's limits
 * (titles 20/24 characters, body 1024); empty required fields say 'Campo obrigatório'. The
 * preview is the console's own interactive renderer. Sent with POST
 * /api/rooms/:id/message/interactive; the stored message arrives through the live list.
 */
export function InteractiveDialog({ open, roomId, onClose }: { open: boolean; roomId: string; onClose: () => void }) {
  const { api, notify } = useConsole();
  const [d, setD] = useState<Draft>(empty);
  const [showErrors, setShowErrors] = useState(false);
  const [busy, setBusy] = useState(false);
  const key = useRef(newIdempotencyKey());

  useEffect(() => {
    if (!open) return;
    setD(empty);
    setShowErrors(false);
    key.current = newIdempotencyKey();
  }, [open]);

  const set = (patch: Partial<Draft>) => setD((prev) => ({ ...prev, ...patch }));
  const required = (value: string) => (showErrors && !value.trim() ? { error: true, helperText: seedTexts.validation.requiredField } : {});
  const missing = !d.body.trim() || (d.kind === 'button' ? d.buttons.some((b) => !b.trim()) : !d.listButton.trim() || d.options.some((o) => !o.title.trim()));

  async function send() {
    if (missing) {
      setShowErrors(true);
      return;
    }
    setBusy(true);
    try {
      await api.request(interactivePath(roomId), { method: 'POST', body: { interactive: interactiveOf(d), clientId: key.current }, notify: false });
      onClose();
    } catch (e) {
      notify((e as Error).message, 'error');
    } finally {
      setBusy(false);
    }
  }

  const preview = { id: 'preview', type: 'interactive', text: d.body, interactive: interactiveOf(d) } as unknown as ChatMessage;
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="interactive-title">
      <DialogTitle id="interactive-title">{t.title}</DialogTitle>
      <DialogContent dividers sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
        <ToggleButtonGroup size="small" exclusive value={d.kind} onChange={(_e, kind) => kind && set({ kind })} aria-label={t.kind}>
          <ToggleButton value="button">{t.buttons}</ToggleButton>
          <ToggleButton value="list">{t.list}</ToggleButton>
        </ToggleButtonGroup>
        <TextField size="small" label={t.header} value={d.header} onChange={(e) => set({ header: e.target.value })} slotProps={{
          htmlInput: { maxLength: L.header }
        }} />
        <TextField
          size="small"
          label={t.body}
          multiline
          minRows={2}
          value={d.body}
          onChange={(e) => set({ body: e.target.value })}
          {...required(d.body)}
          slotProps={{
            htmlInput: { maxLength: L.body }
          }} />
        <TextField size="small" label={t.footer} value={d.footer} onChange={(e) => set({ footer: e.target.value })} slotProps={{
          htmlInput: { maxLength: L.footer }
        }} />
        {d.kind === 'button' && (
          <>
            {d.buttons.map((title, i) => (
              <Box key={i} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
                <TextField
                  size="small"
                  fullWidth
                  label={t.button(i + 1)}
                  value={title}
                  onChange={(e) => set({ buttons: d.buttons.map((b, j) => (j === i ? e.target.value : b)) })}
                  {...required(title)}
                  slotProps={{
                    htmlInput: { maxLength: L.buttonTitle }
                  }} />
                {d.buttons.length > 1 && <IconButton aria-label={`${t.remove} ${t.button(i + 1)}`} onClick={() => set({ buttons: d.buttons.filter((_b, j) => j !== i) })}><DeleteIcon /></IconButton>}
              </Box>
            ))}
            {d.buttons.length < L.buttons && <Button size="small" onClick={() => set({ buttons: [...d.buttons, ''] })} sx={{ alignSelf: 'flex-start' }}>{t.addButton}</Button>}
          </>
        )}
        {d.kind === 'list' && (
          <>
            <TextField
              size="small"
              label={t.listButton}
              value={d.listButton}
              onChange={(e) => set({ listButton: e.target.value })}
              {...required(d.listButton)}
              slotProps={{
                htmlInput: { maxLength: L.listButton }
              }} />
            <TextField size="small" label={t.sectionTitle} value={d.sectionTitle} onChange={(e) => set({ sectionTitle: e.target.value })} slotProps={{
              htmlInput: { maxLength: L.rowTitle }
            }} />
            {d.options.map((o, i) => (
              <Box key={i} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
                <TextField
                  size="small"
                  sx={{ flex: 1 }}
                  label={t.option(i + 1)}
                  value={o.title}
                  onChange={(e) => set({ options: d.options.map((x, j) => (j === i ? { ...x, title: e.target.value } : x)) })}
                  {...required(o.title)}
                  slotProps={{
                    htmlInput: { maxLength: L.rowTitle }
                  }} />
                <TextField size="small" sx={{ flex: 1 }} label={t.optionDescription(i + 1)} value={o.description} onChange={(e) => set({ options: d.options.map((x, j) => (j === i ? { ...x, description: e.target.value } : x)) })} slotProps={{
                  htmlInput: { maxLength: L.rowDescription }
                }} />
                {d.options.length > 1 && <IconButton aria-label={`${t.remove} ${t.option(i + 1)}`} onClick={() => set({ options: d.options.filter((_x, j) => j !== i) })}><DeleteIcon /></IconButton>}
              </Box>
            ))}
            {d.options.length < L.rows && <Button size="small" onClick={() => set({ options: [...d.options, { title: '', description: '' }] })} sx={{ alignSelf: 'flex-start' }}>{t.addOption}</Button>}
          </>
        )}
        {d.body.trim() && (
          <Paper variant="outlined" sx={{ p: 1, bgcolor: '#dcf8c6', alignSelf: 'flex-end', maxWidth: '80%' }} data-interactive-preview>
            <Typography variant="overline" sx={{
              display: "block"
            }}>{whatsappTexts.templates.preview}</Typography>
            <InteractiveMessage message={preview} />
          </Paper>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t.cancel}</Button>
        <Button variant="contained" onClick={() => void send()} disabled={busy}>{t.send}</Button>
      </DialogActions>
    </Dialog>
  );
}
