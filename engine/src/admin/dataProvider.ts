import simpleRestProvider from 'ra-data-simple-rest';
import { HttpError, type DataProvider, type fetchUtils } from 'react-admin';
import { apiRequest, ApiError } from '../api/api';

/** `{ data }` (and `{ data, meta }`) envelopes are unwrapped so simple-rest sees the bare record or list. */
function unwrap(json: unknown): unknown {
  if (json && typeof json === 'object' && !Array.isArray(json) && 'data' in json && Object.keys(json).every((key) => key === 'data' || key === 'meta')) {
    return (json as { data: unknown }).data;
  }
  return json;
}

/**
 * The httpClient of ra-data-simple-rest on our API client: bearer token, 401 → refresh once
 * and retry. It does not toast: react-admin notifies failures itself (through the app's
 * toaster), and a second toast would repeat the message.
 */
async function httpClient(url: string, options: fetchUtils.Options = {}) {
  const headers: Record<string, string> = {};
  new Headers(options.headers as HeadersInit | undefined).forEach((value, key) => {
    headers[key] = value;
  });
  // simple-rest sends JSON.stringify(data) without a type (react-admin's fetchJson adds it);
  // without it the server's body parser would not read the record.
  if (typeof options.body === 'string' && !headers['content-type']) headers['content-type'] = 'application/json';
  try {
    const { body, response } = await apiRequest<unknown>(url, {
      method: (options.method as 'GET' | undefined) ?? 'GET',
      body: options.body as string | undefined,
      headers,
      notify: false,
      signal: options.signal ?? undefined,
    });
    const json = unwrap(body);
    return { status: response.status, headers: response.headers, body: typeof body === 'string' ? body : JSON.stringify(body), json };
  } catch (error) {
    if (error instanceof ApiError) throw new HttpError(error.message, error.status, error.body);
    throw error;
  }
}

/** The registers' data provider: the simple-rest dialect the server speaks under /api (docs/engine.md). */
export function createDataProvider(): DataProvider {
  return simpleRestProvider('/api', httpClient);
}
