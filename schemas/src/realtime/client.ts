import { LiveSet } from './live-set';
import {
  CLOSE_CODES,
  FATAL_CLOSE_CODES,
  REALTIME_EVENTS,
  type ChangesFrame,
  type ClientFrame,
  type ErrorFrame,
  type LiveQueryInput,
  type LiveRecordData,
  type ReadyFrame,
  type ServerFrame,
  type SnapshotFrame,
} from './protocol';

/** The part of the WebSocket API the client uses: the browser's and `ws`'s both fit. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export type WebSocketConstructor = new (url: string) => WebSocketLike;

export interface RealtimeClientOptions {
  /** ws:// or wss:// URL of `/ws`. */
  url: string;
  /** `globalThis.WebSocket` in browsers; tests pass `ws`. */
  WebSocket: WebSocketConstructor;
  /** The current access token (refreshing it when needed). Null: not signed in, stay closed. */
  getToken(): string | null | Promise<string | null>;
  /** Reconnect delay: full jitter over min(maxMs, initialMs * 2^attempt). */
  backoff?: { initialMs?: number; maxMs?: number };
  /** Random source for the jitter (tests make it deterministic). */
  random?: () => number;
  /** Application ping interval; a pong must arrive within pongTimeoutMs or the socket is dropped. */
  pingIntervalMs?: number;
  pongTimeoutMs?: number;
  /** A socket not open after this long is given up and retried (a SYN lost after a network change). */
  connectTimeoutMs?: number;
}

export type ClientState = 'idle' | 'connecting' | 'authenticating' | 'ready' | 'waiting' | 'failed' | 'closed';

/** What a subscription listener receives after each frame. */
export type SubscriptionUpdate<T extends LiveRecordData> =
  | { kind: 'snapshot'; frame: SnapshotFrame; records: T[] }
  | { kind: 'changes'; frame: ChangesFrame; records: T[] }
  | { kind: 'error'; frame: ErrorFrame; records: T[] };

/** One live query: its records follow the server; it resumes by itself after reconnects. */
export interface LiveSubscription<T extends LiveRecordData = LiveRecordData> {
  readonly id: string;
  readonly collection: string;
  readonly query: LiveQueryInput;
  /** The records in the server's order. */
  readonly records: T[];
  readonly set: LiveSet<T>;
  /** 'loading' until the first snapshot, 'live' after, 'error' when refused. */
  readonly state: 'loading' | 'live' | 'error';
  readonly error: ErrorFrame | null;
  /** Called after every snapshot / changes / error of this subscription. */
  onUpdate(listener: (update: SubscriptionUpdate<T>) => void): () => void;
  close(): void;
}

type Listener = (payload: unknown) => void;

/**
 * The typed realtime client (docs/realtime.md): one socket, authenticated by a first `auth`
 * frame; reconnects with jittered exponential backoff, or after the server's `goingAway` hint
 * when it shuts down; resubscribes every live query with its cursor and ids so the server
 * replays only what was missed.
 * @example
 * const client = createRealtimeClient({ url: 'wss://acme.example/ws', WebSocket, getToken: () => session.token });
 * const tags = client.subscribe('tags', { orderBy: [{ field: 'name', direction: 'asc' }], limit: 50 });
 * tags.onUpdate(() => render(tags.records));
 */
export function createRealtimeClient(options: RealtimeClientOptions) {
  const initialMs = options.backoff?.initialMs ?? 500;
  const maxMs = options.backoff?.maxMs ?? 30_000;
  const random = options.random ?? Math.random;
  const pingIntervalMs = options.pingIntervalMs ?? 25_000;
  const pongTimeoutMs = options.pongTimeoutMs ?? 10_000;
  const connectTimeoutMs = options.connectTimeoutMs ?? 15_000;

  let socket: WebSocketLike | null = null;
  let state: ClientState = 'idle';
  let attempt = 0;
  let token: string | null = null;
  let reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  let pingTimer: ReturnType<typeof setInterval> | null = null;
  let connectTimer: ReturnType<typeof setTimeout> | null = null;
  let lastFrameAt = 0;
  /** The server's `goingAway.retryInMs` for the socket it is about to close (graceful stop). */
  let retryHintMs: number | null = null;
  let nextId = 1;
  const subs = new Map<string, SubscriptionImpl<LiveRecordData>>();
  const listeners = new Map<string, Set<Listener>>();

  function emit(event: string, payload: unknown): void {
    for (const l of listeners.get(event) ?? []) l(payload);
  }

  function send(frame: ClientFrame): void {
    if (socket && socket.readyState === 1) socket.send(JSON.stringify(frame));
  }

  function setState(next: ClientState): void {
    state = next;
  }

  function stopTimers(): void {
    if (pingTimer) clearInterval(pingTimer);
    pingTimer = null;
    if (connectTimer) clearTimeout(connectTimer);
    connectTimer = null;
    if (reconnectTimer) clearTimeout(reconnectTimer);
    reconnectTimer = null;
  }

  function detach(ws: WebSocketLike): void {
    ws.onopen = ws.onmessage = ws.onclose = null;
    // Keep a no-op: closing a socket that is still connecting reports an error afterwards.
    ws.onerror = () => {};
  }

  async function open(): Promise<void> {
    reconnectTimer = null;
    if (state === 'closed' || state === 'failed') return;
    setState('connecting');
    try {
      token = await options.getToken();
    } catch {
      // Refreshing the token needs the network that may just be coming back: retry later
      // instead of staying 'connecting' forever.
      if (state === 'connecting') schedule();
      return;
    }
    if (state !== 'connecting') return;
    if (!token) {
      setState('idle');
      return;
    }
    const ws = new options.WebSocket(options.url);
    socket = ws;
    retryHintMs = null;
    connectTimer = setTimeout(() => drop(ws, 4008, 'sem resposta'), connectTimeoutMs);
    ws.onopen = () => {
      if (connectTimer) clearTimeout(connectTimer);
      connectTimer = null;
      setState('authenticating');
      lastFrameAt = Date.now();
      send({ type: 'auth', token: token! });
      pingTimer = setInterval(() => {
        if (Date.now() - lastFrameAt > pingIntervalMs + pongTimeoutMs) {
          // No frame, not even a pong, for too long: the peer is gone (laptop slept, NAT dropped).
          drop(ws, 4008, 'sem resposta');
          return;
        }
        send({ type: 'ping', t: Date.now() });
      }, pingIntervalMs);
    };
    ws.onmessage = (event) => {
      lastFrameAt = Date.now();
      let frame: ServerFrame;
      try {
        frame = JSON.parse(String(event.data)) as ServerFrame;
      } catch {
        return;
      }
      onFrame(frame);
    };
    ws.onclose = (event) => drop(ws, event.code, event.reason);
    ws.onerror = () => {
      // onclose follows with the code; nothing to do here.
    };
  }

  function drop(ws: WebSocketLike, code: number, reason: string): void {
    if (socket !== ws) return;
    detach(ws);
    socket = null;
    if (pingTimer) clearInterval(pingTimer);
    pingTimer = null;
    if (connectTimer) clearTimeout(connectTimer);
    connectTimer = null;
    try {
      if (ws.readyState < 2) ws.close();
    } catch {
      // already closing
    }
    emit(REALTIME_EVENTS.closed, { code, reason });
    if (state === 'closed') return;
    if (FATAL_CLOSE_CODES.includes(code)) {
      setState('failed');
      emit(REALTIME_EVENTS.failed, { code, reason });
      return;
    }
    // A server going away said when to come back (its own jitter): that replaces the backoff.
    const hint = retryHintMs;
    retryHintMs = null;
    schedule(code === CLOSE_CODES.tokenExpired ? 0 : (hint ?? undefined));
  }

  function schedule(delayMs?: number): void {
    setState('waiting');
    const ceiling = Math.min(maxMs, initialMs * 2 ** attempt);
    attempt = Math.min(attempt + 1, 30);
    // Full jitter: a thousand tabs dropped by one restart come back spread over the window.
    const delay = delayMs ?? Math.floor(random() * ceiling);
    reconnectTimer = setTimeout(() => void open(), delay);
  }

  function onFrame(frame: ServerFrame): void {
    switch (frame.type) {
      case 'ready':
        if (state !== 'ready') {
          setState('ready');
          attempt = 0;
          for (const sub of subs.values()) sub.sendSubscribe();
        }
        emit(REALTIME_EVENTS.ready, frame satisfies ReadyFrame);
        return;
      case 'auth.expiring':
        void reauthenticate();
        return;
      case 'snapshot':
        subs.get(frame.id)?.onSnapshot(frame);
        return;
      case 'changes':
        subs.get(frame.id)?.onChanges(frame);
        return;
      case 'error':
        if (frame.id) subs.get(frame.id)?.onError(frame);
        return;
      case 'pong':
        return;
      case 'goingAway':
        if (Number.isFinite(frame.retryInMs)) retryHintMs = Math.min(maxMs, Math.max(0, Math.floor(frame.retryInMs)));
        return;
    }
  }

  /** Sends the current token again (after the app refreshed it); the server re-checks it. */
  async function reauthenticate(): Promise<void> {
    const next = await options.getToken();
    if (!next) return;
    token = next;
    if (state === 'ready' || state === 'authenticating') send({ type: 'auth', token: next });
  }

  class SubscriptionImpl<T extends LiveRecordData> implements LiveSubscription<T> {
    readonly set = new LiveSet<T>();
    state: 'loading' | 'live' | 'error' = 'loading';
    error: ErrorFrame | null = null;
    private readonly updateListeners = new Set<(update: SubscriptionUpdate<T>) => void>();

    constructor(
      readonly id: string,
      readonly collection: string,
      readonly query: LiveQueryInput,
      from?: LiveSubscription<T>,
    ) {
      // Starts holding what `from` holds, so its first subscribe is a resume (see subscribe()).
      if (from instanceof SubscriptionImpl && from.state === 'live' && from.set.cursor !== null) {
        this.set.adopt(from.set);
        this.state = 'live';
      }
    }

    get records(): T[] {
      return this.set.list();
    }

    sendSubscribe(): void {
      const resume = this.set.cursor !== null && this.state === 'live';
      send({
        type: 'subscribe',
        id: this.id,
        collection: this.collection,
        query: this.query,
        ...(resume && { cursor: this.set.cursor!, ids: this.set.ids() }),
        // A full window may have more past it: the server tops it up to the query's limit.
        ...(resume && this.set.size >= this.set.limit && { full: true }),
      });
    }

    onSnapshot(frame: SnapshotFrame): void {
      this.set.applySnapshot(frame);
      this.state = 'live';
      this.error = null;
      this.notify({ kind: 'snapshot', frame, records: this.records });
      emit(REALTIME_EVENTS.snapshot, { subscription: this, frame });
    }

    onChanges(frame: ChangesFrame): void {
      // A late frame for a cursor we already passed (cannot happen on one socket; cheap guard).
      if (this.set.cursor !== null && frame.cursor < this.set.cursor) return;
      this.set.applyChanges(frame);
      this.notify({ kind: 'changes', frame, records: this.records });
      emit(REALTIME_EVENTS.changes, { subscription: this, frame });
    }

    onError(frame: ErrorFrame): void {
      this.state = 'error';
      this.error = frame;
      this.notify({ kind: 'error', frame, records: this.records });
      emit(REALTIME_EVENTS.error, { subscription: this, frame });
    }

    onUpdate(listener: (update: SubscriptionUpdate<T>) => void): () => void {
      this.updateListeners.add(listener);
      return () => this.updateListeners.delete(listener);
    }

    private notify(update: SubscriptionUpdate<T>): void {
      for (const l of this.updateListeners) l(update);
    }

    close(): void {
      if (!subs.delete(this.id)) return;
      if (state === 'ready') send({ type: 'unsubscribe', id: this.id });
      this.updateListeners.clear();
    }
  }

  return {
    get state(): ClientState {
      return state;
    },

    /** Opens the socket (again, after a fatal close and a new sign-in). */
    connect(): void {
      if (state === 'connecting' || state === 'authenticating' || state === 'ready') return;
      stopTimers();
      attempt = 0;
      setState('idle');
      void open();
    },

    /**
     * Starts a live query; it survives reconnects until `close()`. `options.from`: a live
     * subscription of the same collection whose records this one starts with (a list raising its
     * limit as the user scrolls): the server is asked to resume from them and sends only the
     * records past them, not a snapshot of the whole larger window.
     */
    subscribe<T extends LiveRecordData = LiveRecordData>(collection: string, query: LiveQueryInput = {}, options: { from?: LiveSubscription<T> } = {}): LiveSubscription<T> {
      const from = options.from?.collection === collection ? options.from : undefined;
      const sub = new SubscriptionImpl<T>(`s${nextId++}`, collection, query, from);
      subs.set(sub.id, sub as unknown as SubscriptionImpl<LiveRecordData>);
      if (state === 'ready') sub.sendSubscribe();
      return sub;
    },

    reauthenticate,

    /** Listens to `session.*` and `subscription.*` events (REALTIME_EVENTS). */
    on(event: string, listener: Listener): () => void {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      return () => set!.delete(listener);
    },

    /** Drops the socket now (tests, network change); the client reconnects and resumes. */
    reconnect(): void {
      if (socket) drop(socket, 4999, 'reconectando');
      else if (state === 'waiting' && reconnectTimer) {
        clearTimeout(reconnectTimer);
        void open();
      }
    },

    /** Closes for good (sign-out): no reconnect, subscriptions forgotten. */
    close(): void {
      setState('closed');
      stopTimers();
      const ws = socket;
      socket = null;
      if (ws) {
        detach(ws);
        ws.close(1000, 'logout');
      }
      subs.clear();
    },
  };
}

export type RealtimeClient = ReturnType<typeof createRealtimeClient>;
