import { useCallback, useState, type ReactNode } from 'react';
import { Alert, Snackbar } from '@mui/material';
import type { Severity } from '../ConsoleContext';
import { LIMITS } from './constants';

/** The console's own snackbar (3000 ms, seed 001 §9) for when the engine passes no `notify`. */
export function Toaster({ children }: { children: (notify: (message: string, severity?: Severity) => void) => ReactNode }) {
  const [toast, setToast] = useState<{ message: string; severity: Severity; key: number } | null>(null);
  const notify = useCallback((message: string, severity: Severity = 'info') => setToast({ message, severity, key: Date.now() }), []);
  return (
    <>
      {children(notify)}
      <Snackbar key={toast?.key} open={Boolean(toast)} autoHideDuration={LIMITS.snackbarMs} onClose={() => setToast(null)} anchorOrigin={{ vertical: 'top', horizontal: 'right' }}>
        {toast ? <Alert severity={toast.severity} variant="filled" onClose={() => setToast(null)}>{toast.message}</Alert> : undefined}
      </Snackbar>
    </>
  );
}
