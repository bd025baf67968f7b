import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import LinearProgress from '@mui/material/LinearProgress';
import { format, messages } from '@atendimento/schemas';
import { api } from '../../api/api';

const text = messages.dashboard;

/** How often the running export is asked for its progress. */
export const EXPORT_POLL_MS = 1000;

interface ExportStatus {
  /** 'queued': recorded, waiting for a process to take it (after a restart, say). */
  status: 'queued' | 'running' | 'sent' | 'failed';
  rows: number;
}

/**
 * The export the user just asked for (seed 002 §7), while the server writes it: the rows so far
 * from `GET /api/dashboard/export/:id`, then where it was sent, or that it failed. It stops asking
 * once the job ends, or when the page is left; a lost answer is simply asked again.
 */
export function ExportProgress({ jobId, email, onClose }: { jobId: string; email: string; onClose: () => void }) {
  const [state, setState] = useState<ExportStatus>({ status: 'running', rows: 0 });
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const body = await api<{ data: ExportStatus }>(`/api/dashboard/export/${encodeURIComponent(jobId)}`, { notify: false });
        if (!live) return;
        setState({ status: body.data.status, rows: body.data.rows });
        if (body.data.status === 'sent' || body.data.status === 'failed') return;
      } catch {
        if (!live) return;
      }
      timer = setTimeout(() => void poll(), EXPORT_POLL_MS);
    };
    void poll();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [jobId]);

  if (state.status === 'failed') return <Alert severity="error" onClose={onClose} role="status">{text.exportFailed}</Alert>;
  if (state.status === 'sent') return <Alert severity="success" onClose={onClose} role="status">{format(text.exportSent, { email, rows: state.rows })}</Alert>;
  return (
    <Alert severity="info" role="status" sx={{ '& .MuiAlert-message': { flex: 1 } }}>
      {format(text.exportRunning, { rows: state.rows })}
      <LinearProgress sx={{ mt: 1 }} aria-label={text.exportTitle} />
    </Alert>
  );
}
