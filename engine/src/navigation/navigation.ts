/**
 * The app's location and history (docs/engine.md "Navigation"): one small store over
 * `window.history` (or an in-memory stack for stories and specs). The shell, the chrome and
 * the console read it directly, so the first screen does not load react-router (~30 kB gzip,
 * tests/bench B10b); react-admin's screens get it through `RouterBridge`, so both always see
 * the same location.
 */
export interface AppLocation {
  pathname: string;
  search: string;
  hash: string;
  /** What the navigation that led here carried (a record to copy into a create form...). */
  state: unknown;
  /** Distinguishes two visits of the same path (react-router's location key). */
  key: string;
}

export type NavigationAction = 'POP' | 'PUSH' | 'REPLACE';

export interface Navigation {
  /** The current location: the same object until the location changes. */
  location(): AppLocation;
  /** How the current location was reached. */
  action(): NavigationAction;
  push(to: string, state?: unknown): void;
  replace(to: string, state?: unknown): void;
  go(delta: number): void;
  subscribe(listener: () => void): () => void;
}

/** `to` split into its parts; a path without a leading slash is taken from the root. */
export function splitPath(to: string): Pick<AppLocation, 'pathname' | 'search' | 'hash'> {
  let rest = to;
  let hash = '';
  let search = '';
  const hashAt = rest.indexOf('#');
  if (hashAt >= 0) {
    hash = rest.slice(hashAt);
    rest = rest.slice(0, hashAt);
  }
  const searchAt = rest.indexOf('?');
  if (searchAt >= 0) {
    search = rest.slice(searchAt);
    rest = rest.slice(0, searchAt);
  }
  const pathname = rest.startsWith('/') ? rest : `/${rest}`;
  return { pathname, search: search === '?' ? '' : search, hash: hash === '#' ? '' : hash };
}

/** The path of a location's parts (react-router's `createPath`). */
export function joinPath(parts: { pathname?: string; search?: string; hash?: string }): string {
  const search = parts.search && parts.search !== '?' ? (parts.search.startsWith('?') ? parts.search : `?${parts.search}`) : '';
  const hash = parts.hash && parts.hash !== '#' ? (parts.hash.startsWith('#') ? parts.hash : `#${parts.hash}`) : '';
  return `${parts.pathname || '/'}${search}${hash}`;
}

let keys = 0;
const nextKey = () => `k${(++keys).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A store of listeners shared by both kinds of navigation. */
function listeners() {
  const set = new Set<() => void>();
  return {
    subscribe(listener: () => void) {
      set.add(listener);
      return () => void set.delete(listener);
    },
    notify() {
      for (const listener of [...set]) listener();
    },
  };
}

/**
 * The browser's history. Entries carry `{ usr, key, idx }` like react-router's BrowserRouter
 * wrote, so a reload keeps a location's state; a `popstate` (back, forward, or a script that
 * pushed its own entry and dispatched one) re-reads the address bar.
 */
export function browserNavigation(win: Window = window): Navigation {
  const { subscribe, notify } = listeners();
  let action: NavigationAction = 'POP';
  let index = (win.history.state as { idx?: number } | null)?.idx ?? 0;
  const read = (): AppLocation => {
    const entry = win.history.state as { usr?: unknown; key?: string } | null;
    return { pathname: win.location.pathname, search: win.location.search, hash: win.location.hash, state: entry?.usr ?? null, key: entry?.key ?? 'default' };
  };
  let current = read();
  if (win.history.state == null) win.history.replaceState({ usr: null, key: current.key, idx: index }, '');
  win.addEventListener('popstate', () => {
    action = 'POP';
    index = (win.history.state as { idx?: number } | null)?.idx ?? index;
    current = read();
    notify();
  });
  const change = (kind: 'PUSH' | 'REPLACE', to: string, state: unknown) => {
    const key = nextKey();
    if (kind === 'PUSH') index += 1;
    const entry = { usr: state ?? null, key, idx: index };
    if (kind === 'PUSH') win.history.pushState(entry, '', to);
    else win.history.replaceState(entry, '', to);
    action = kind;
    current = read();
    notify();
  };
  return {
    location: () => current,
    action: () => action,
    push: (to, state) => change('PUSH', to, state),
    replace: (to, state) => change('REPLACE', to, state),
    go: (delta) => win.history.go(delta),
    subscribe,
  };
}

/** An in-memory history (stories and specs): `entries` are paths, the last one is current. */
export function memoryNavigation(entries: readonly string[] = ['/']): Navigation {
  const { subscribe, notify } = listeners();
  const stack: AppLocation[] = (entries.length ? entries : ['/']).map((to) => ({ ...splitPath(to), state: null, key: nextKey() }));
  let index = stack.length - 1;
  let action: NavigationAction = 'POP';
  const at = (to: string, state: unknown): AppLocation => ({ ...splitPath(to), state: state ?? null, key: nextKey() });
  return {
    location: () => stack[index]!,
    action: () => action,
    push(to, state) {
      stack.splice(index + 1, stack.length, at(to, state));
      index = stack.length - 1;
      action = 'PUSH';
      notify();
    },
    replace(to, state) {
      stack[index] = at(to, state);
      action = 'REPLACE';
      notify();
    },
    go(delta) {
      const next = Math.min(stack.length - 1, Math.max(0, index + delta));
      if (next === index) return;
      index = next;
      action = 'POP';
      notify();
    },
    subscribe,
  };
}
