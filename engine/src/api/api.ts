import { publicMessages as messages } from '@atendimento/schemas';
import { showToast } from '../ui/toast';
import { session } from './session';

/** Request timeout of the API client (seed 000 §7 and §9: 600000 ms). */
const API_TIMEOUT_MS = 600_000;

/** A non-2xx answer: `message` is the server's pt-BR `errorMessage` (or its `error` code). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly body: unknown;
  readonly fields: { field: string; message: string }[];

  constructor(status: number, body: unknown, fallback: string) {
    const payload = (body && typeof body === 'object' ? body : {}) as { error?: unknown; errorMessage?: unknown; fields?: unknown };
    const message =
      typeof payload.errorMessage === 'string' && payload.errorMessage
        ? payload.errorMessage
        : typeof payload.error === 'string' && payload.error
          ? payload.error
          : fallback;
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = typeof payload.error === 'string' ? payload.error : undefined;
    this.body = body;
    this.fields = Array.isArray(payload.fields) ? (payload.fields as { field: string; message: string }[]) : [];
  }
}

export interface ApiOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** JSON-encoded unless it is already a string/FormData/Blob. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Toast the error (default true); callers that show the error themselves pass false. */
  notify?: boolean;
  /** Send the bearer token (default true). */
  auth?: boolean;
  signal?: AbortSignal;
}

function encodeBody(body: unknown, headers: Headers): BodyInit | undefined {
  if (body === undefined) return undefined;
  if (typeof body === 'string' || body instanceof FormData || body instanceof Blob || body instanceof URLSearchParams) return body;
  headers.set('Content-Type', 'application/json');
  return JSON.stringify(body);
}

async function send(path: string, options: ApiOptions, token: string | null): Promise<Response> {
  const headers = new Headers(options.headers);
  headers.set('Accept', 'application/json');
  // The seed's marker header: tells the server the call comes from the app (not an integration).
  headers.set('front-request', 'true');
  if (token && options.auth !== false) headers.set('Authorization', `Bearer ${token}`);
  const timeout = AbortSignal.timeout(API_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  return fetch(path, { method: options.method ?? 'GET', headers, body: encodeBody(options.body, headers), credentials: 'same-origin', signal });
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return null;
  const type = response.headers.get('Content-Type') ?? '';
  if (type.includes('json')) return response.json().catch(() => null);
  return response.text().catch(() => null);
}

/**
 * Calls the API (seed 000 §7): bearer token, a 401 refreshes the token once and retries, other
 * errors toast `errorMessage`/`error` unless `notify: false`. Resolves with the parsed body and
 * the response (for headers such as Content-Range); rejects with ApiError.
 * @example const { body } = await apiRequest<{ data: User }>('/api/auth/me');
 */
export async function apiRequest<T = unknown>(path: string, options: ApiOptions = {}): Promise<{ body: T; response: Response }> {
  const notify = options.notify !== false;
  try {
    let response = await send(path, options, session.token);
    if (response.status === 401 && options.auth !== false && !path.startsWith('/api/auth/')) {
      if (await session.refresh()) response = await send(path, options, session.token);
      else if (session.user) session.clear();
    }
    const body = await readBody(response);
    if (!response.ok) throw new ApiError(response.status, body, `${messages.errors.internal} (${response.status})`);
    return { body: body as T, response };
  } catch (error) {
    const failure =
      error instanceof ApiError
        ? error
        : (error as Error)?.name === 'AbortError' && options.signal?.aborted
          ? error
          : new ApiError(0, null, messages.tenant.unreachable);
    if (notify && failure instanceof ApiError) showToast(failure.message, 'error');
    throw failure;
  }
}

/** `apiRequest` returning only the body. */
export async function api<T = unknown>(path: string, options: ApiOptions = {}): Promise<T> {
  return (await apiRequest<T>(path, options)).body;
}

/**
 * A `fetch` for same-origin /api calls with the bearer token and the 401 refresh-and-retry,
 * answering the raw Response (no toast): what the console's `api.fetch` seam expects.
 */
export async function authedFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const call = () => {
    const headers = new Headers(init.headers);
    headers.set('front-request', 'true');
    if (session.token) headers.set('Authorization', `Bearer ${session.token}`);
    return fetch(path, { ...init, headers, credentials: 'same-origin' });
  };
  const response = await call();
  if (response.status !== 401 || !session.token) return response;
  if (await session.refresh()) return call();
  session.clear();
  return response;
}
