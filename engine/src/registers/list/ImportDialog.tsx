import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { format, messages } from '@atendimento/schemas';
import { session } from '../../api/session';
import { showToast } from '../../ui/toast';
import { download } from './downloads';
import { FilePicker } from './FilePicker';

interface ImportAnswer {
  meta?: { hasErrors?: boolean };
  data?: { message?: string };
  errorMessage?: string;
}

/**
 * POST /{collection}/import with upload progress (XMLHttpRequest reports it; fetch does not).
 * A 401 refreshes the session once and retries.
 */
function sendImport(collection: string, file: File, onProgress: (percent: number) => void): Promise<{ status: number; body: ImportAnswer | null }> {
  const attempt = () =>
    new Promise<{ status: number; body: ImportAnswer | null }>((resolve, reject) => {
      const form = new FormData();
      form.append('file', file, file.name);
      const xhr = new XMLHttpRequest();
      xhr.open('POST', `/api/${encodeURIComponent(collection)}/import`);
      xhr.setRequestHeader('front-request', 'true');
      if (session.token) xhr.setRequestHeader('Authorization', `Bearer ${session.token}`);
      xhr.upload.onprogress = (event) => event.lengthComputable && onProgress(Math.round((event.loaded / event.total) * 100));
      xhr.onload = () => {
        let body: ImportAnswer | null = null;
        try {
          body = JSON.parse(xhr.responseText) as ImportAnswer;
        } catch {
          body = null;
        }
        resolve({ status: xhr.status, body });
      };
      xhr.onerror = () => reject(new Error(messages.tenant.unreachable));
      xhr.send(form);
    });
  return attempt().then(async (answer) => (answer.status === 401 && (await session.refresh()) ? attempt() : answer));
}

/**
 * 'Importar CSV' (seed 000 §2, §5): only .csv ('Informe o arquivo a ser importado'), the
 * register's CSV template, progress while sending; the server's message shows as a warning
 * when some rows failed (meta.hasErrors), else as a success.
 */
export function ImportDialog({ collection, open, onClose, onImported }: { collection: string; open: boolean; onClose: () => void; onImported: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);

  function close() {
    setFile(null);
    setError(null);
    setProgress(null);
    onClose();
  }

  async function submit() {
    if (!file) return setError(messages.validation.importFileRequired);
    if (!/\.csv$/i.test(file.name)) return setError(messages.registers.importOnlyCsv);
    setError(null);
    setProgress(0);
    try {
      const { status, body } = await sendImport(collection, file, setProgress);
      if (status >= 400) {
        setError(body?.errorMessage ?? messages.errors.internal);
        return;
      }
      showToast(body?.data?.message ?? messages.table.saved, body?.meta?.hasErrors ? 'warning' : 'success');
      onImported();
      close();
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setProgress(null);
    }
  }

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm">
      <DialogTitle>{messages.registers.importTitle}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" sx={{ mb: 2 }}>
          {messages.registers.importHint}
        </Typography>
        <Button size="small" onClick={() => void download(`/api/${collection}/csvTemplate`, `${collection}-modelo.csv`)}>
          {messages.registers.importTemplate}
        </Button>
        <Box sx={{ mt: 2 }}>
          <FilePicker
            label={messages.registers.import}
            accept=".csv,text/csv"
            fileName={file?.name ?? null}
            disabled={progress !== null}
            onPick={(picked) => {
              setFile(picked);
              setError(null);
            }}
          />
        </Box>
        {progress !== null && (
          <>
            <LinearProgress variant={progress < 100 ? 'determinate' : 'indeterminate'} value={progress} sx={{ mt: 2 }} />
            <Typography variant="caption">{progress < 100 ? format(messages.registers.importProgress, { percent: progress }) : messages.registers.importProcessing}</Typography>
          </>
        )}
        {error && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{messages.registers.cancel}</Button>
        <Button variant="contained" onClick={() => void submit()} disabled={progress !== null}>
          {messages.registers.importSend}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
