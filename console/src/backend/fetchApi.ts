import type { ConsoleApi, ConsoleRequestOptions } from '../ConsoleContext';

/** An API error with the server's pt-BR message and status. */
class ConsoleApiError extends Error {
  constructor(readonly status: number, message: string, readonly code?: string, readonly fields: { field: string; message: string }[] = []) {
    super(message);
    this.name = 'ConsoleApiError';
  }
}

/**
 * A ConsoleApi over `fetch` with a fixed bearer token: the public chat page uses it with its
 * anonymous token (the signed-in console gets the engine's client instead).
 */
export function createFetchApi(getToken: () => string | null, fetchImpl: typeof fetch = (...a) => fetch(...a)): ConsoleApi {
  return {
    async request<T>(path: string, options: ConsoleRequestOptions = {}) {
      const headers = new Headers(options.headers);
      headers.set('Accept', 'application/json');
      const token = getToken();
      if (token) headers.set('Authorization', `Bearer ${token}`);
      let body: BodyInit | undefined;
      if (options.body !== undefined) {
        if (typeof options.body === 'string' || options.body instanceof FormData || options.body instanceof Blob) body = options.body;
        else {
          headers.set('Content-Type', 'application/json');
          body = JSON.stringify(options.body);
        }
      }
      const res = await fetchImpl(path, { method: options.method ?? 'GET', headers, body, signal: options.signal, credentials: 'same-origin' });
      const text = await res.text();
      let parsed: unknown = null;
      try { parsed = text ? JSON.parse(text) : null; } catch { parsed = text; }
      if (!res.ok) {
        const p = (parsed && typeof parsed === 'object' ? parsed : {}) as { error?: string; errorMessage?: string; fields?: unknown };
        throw new ConsoleApiError(res.status, p.errorMessage ?? p.error ?? `HTTP ${res.status}`, p.error, Array.isArray(p.fields) ? p.fields : []);
      }
      return { body: parsed as T };
    },
  };
}
