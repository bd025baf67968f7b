import { Alert, Snackbar } from '@mui/material';
import type { Severity } from '../ConsoleContext';
import { LIMITS } from './constants';

export interface ConsoleToast {
  message: string;
  severity: Severity;
  key: number;
}

/** The console's snackbar (Toaster.tsx): its own chunk, loaded with the first toast. */
export function ToastSnackbar({ toast, onClose }: { toast: ConsoleToast | null; onClose: () => void }) {
  return (
    <Snackbar key={toast?.key} open={Boolean(toast)} autoHideDuration={LIMITS.snackbarMs} onClose={onClose} anchorOrigin={{ vertical: 'top', horizontal: 'right' }}>
      {toast ? <Alert severity={toast.severity} variant="filled" onClose={onClose}>{toast.message}</Alert> : undefined}
    </Snackbar>
  );
}
