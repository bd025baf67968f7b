import type { Filter, OrderBy } from '@atendimento/schemas';

/** A live query on one collection of the /ws hub (the realtime client's LiveQueryInput). */
export interface LiveQueryInput {
  filter?: Filter | null;
  orderBy?: OrderBy[];
  limit?: number;
  [option: string]: unknown;
}

export type LiveRecord = { id: string; [key: string]: unknown };

/** What a subscription reports after each frame: its records in the server's order. */
export interface LiveUpdate<T = LiveRecord> {
  kind: 'snapshot' | 'changes' | 'error';
  records: T[];
  frame: { added?: LiveRecord[]; modified?: LiveRecord[]; removed?: string[]; error?: string; errorMessage?: string; resumed?: boolean };
}

export interface LiveSubscriptionLike<T = LiveRecord> {
  readonly records: T[];
  readonly state: 'loading' | 'live' | 'error';
  onUpdate(listener: (update: LiveUpdate<T>) => void): () => void;
  close(): void;
}

/**
 * The part of the typed realtime client (schemas/src/realtime) the console uses: the
 * engine passes its client as is. Subscriptions resume by themselves after reconnects.
 */
export interface LiveSource {
  /**
   * `options.from`: a live subscription of the same collection this one starts from (a list
   * raising its limit): the server sends only what lies past its records. A source that does
   * not know it may ignore it and send a snapshot.
   */
  subscribe(collection: string, query?: LiveQueryInput, options?: { from?: LiveSubscriptionLike }): LiveSubscriptionLike;
}
