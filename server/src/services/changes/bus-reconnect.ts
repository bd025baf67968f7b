import { decodeNote, type ChangeBus, type ChangeNote } from './change-bus';

/**
 * What the network buses (pg-bus.ts, redis-bus.ts) share: their listeners, the notes and
 * reconnects they hand them, and the back-off between reconnect attempts.
 */
export function createBusListeners(): Pick<ChangeBus, 'subscribe'> & Required<Pick<ChangeBus, 'onReconnect'>> & {
  /** A payload off the wire: decoded (malformed ones dropped) and handed to every listener. */
  deliver(payload: string): void;
  /** The connection came back: listeners re-read the log (notes sent meanwhile are lost). */
  reconnected(): void;
  clear(): void;
} {
  const listeners = new Set<(note: ChangeNote) => void>();
  const reconnectListeners = new Set<() => void>();
  return {
    deliver(payload) {
      const note = decodeNote(payload);
      if (note) for (const l of listeners) l(note);
    },
    reconnected() {
      for (const l of reconnectListeners) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onReconnect(listener) {
      reconnectListeners.add(listener);
      return () => reconnectListeners.delete(listener);
    },
    clear() {
      listeners.clear();
      reconnectListeners.clear();
    },
  };
}

/** Delay before reconnect attempt `attempt` (0-based): `baseMs` doubling, at most 10 s. */
export function reconnectDelay(attempt: number, baseMs: number): number {
  return Math.min(10_000, baseMs * 2 ** Math.min(attempt, 16));
}
