/**
 * The app's one toast queue (seed 000 §8 "Global toast": 5000 ms, dismissible, pause on hover,
 * position from the tenant configuration). Plain module state so the API client, react-admin's
 * notifications and any page can raise a toast without a React context.
 */
export type ToastSeverity = 'success' | 'info' | 'warning' | 'error';

export interface ToastOptions {
  /** A button in the toast (react-admin's 'Desfazer' for undoable edits). */
  action?: { label: string; onClick: () => void };
  /** Runs once when the toast goes away (timeout, close button or action). */
  onClose?: () => void;
  /** Overrides TOAST_DURATION_MS; null keeps it up until closed. */
  duration?: number | null;
}

export interface Toast extends ToastOptions {
  id: number;
  message: string;
  severity: ToastSeverity;
}

/** How long a toast stays up (seed: toast duration 5000 ms). */
export const TOAST_DURATION_MS = 5000;

type Listener = (toasts: readonly Toast[]) => void;

let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<Listener>();

function emit(): void {
  for (const listener of listeners) listener(toasts);
}

/** Shows a toast; identical messages already on screen are not stacked twice. */
export function showToast(message: string, severity: ToastSeverity = 'info', options: ToastOptions = {}): number {
  const existing = toasts.find((toast) => toast.message === message && toast.severity === severity && !toast.action);
  if (existing && !options.action && !options.onClose) return existing.id;
  const id = nextId++;
  const all = [...toasts, { id, message, severity, ...options }];
  // At most five on screen: the oldest ones close (and run their onClose).
  const dropped = all.slice(0, Math.max(0, all.length - 5));
  toasts = all.slice(-5);
  emit();
  for (const toast of dropped) toast.onClose?.();
  return id;
}

export function dismissToast(id: number): void {
  const gone = toasts.find((toast) => toast.id === id);
  if (!gone) return;
  toasts = toasts.filter((toast) => toast.id !== id);
  emit();
  gone.onClose?.();
}

export function currentToasts(): readonly Toast[] {
  return toasts;
}

export function subscribeToasts(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Removes every toast without running callbacks (stories and specs start clean). */
export function clearToasts(): void {
  toasts = [];
  emit();
}
