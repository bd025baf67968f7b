import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { messages } from '@atendimento/schemas';
import { api, ApiError } from '../api/api';
import { useSessionUser } from '../api/useSessionUser';
import { showToast } from '../ui/toast';

const text = messages.summary;

interface FoundChat {
  id: string;
  roomInc: number;
  contact: string;
  createdAt: string;
  closedAt: string | null;
  active: boolean;
}

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString('pt-BR') : '');

/**
 * /sumaries (seed 000 §2 "Summaries"; docs/summaries.md): type a numeric chat code; the chat's
 * contact, creation date and closing date (or 'chat ativo') show, then 'Gerar resumo' e-mails
 * its summary to the user ('Resumo enviado' / 'Erro no envio do resumo').
 */
export function SummariesPage() {
  const user = useSessionUser();
  const [code, setCode] = useState('');
  const [found, setFound] = useState<FoundChat | null>(null);
  const [missing, setMissing] = useState(false);
  const [busy, setBusy] = useState(false);

  async function search() {
    setFound(null);
    setMissing(false);
    if (!/^\d+$/.test(code.trim())) {
      setMissing(true);
      return;
    }
    try {
      const body = await api<{ data: FoundChat }>(`/api/sumaries/${code.trim()}`, { notify: false });
      setFound(body.data);
    } catch (error) {
      if (error instanceof ApiError && (error.status === 404 || error.status === 400)) setMissing(true);
      else showToast((error as Error).message, 'error');
    }
  }

  async function generate() {
    if (!found) return;
    setBusy(true);
    try {
      await api(`/api/rooms/sumarize/${found.id}`, { method: 'POST', body: { targetEmail: user?.email }, notify: false });
      showToast(text.sent, 'success');
    } catch {
      showToast(text.failed, 'error');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Box sx={{ p: 2, maxWidth: 640 }}>
      <Typography component="h1" variant="h5" sx={{ mb: 2 }}>
        {text.title}
      </Typography>
      <Box component="form" sx={{ display: 'flex', gap: 1, mb: 2 }} onSubmit={(e) => (e.preventDefault(), void search())}>
        <TextField size="small" label={text.codeLabel} value={code} onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))} slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'summary-code' } }} />
        <Button type="submit" variant="outlined">
          {text.search}
        </Button>
      </Box>
      {missing ? <Alert severity="warning">{text.notFound}</Alert> : null}
      {found ? (
        <Paper variant="outlined" sx={{ p: 2, display: 'grid', gap: 1 }} data-testid="summary-chat">
          <Typography>
            <b>{text.contact}:</b> {found.contact}
          </Typography>
          <Typography>
            <b>{text.createdAt}:</b> {when(found.createdAt)}
          </Typography>
          <Typography>
            <b>{text.closedAt}:</b> {found.active ? text.activeChat : when(found.closedAt)}
          </Typography>
          <Box>
            <Button variant="contained" onClick={() => void generate()} disabled={busy}>
              {busy ? text.sending : text.generate}
            </Button>
          </Box>
        </Paper>
      ) : null}
    </Box>
  );
}
