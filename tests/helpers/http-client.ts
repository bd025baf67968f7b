import http from 'node:http';

export interface ApiResponse<T = any> {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: T;
  text: string;
  /** Value of the refresh-token cookie when the answer set one. */
  cookie: string | null;
}

export interface ApiRequest {
  method?: string;
  body?: unknown;
  token?: string | null;
  /** Host header: selects the tenant (default localhost → default tenant). */
  host?: string;
  cookie?: string | null;
  headers?: Record<string, string>;
}

/**
 * A tiny HTTP client on node:http, because tests must set the Host header (the tenant) and
 * read Set-Cookie, which fetch hides.
 */
export function createHttpClient(baseUrl: string, defaults: { host?: string } = {}) {
  const url = new URL(baseUrl);
  return function request<T = any>(path: string, options: ApiRequest = {}): Promise<ApiResponse<T>> {
    const payload = options.body === undefined ? undefined : typeof options.body === 'string' || Buffer.isBuffer(options.body) ? options.body : JSON.stringify(options.body);
    const headers: Record<string, string> = {
      host: options.host ?? defaults.host ?? `localhost:${url.port}`,
      ...(payload !== undefined && { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }),
      ...(options.token && { authorization: `Bearer ${options.token}` }),
      ...(options.cookie && { cookie: `rt=${options.cookie}` }),
      ...options.headers,
    };
    return new Promise((resolve, reject) => {
      const req = http.request({ hostname: url.hostname, port: url.port, path, method: options.method ?? 'GET', headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: any = text;
          if ((res.headers['content-type'] ?? '').includes('json') && text) body = JSON.parse(text);
          const setCookie = (res.headers['set-cookie'] ?? []).find((c) => c.startsWith('rt='));
          const cookie = setCookie ? decodeURIComponent(setCookie.slice(3, setCookie.indexOf(';'))) : null;
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text, cookie });
        });
      });
      req.on('error', reject);
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  };
}

export type HttpClient = ReturnType<typeof createHttpClient>;
