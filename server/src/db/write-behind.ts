import type { Transaction } from './knex';

/**
 * Writes a transaction holds back and sends together (docs/ingest.md "Write-behind"). A group
 * commit's optimistic run turns it on for its transaction; a repository then queues a write of a
 * batchable kind (a customer's message into its open room) instead of running it, and the queue
 * is written in one statement per kind just before the transaction's next statement of any
 * kind, or when the group ends. So nothing reads around a queued write: whatever runs a
 * statement in the transaction (routing, campaigns, the change log, COMMIT) sees it written.
 *
 * A failed flush fails the group's optimistic run (its statement throws), which runs the group
 * again with a savepoint per job and write-behind off, so a failing write fails only its own
 * job. After a failed flush every later statement of the transaction throws the same error,
 * COMMIT included: on PostgreSQL a COMMIT of an aborted transaction answers ROLLBACK without an
 * error, and a caller that swallowed the flush's error must not take that for a commit.
 */

/** Writes of one kind: given every queued entry, writes them (one statement, ideally). */
export type FlushWrites<E> = (trx: Transaction, entries: E[]) => Promise<void>;

interface State {
  queued: Map<FlushWrites<unknown>, unknown[]>;
  failed: unknown;
}

const states = new WeakMap<Transaction, State>();

type QueryFn = (connection: unknown, obj: unknown) => Promise<unknown>;

/**
 * Turns write-behind on for `trx` (change-feed's optimistic group run). Every statement knex
 * runs in it, COMMIT included, first writes what is queued; `prepared` statements ask
 * `flushWrites` themselves (they run on the connection directly).
 */
export function enableWriteBehind(trx: Transaction): void {
  if (states.has(trx)) return;
  const state: State = { queued: new Map(), failed: undefined };
  states.set(trx, state);
  const client = trx.client as unknown as { query: QueryFn };
  const query = client.query;
  client.query = async function queryAfterQueuedWrites(this: unknown, connection: unknown, obj: unknown) {
    // Knex sends its own BEGIN, COMMIT and ROLLBACK as strings; every other statement as an object.
    const control = typeof obj === 'string' ? obj.trimStart().slice(0, 8).toLowerCase() : '';
    if (control.startsWith('rollback')) {
      state.queued.clear();
      return query.call(this, connection, obj);
    }
    try {
      if (writesWaiting(trx)) await flushWrites(trx);
    } catch (error) {
      // The transaction is aborted: a COMMIT becomes the ROLLBACK it would silently be, and fails.
      // Knex's own wrapper already counts the transaction completed, so its client's plain query sends it.
      if (control.startsWith('commit')) await (Object.getPrototypeOf(client) as { query: QueryFn }).query.call(this, connection, 'ROLLBACK;');
      throw error;
    }
    return query.call(this, connection, obj);
  };
}

/**
 * Queues `entry` for `flush` when write-behind is on for `trx`; false when it is not (the
 * caller writes now, as always).
 */
export function writeBehind<E>(trx: Transaction, flush: FlushWrites<E>, entry: E): boolean {
  const state = states.get(trx);
  if (!state || state.failed !== undefined) return false;
  const list = state.queued.get(flush as FlushWrites<unknown>);
  if (list) list.push(entry);
  else state.queued.set(flush as FlushWrites<unknown>, [entry]);
  return true;
}

/** Whether `trx` has queued writes (or a failed flush) a statement must first settle: checked without a promise. */
export function writesWaiting(trx: Transaction): boolean {
  const state = states.get(trx);
  return state !== undefined && (state.queued.size > 0 || state.failed !== undefined);
}

/** Writes what `trx` queued (nothing when write-behind is off or nothing waits). */
export async function flushWrites(trx: Transaction): Promise<void> {
  const state = states.get(trx);
  if (!state) return;
  if (state.failed !== undefined) throw state.failed;
  while (state.queued.size) {
    // Taken out first: the flush's own statements pass through the hook with nothing queued.
    const [flush, entries] = state.queued.entries().next().value!;
    state.queued.delete(flush);
    try {
      await flush(trx, entries);
    } catch (error) {
      state.failed = error;
      state.queued.clear();
      throw error;
    }
  }
}
