/** "Tenant T's change log reached seq N": the only thing processes tell each other. */
export interface ChangeNote {
  tenantId: string;
  seq: number;
}

/**
 * Carries change notes between server processes (docs/realtime.md). Every process, the
 * publisher included, receives every note; the payload stays tiny (ids only) because the
 * change log in the database is the source of truth.
 *
 * To add a bus: implement these calls (pg-bus.ts and redis-bus.ts are examples), then select
 * it in `createBus` (create-bus.ts) by config.bus.
 */
export interface ChangeBus {
  publish(note: ChangeNote): Promise<void>;
  subscribe(listener: (note: ChangeNote) => void): () => void;
  /**
   * Called after the bus's connection came back: notes sent meanwhile are lost, so the feed
   * re-reads the log of every tenant it delivers (optional: the memory bus never disconnects).
   */
  onReconnect?(listener: () => void): () => void;
  /** Whether notes can flow now (readiness, docs/production.md); absent means always (memory bus). */
  connected?(): boolean;
  close(): Promise<void>;
}

/** Encodes a note as the few bytes the network buses carry: "seq:tenantId". */
export function encodeNote(note: ChangeNote): string {
  return `${note.seq}:${note.tenantId}`;
}

/** Decodes a note; null for anything malformed (never trust the wire). */
export function decodeNote(payload: string): ChangeNote | null {
  const at = payload.indexOf(':');
  if (at <= 0) return null;
  const seq = Number(payload.slice(0, at));
  const tenantId = payload.slice(at + 1);
  if (!Number.isSafeInteger(seq) || seq < 0 || tenantId === '' || tenantId.length > 64) return null;
  return { tenantId, seq };
}

/** One process: notes go straight to this process's listeners. */
export function createMemoryBus(): ChangeBus {
  const listeners = new Set<(note: ChangeNote) => void>();
  return {
    async publish(note) {
      for (const listener of listeners) listener(note);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
    },
  };
}
