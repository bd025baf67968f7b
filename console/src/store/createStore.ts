import { useSyncExternalStore } from 'react';

/** A tiny observable state container; components read it through `useStore` selectors. */
export interface Store<S> {
  get(): S;
  set(update: (state: S) => S): void;
  subscribe(listener: () => void): () => void;
}

/** Creates a store; updates that return the same object notify nobody. */
export function createStore<S>(initial: S): Store<S> {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    set(update) {
      const next = update(state);
      if (next === state) return;
      state = next;
      for (const l of [...listeners]) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Reads a slice of a store; the selector must return a stable value for unchanged state. */
export function useStore<S, T>(store: Store<S>, selector: (state: S) => T): T {
  return useSyncExternalStore(store.subscribe, () => selector(store.get()), () => selector(store.get()));
}
