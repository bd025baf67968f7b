import type { Filter, OrderBy } from '../query';

/**
 * The realtime protocol on `/ws` (docs/realtime.md): JSON text frames, one authenticated socket
 * per browser tab, many subscriptions on it. Frame `type`s are short verbs; the events the
 * client emits to its users are named `domain.event` (REALTIME_EVENTS).
 */

/** What a client may ask of a collection. Collections validate it and AND their own scope. */
export interface LiveQueryInput {
  filter?: Filter | null;
  orderBy?: OrderBy[];
  limit?: number;
  [option: string]: unknown;
}

/** A record as subscriptions carry it: API-shaped, always with an id. */
export type LiveRecordData = { id: string; [key: string]: unknown };

// ---- client → server -------------------------------------------------------------------

/** First frame after opening (within AUTH_TIMEOUT_MS), and again after each token refresh. */
export interface AuthFrame {
  type: 'auth';
  token: string;
}

/**
 * Starts (or replaces) subscription `id`. With `cursor` and `ids` (what the client holds) the
 * server replays exactly the changes after `cursor`, or sends a fresh snapshot when its log no
 * longer covers the gap. `full`: those ids were a full window (more records may follow them),
 * so the server tops the window up to the query's limit after the replay — how a list grows
 * its window without receiving again what it holds (docs/realtime.md "Resume").
 */
export interface SubscribeFrame {
  type: 'subscribe';
  id: string;
  collection: string;
  query?: LiveQueryInput;
  cursor?: number;
  ids?: string[];
  full?: boolean;
}

export interface UnsubscribeFrame {
  type: 'unsubscribe';
  id: string;
}

/** Application-level ping: browsers cannot see protocol pings, so clients detect dead servers with this. */
export interface PingFrame {
  type: 'ping';
  t?: number;
}

export type ClientFrame = AuthFrame | SubscribeFrame | UnsubscribeFrame | PingFrame;

// ---- server → client -------------------------------------------------------------------

/** Authentication accepted (first auth or a refresh). */
export interface ReadyFrame {
  type: 'ready';
  /** The signed-in user's id, or null for an anonymous visitor. */
  userId: string | null;
  /** The anonymous visitor's room, if any. */
  roomId: string | null;
  /** When the token expires (ISO): send a fresh `auth` before that. */
  expiresAt: string;
}

/** Sent once, about a minute before the token expires: the client should re-authenticate. */
export interface AuthExpiringFrame {
  type: 'auth.expiring';
  expiresAt: string;
}

/** The whole current window of a subscription: replaces whatever the client held. */
export interface SnapshotFrame {
  type: 'snapshot';
  id: string;
  records: LiveRecordData[];
  /** The tenant's change seq this snapshot reflects. */
  cursor: number;
  /** The server's order and limit (after the collection applied its rules). */
  orderBy: OrderBy[];
  limit: number;
}

/**
 * Changes relative to what the subscription holds. `resumed` marks the first frame after a
 * resume (possibly empty): the client keeps its records and applies the frame.
 */
export interface ChangesFrame {
  type: 'changes';
  id: string;
  added: LiveRecordData[];
  modified: LiveRecordData[];
  removed: string[];
  cursor: number;
  resumed?: boolean;
}

/** A subscription (id) or the connection (no id) could not do what was asked. */
export interface ErrorFrame {
  type: 'error';
  id?: string;
  error: string;
  errorMessage: string;
}

export interface PongFrame {
  type: 'pong';
  t?: number;
}

/**
 * Sent just before the server closes with 1001 (graceful stop): reconnect after `retryInMs`
 * (jittered per socket by the server, so a fleet of clients does not come back in one instant)
 * instead of the client's own backoff. Another process behind the proxy takes the socket.
 */
export interface GoingAwayFrame {
  type: 'goingAway';
  retryInMs: number;
}

export type ServerFrame = ReadyFrame | AuthExpiringFrame | SnapshotFrame | ChangesFrame | ErrorFrame | PongFrame | GoingAwayFrame;

// ---- close codes -----------------------------------------------------------------------

/**
 * Close codes of `/ws` (4000-4999 are free for applications). The reason is a pt-BR text from
 * messages.realtime / messages.auth / messages.tenant. `reconnect` says what the client does.
 */
export const CLOSE_CODES = {
  /** Frame is not JSON or not a known frame. Reconnect. */
  protocolError: 4000,
  /** No `auth` frame within the time limit. Reconnect. */
  authTimeout: 4001,
  /** Token invalid, of another tenant, or session revoked. Do not reconnect with it: sign in again. */
  unauthorized: 4401,
  /** User disabled or tenant inactive ('Acesso Desabilitado.'). Do not reconnect. */
  forbidden: 4403,
  /** No tenant for this host. Do not reconnect. */
  tenantNotFound: 4404,
  /** The access token expired without a refresh. Get a fresh token, then reconnect. */
  tokenExpired: 4419,
  /**
   * Reserved for "read too slowly". The hub does not send it: a slow consumer's buffer is full,
   * so a close frame would wait behind it; the TCP connection is cut instead (clients see 1006),
   * and the client reconnects and resumes.
   */
  slowConsumer: 4429,
  /**
   * The server is shutting down (1001 Going Away), after a `goingAway { retryInMs }` frame.
   * Reconnect elsewhere after the hinted delay.
   */
  goingAway: 1001,
} as const;

export type CloseCode = (typeof CLOSE_CODES)[keyof typeof CLOSE_CODES];

/** Close codes after which reconnecting with the same token cannot succeed. */
export const FATAL_CLOSE_CODES: readonly number[] = [CLOSE_CODES.unauthorized, CLOSE_CODES.forbidden, CLOSE_CODES.tenantNotFound];

// ---- events the typed client emits (`domain.event`) -------------------------------------

export const REALTIME_EVENTS = {
  /** The socket is open and authenticated (after every reconnect too). */
  ready: 'session.ready',
  /** The socket closed; the client reconnects unless the code is fatal. */
  closed: 'session.closed',
  /** The client gave up: fatal close code (sign in again, tenant disabled...). */
  failed: 'session.failed',
  /** A subscription received a snapshot (first load, or a gap too old to replay). */
  snapshot: 'subscription.snapshot',
  /** A subscription received added / modified / removed records. */
  changes: 'subscription.changes',
  /** A subscription was refused (403, bad query, unknown collection). */
  error: 'subscription.error',
} as const;

export type RealtimeEventName = (typeof REALTIME_EVENTS)[keyof typeof REALTIME_EVENTS];

/** Limits the server enforces (the client stays under them). */
export const REALTIME_LIMITS = {
  /** Milliseconds the server waits for the first `auth` frame. */
  authTimeoutMs: 5_000,
  /** Largest frame a client may send. */
  maxFrameBytes: 64 * 1024,
  /** Subscriptions per socket. */
  maxSubscriptions: 64,
  /** Ids a resuming subscription may claim to hold. */
  maxResumeIds: 1_000,
} as const;

/** Parses and checks a frame from a client; null when it is not a valid frame. */
export function parseClientFrame(text: string): ClientFrame | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const frame = value as Record<string, unknown>;
  const isId = (v: unknown) => typeof v === 'string' && v.length > 0 && v.length <= 100;
  switch (frame.type) {
    case 'auth':
      return typeof frame.token === 'string' && frame.token.length > 0 && frame.token.length < 8192 ? (frame as unknown as AuthFrame) : null;
    case 'subscribe': {
      if (!isId(frame.id) || !isId(frame.collection)) return null;
      if (frame.query !== undefined && (frame.query === null || typeof frame.query !== 'object' || Array.isArray(frame.query))) return null;
      if (frame.cursor !== undefined && !(Number.isInteger(frame.cursor) && (frame.cursor as number) >= 0)) return null;
      if (frame.ids !== undefined && !(Array.isArray(frame.ids) && frame.ids.every((i) => typeof i === 'string' && i.length <= 200))) return null;
      if (frame.full !== undefined && typeof frame.full !== 'boolean') return null;
      return frame as unknown as SubscribeFrame;
    }
    case 'unsubscribe':
      return isId(frame.id) ? (frame as unknown as UnsubscribeFrame) : null;
    case 'ping':
      return { type: 'ping', ...(typeof frame.t === 'number' && { t: frame.t }) };
    default:
      return null;
  }
}
