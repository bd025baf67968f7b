import { useEffect, useMemo, useState } from 'react';
import {
  Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, List, ListItemButton, ListItemText, TextField, Typography,
} from '@mui/material';
import { hasTenantClaim, messages as seedTexts } from '@atendimento/schemas';
import type { TemplateSendInput, TemplatesAnswer, WhatsappTemplate } from '@atendimento/schemas/chat/whatsapp';
import { useConsole } from '../../ConsoleContext';
import { TEMPLATE_HEADER_ACCEPT, buildTemplateSend, headerMedia, offeredTemplates, templateBody, templateParams } from './templates';
import { whatsappTexts } from './texts';

const t = whatsappTexts.templates;

/** GET /api/templates of one channel: approved ones, up to 500 (the dialog narrows further). */
const templatesPath = (channelId: string) => `/api/templates?${new URLSearchParams({ channelId, status: 'APPROVED', limit: '500' })}`;

/**
 * The template dialog (seed 001 §2/§4/§5): list → edit (parameter form) → send; 'Voltar'
 * returns to the list. Only approved pt_BR/pt_PT templates outside the excluded names are
 * offered; every parameter is required ('Campo obrigatório'); a media header takes a .png,
 * .jpg, .jpeg or .pdf uploaded through POST /api/upload. `onSend` makes the call (a chat's
 * template send, or the active message).
 */
export function TemplateDialog({ open, channelId, onClose, onSend }: { open: boolean; channelId: string | null; onClose: () => void; onSend: (template: TemplateSendInput) => Promise<unknown> | unknown }) {
  const { api, appConfig, notify } = useConsole();
  const [list, setList] = useState<WhatsappTemplate[] | null>(null);
  const [query, setQuery] = useState('');
  const [chosen, setChosen] = useState<WhatsappTemplate | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const [showErrors, setShowErrors] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open || !channelId) return;
    let cancelled = false;
    setList(null);
    setChosen(null);
    api.request<TemplatesAnswer>(templatesPath(channelId), { notify: false }).then(
      ({ body }) => {
        if (cancelled) return;
        const all = (body.data ?? []).filter((set) => set.channels.includes(channelId)).flatMap((set) => set.templates);
        setList(offeredTemplates(all, { hidden: appConfig.hiddenTemplates, disableWithImages: hasTenantClaim(appConfig, 'disableTemplatesWithImages') }));
      },
      () => !cancelled && setList([]),
    );
    return () => {
      cancelled = true;
    };
  }, [open, channelId, api, appConfig]);

  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    return (list ?? []).filter((x) => !q || x.name.toLowerCase().includes(q) || templateBody(x).toLowerCase().includes(q));
  }, [list, query]);
  const params = chosen ? templateParams(chosen) : [];
  const missing = params.filter((p) => !values[p.key]?.trim());

  function pick(template: WhatsappTemplate) {
    setChosen(template);
    setValues({});
    setShowErrors(false);
  }

  async function upload(file: File) {
    const form = new FormData();
    form.append('file', file);
    try {
      const { body } = await api.request<{ data: { file: { imageUrl?: string; documentUrl?: string } } }>('/api/upload', { method: 'POST', body: form, notify: false });
      const url = body.data.file.imageUrl ?? body.data.file.documentUrl ?? '';
      setValues((v) => ({ ...v, headerMedia: url }));
    } catch (e) {
      notify((e as Error).message, 'error');
    }
  }

  async function send() {
    if (!chosen) return;
    if (missing.length) {
      setShowErrors(true);
      return;
    }
    setBusy(true);
    try {
      await onSend(buildTemplateSend(chosen, values));
      onClose();
    } catch (e) {
      notify((e as Error).message, 'error');
    } finally {
      setBusy(false);
    }
  }

  const preview = chosen ? buildTemplateSend(chosen, values).text ?? '' : '';
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="template-dialog-title">
      <DialogTitle id="template-dialog-title">{chosen ? chosen.name : t.title}</DialogTitle>
      <DialogContent dividers>
        {!chosen && (
          <>
            <TextField size="small" fullWidth label={t.search} value={query} onChange={(e) => setQuery(e.target.value)} sx={{ mb: 1 }} />
            {list === null && <Box sx={{ display: 'flex', justifyContent: 'center', p: 2 }}><CircularProgress size={24} aria-label={t.loading} /></Box>}
            {list !== null && shown.length === 0 && <Typography
              sx={{
                color: "text.secondary",
                p: 2
              }}>{t.empty}</Typography>}
            <List dense aria-label={t.title}>
              {shown.map((x) => (
                <ListItemButton key={`${x.name}:${x.language}`} onClick={() => pick(x)} data-template={x.name}>
                  <ListItemText primary={`${x.name} · ${x.language}`} secondary={templateBody(x)} slotProps={{
                    secondary: { noWrap: true }
                  }} />
                </ListItemButton>
              ))}
            </List>
          </>
        )}
        {chosen && (
          <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
            {params.map((p) =>
              p.part === 'headerMedia' ? (
                <Box key={p.key}>
                  <Button variant="outlined" component="label" size="small">
                    {t.chooseFile} ({headerMedia(chosen)?.toLowerCase()})
                    <input hidden type="file" accept={TEMPLATE_HEADER_ACCEPT} aria-label={t.headerFile} onChange={(e) => e.target.files?.[0] && void upload(e.target.files[0])} />
                  </Button>
                  {values.headerMedia && <Typography variant="caption" sx={{ ml: 1 }} data-header-file>{values.headerMedia.split('/').pop()}</Typography>}
                  {showErrors && !values.headerMedia && <Typography variant="caption" color="error" sx={{
                    display: "block"
                  }}>{seedTexts.validation.requiredField}</Typography>}
                </Box>
              ) : (
                <TextField
                  key={p.key}
                  size="small"
                  label={p.part === 'header' ? t.headerParam(p.index) : t.param(p.index)}
                  value={values[p.key] ?? ''}
                  onChange={(e) => setValues((v) => ({ ...v, [p.key]: e.target.value }))}
                  error={showErrors && !values[p.key]?.trim()}
                  helperText={showErrors && !values[p.key]?.trim() ? seedTexts.validation.requiredField : ' '}
                  slotProps={{
                    htmlInput: { maxLength: 1000 }
                  }}
                />
              ),
            )}
            <Typography variant="overline">{t.preview}</Typography>
            <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', bgcolor: '#dcf8c6', p: 1, borderRadius: 1 }} data-template-preview>{preview}</Typography>
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        {chosen ? <Button onClick={() => setChosen(null)}>{t.back}</Button> : <Button onClick={onClose}>{t.cancel}</Button>}
        <Button variant="contained" disabled={!chosen || busy} onClick={() => void send()}>{t.send}</Button>
      </DialogActions>
    </Dialog>
  );
}
