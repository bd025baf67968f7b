/**
 * A stand-in for `fetch` in stories and specs (no server in Storybook or jsdom). The product
 * never uses it; the browser tests drive the real server.
 */
export interface FakeCall {
  method: string;
  path: string;
  body: unknown;
  headers: Record<string, string>;
}

export type FakeAnswer = { status?: number; body?: unknown; headers?: Record<string, string> } | ((call: FakeCall) => FakeAnswerValue | Promise<FakeAnswerValue>);
type FakeAnswerValue = { status?: number; body?: unknown; headers?: Record<string, string> };

/** Routes by "METHOD /path" (query ignored); a path ending in "*" matches a prefix. Unknown routes answer 404. */
export type FakeRoutes = Record<string, FakeAnswer>;

/** Default answers every story may rely on: no session cookie, no integrations, statuses accepted. */
const baseRoutes: FakeRoutes = {
  'POST /api/auth/refresh': { status: 401, body: { error: 'no_refresh_token', errorMessage: 'Sessão expirada. Entre novamente.' } },
  'POST /api/auth/logout': { status: 204 },
  'GET /api/integrations': { body: [] },
  'GET /api/integration-definitions': { body: { data: [] } },
  'POST /api/users/*': (call) => ({ body: { data: { status: (call.body as { status?: string })?.status ?? 'online' } } }),
};

function match(routes: FakeRoutes, method: string, path: string): FakeAnswer | undefined {
  const bare = path.split('?')[0]!;
  const key = Object.keys(routes).find((candidate) => {
    const [m, p] = candidate.split(' ');
    return m === method && (p === bare || (p!.endsWith('*') && bare.startsWith(p!.slice(0, -1))));
  });
  return key ? routes[key] : undefined;
}

let lastCalls: FakeCall[] = [];

/** The requests the most recently installed fake received (specs assert on them). */
export function recordedCalls(): FakeCall[] {
  return lastCalls;
}

/** Answers one recorded call from the routes; unknown routes answer 404. */
function answerOf(routes: FakeRoutes, call: FakeCall): Promise<FakeAnswerValue> {
  const route = match(routes, call.method, call.path);
  return Promise.resolve(!route ? { status: 404, body: { error: 'not_found', errorMessage: 'Rota não encontrada.' } } : typeof route === 'function' ? route(call) : route);
}

/**
 * The part of XMLHttpRequest the upload dialogs use (they need upload progress, which fetch
 * does not report): answered from the same routes, recorded in the same calls.
 */
function fakeXhrClass(routes: FakeRoutes, calls: FakeCall[]) {
  return class FakeXMLHttpRequest {
    readonly upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
    status = 0;
    responseText = '';
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    private method = 'GET';
    private path = '';
    private readonly headers: Record<string, string> = {};

    open(method: string, url: string): void {
      this.method = method.toUpperCase();
      this.path = url.replace(/^https?:\/\/[^/]+/, '');
    }

    setRequestHeader(name: string, value: string): void {
      this.headers[name.toLowerCase()] = value;
    }

    send(body?: unknown): void {
      const call = { method: this.method, path: this.path, body, headers: { ...this.headers } };
      calls.push(call);
      void answerOf(routes, call).then((answer) => {
        this.upload.onprogress?.({ lengthComputable: true, loaded: 1, total: 1 });
        this.status = answer.status ?? 200;
        this.responseText = answer.body === undefined ? '' : JSON.stringify(answer.body);
        this.onload?.();
      });
    }
  };
}

/** Replaces globalThis.fetch (and XMLHttpRequest) until `restore()`; `calls` records every request. */
export function installFakeFetch(routes: FakeRoutes) {
  const original = globalThis.fetch;
  const originalXhr = globalThis.XMLHttpRequest;
  const calls: FakeCall[] = [];
  lastCalls = calls;
  const all = { ...baseRoutes, ...routes };
  globalThis.XMLHttpRequest = fakeXhrClass(all, calls) as unknown as typeof XMLHttpRequest;
  globalThis.fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.pathname + input.search : input.url;
    const path = url.replace(/^https?:\/\/[^/]+/, '');
    const method = (init.method ?? 'GET').toUpperCase();
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, key) => {
      headers[key] = value;
    });
    let body: unknown = init.body;
    if (typeof body === 'string') {
      try {
        body = JSON.parse(body);
      } catch {
        // Not JSON: keep the text.
      }
    }
    const call = { method, path, body, headers };
    calls.push(call);
    const pending = answerOf(all, call);
    // Like a real fetch, an aborted signal rejects with its reason (AbortError) at once.
    const signal = init.signal;
    const aborted = new Promise<never>((_, reject) => {
      if (signal?.aborted) reject(signal.reason);
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
    const answer = await Promise.race([pending, aborted]);
    const status = answer.status ?? 200;
    const payload = status === 204 || answer.body === undefined ? null : JSON.stringify(answer.body);
    return new Response(payload, { status, headers: { 'Content-Type': 'application/json', ...answer.headers } });
  }) as typeof fetch;
  return {
    calls,
    restore() {
      globalThis.fetch = original;
      globalThis.XMLHttpRequest = originalXhr;
    },
  };
}
