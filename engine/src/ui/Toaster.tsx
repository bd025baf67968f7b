import { useEffect, useRef, useSyncExternalStore } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { publicMessages as messages, type AppConfig } from '@atendimento/schemas';
import { TOAST_DURATION_MS, currentToasts, dismissToast, subscribeToasts, type Toast } from './toast';

export type ToastPosition = AppConfig['toastNotification']['position'];

const PLACEMENT: Record<ToastPosition, Record<string, string | number>> = {
  'top-right': { top: 16, right: 16, alignItems: 'flex-end' },
  'top-left': { top: 16, left: 16, alignItems: 'flex-start' },
  'top-center': { top: 16, left: '50%', transform: 'translateX(-50%)', alignItems: 'center' },
  'bottom-right': { bottom: 16, right: 16, alignItems: 'flex-end' },
  'bottom-left': { bottom: 16, left: 16, alignItems: 'flex-start' },
  'bottom-center': { bottom: 16, left: '50%', transform: 'translateX(-50%)', alignItems: 'center' },
};

/** One toast: closes itself after `duration` ms, the countdown paused while the pointer is over it. */
function ToastItem({ toast, duration }: { toast: Toast; duration: number }) {
  const remaining = useRef(toast.duration ?? duration);
  const startedAt = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const timeout = toast.duration === undefined ? duration : toast.duration;
  const start = () => {
    if (timeout === null) return;
    startedAt.current = Date.now();
    timer.current = setTimeout(() => dismissToast(toast.id), remaining.current);
  };
  const pause = () => {
    clearTimeout(timer.current);
    remaining.current = Math.max(0, remaining.current - (Date.now() - startedAt.current));
  };
  useEffect(() => {
    start();
    return () => clearTimeout(timer.current);
    // The countdown belongs to this toast only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [toast.id]);

  return (
    <Alert
      role="alert"
      variant="filled"
      severity={toast.severity}
      closeText={messages.shell.close}
      onClose={() => dismissToast(toast.id)}
      action={
        toast.action ? (
          <Button
            color="inherit"
            size="small"
            onClick={() => {
              toast.action!.onClick();
              dismissToast(toast.id);
            }}
          >
            {toast.action.label}
          </Button>
        ) : undefined
      }
      onMouseEnter={pause}
      onMouseLeave={start}
      sx={{ minWidth: 280, maxWidth: 420, boxShadow: 3, pointerEvents: 'auto' }}
    >
      {toast.message}
    </Alert>
  );
}

/** Renders the toast queue at the tenant's configured corner (default top-right). */
export function Toaster({ position = 'top-right', duration = TOAST_DURATION_MS }: { position?: ToastPosition; duration?: number }) {
  const toasts = useSyncExternalStore(subscribeToasts, currentToasts, currentToasts);
  if (toasts.length === 0) return null;
  return (
    <Box
      aria-live="polite"
      sx={{ position: 'fixed', zIndex: 2000, display: 'flex', flexDirection: 'column', gap: 1, pointerEvents: 'none', ...(PLACEMENT[position] ?? PLACEMENT['top-right']) }}
    >
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} duration={duration} />
      ))}
    </Box>
  );
}
