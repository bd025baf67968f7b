import { useCallback, useState, type ReactNode } from 'react';
import type { Severity } from '../ConsoleContext';
import { lazyNamed } from './lazyNamed';
import { useOpenedOnce } from './LazyOverlay';
import { LazyPart } from './LazyPart';
import type { ConsoleToast } from './ToastSnackbar';

// In the app the engine passes its own toasts (`notify`) and this one never shows: its
// Snackbar loads with its first toast, not with the console's first screen (tests/bench B10b).
const ToastSnackbar = lazyNamed(() => import('./ToastSnackbar'), 'ToastSnackbar');

/** The console's own snackbar (3000 ms, seed 001 §9) for when the engine passes no `notify`. */
export function Toaster({ children }: { children: (notify: (message: string, severity?: Severity) => void) => ReactNode }) {
  const [toast, setToast] = useState<ConsoleToast | null>(null);
  // Once shown, the snackbar stays mounted for its closing transition.
  const shown = useOpenedOnce(toast !== null);
  const notify = useCallback((message: string, severity: Severity = 'info') => setToast({ message, severity, key: Date.now() }), []);
  return (
    <>
      {children(notify)}
      {shown && (
        <LazyPart>
          <ToastSnackbar toast={toast} onClose={() => setToast(null)} />
        </LazyPart>
      )}
    </>
  );
}
