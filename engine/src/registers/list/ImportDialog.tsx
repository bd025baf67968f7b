import { useEffect, useRef, useState } from 'react';
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
import { api } from '../../api/api';
import { session } from '../../api/session';
import { showToast } from '../../ui/toast';
import { download } from './downloads';
import { FilePicker } from './FilePicker';

interface ImportAnswer {
  /** 202: `jobId` and `total` of a big file importing in the background. */
  meta?: { hasErrors?: boolean; jobId?: string; total?: number };
  data?: { message?: string };
  errorMessage?: string;
}

/** GET /api/imports/:jobId (docs/registers.md). */
interface ImportJobReport {
  state: 'running' | 'done' | 'failed';
  processed: number;
  total: number;
  imported: number;
  failed: number;
  message?: string;
  hasErrors?: boolean;
  errorMessage?: string;
}

/** How often a background import's progress is asked for. */
const POLL_MS = 1000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const count = (n: number) => n.toLocaleString('pt-BR');

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
 * when some rows failed (meta.hasErrors), else as a success. A big file answers 202 with a job:
 * a determinate bar 'Importando… {processed} de {total}', polled every second, then the same
 * toast; a failed job's message stays in the dialog.
 */
export function ImportDialog({ collection, open, onClose, onImported }: { collection: string; open: boolean; onClose: () => void; onImported: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [job, setJob] = useState<{ processed: number; total: number } | null>(null);
  /** Bumped on close and unmount: a poll of an earlier run stops at its next step. */
  const run = useRef(0);
  useEffect(() => () => void (run.current += 1), []);

  function close() {
    run.current += 1;
    setFile(null);
    setError(null);
    setProgress(null);
    setJob(null);
    onClose();
  }

  /** Polls the background job until it ends; null when the dialog was closed meanwhile. */
  async function follow(jobId: string, mine: number): Promise<ImportJobReport | null> {
    for (;;) {
      await sleep(POLL_MS);
      if (run.current !== mine) return null;
      const { data } = await api<{ data: ImportJobReport }>(`/api/imports/${encodeURIComponent(jobId)}`, { notify: false });
      if (run.current !== mine) return null;
      setJob({ processed: data.processed, total: data.total });
      if (data.state !== 'running') return data;
    }
  }

  async function submit() {
    if (!file) return setError(messages.validation.importFileRequired);
    if (!/\.csv$/i.test(file.name)) return setError(messages.registers.importOnlyCsv);
    setError(null);
    setProgress(0);
    const mine = run.current;
    try {
      const { status, body } = await sendImport(collection, file, setProgress);
      if (status >= 400) {
        setError(body?.errorMessage ?? messages.errors.internal);
        return;
      }
      if (status === 202 && body?.meta?.jobId) {
        setProgress(null);
        setJob({ processed: 0, total: body.meta.total ?? 0 });
        const report = await follow(body.meta.jobId, mine);
        if (!report) return;
        if (report.state === 'failed') {
          setError(report.errorMessage ?? messages.errors.internal);
          // Rows committed before the failure (docs/registers.md) show in the list.
          if (report.imported > 0) onImported();
          return;
        }
        showToast(report.message ?? messages.table.saved, report.hasErrors ? 'warning' : 'success');
        onImported();
        close();
        return;
      }
      showToast(body?.data?.message ?? messages.table.saved, body?.meta?.hasErrors ? 'warning' : 'success');
      onImported();
      close();
    } catch (failure) {
      if (run.current === mine) setError((failure as Error).message);
    } finally {
      if (run.current === mine) {
        setProgress(null);
        setJob(null);
      }
    }
  }

  const busy = progress !== null || job !== null;

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
            disabled={busy}
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
        {job !== null && (
          <>
            <LinearProgress variant="determinate" value={job.total ? Math.min(100, (job.processed / job.total) * 100) : 0} sx={{ mt: 2 }} />
            <Typography variant="caption">{format(messages.registers.importRunning, { processed: count(job.processed), total: count(job.total) })}</Typography>
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
        <Button variant="contained" onClick={() => void submit()} disabled={busy}>
          {messages.registers.importSend}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
