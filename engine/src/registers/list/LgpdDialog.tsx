import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { format, messages } from '@atendimento/schemas';
import { apiRequest } from '../../api/api';
import { showToast } from '../../ui/toast';
import { download } from './downloads';

const t = messages.lgpd;

interface EraseRequest {
  chats: number;
  messages: number;
  confirmationToken: string;
  confirmText: string;
}

/**
 * 'Dados pessoais (LGPD)' of a contact's row (docs/lgpd.md), admins only: export everything the
 * tenant holds about the contact as one zip, or erase the contact's personal data. Erasing is
 * confirmed twice, as the server requires: the first click asks the server what would go and
 * gets a short-lived code; the second needs the typed word APAGAR.
 */
export function LgpdDialog({ id, name, open, onClose, onErased }: { id: string; name: string; open: boolean; onClose: () => void; onErased: () => void }) {
  const [request, setRequest] = useState<EraseRequest | null>(null);
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const path = `/api/lgpd/contacts/${encodeURIComponent(id)}`;

  function close() {
    setRequest(null);
    setTyped('');
    onClose();
  }

  async function exportData() {
    setBusy(true);
    await download(`${path}/export`, `contato-${id}.zip`);
    setBusy(false);
  }

  async function askErase() {
    setBusy(true);
    try {
      const { body } = await apiRequest<{ data: EraseRequest }>(`${path}/erase`, { method: 'POST', body: {} });
      setRequest(body.data);
    } catch {
      // apiRequest toasted the server's message.
    } finally {
      setBusy(false);
    }
  }

  async function erase() {
    if (!request) return;
    setBusy(true);
    try {
      await apiRequest(`${path}/erase`, { method: 'POST', body: { confirmationToken: request.confirmationToken, confirmation: typed.trim() } });
      showToast(t.erased, 'success');
      onErased();
      close();
    } catch {
      // apiRequest toasted the server's message (an expired code asks for a new request).
      setRequest(null);
      setTyped('');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby="lgpd-dialog-title">
      <DialogTitle id="lgpd-dialog-title">{format(t.title, { name })}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{t.intro}</DialogContentText>
        {request && (
          <>
            <Alert severity="error" sx={{ mb: 2 }}>
              {format(t.eraseWarning, { chats: request.chats, messages: request.messages, name })}
            </Alert>
            <TextField label={t.eraseTypeLabel} value={typed} onChange={(event) => setTyped(event.target.value)} fullWidth autoFocus />
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={busy}>{t.close}</Button>
        <Button onClick={() => void exportData()} disabled={busy}>{t.exportButton}</Button>
        {request ? (
          <Button color="error" variant="contained" disabled={busy || typed.trim() !== request.confirmText} onClick={() => void erase()}>
            {t.eraseConfirmButton}
          </Button>
        ) : (
          <Button color="error" disabled={busy} onClick={() => void askErase()}>
            {t.eraseButton}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
