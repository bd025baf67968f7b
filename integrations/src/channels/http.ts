import { cloudApiError, ProviderError } from './provider-error';

/** Calls a provider and parses JSON; non-2xx become ProviderError (Graph-shaped bodies understood). */
export async function callJson(
  fetchFn: typeof fetch,
  provider: string,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown; timeoutMs?: number },
): Promise<any> {
  let res: Response;
  try {
    res = await fetchFn(url, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: { ...(init.body !== undefined && { 'content-type': 'application/json' }), ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(init.timeoutMs ?? 30_000),
    });
  } catch (error) {
    throw new ProviderError(provider, 'network', 0, (error as Error).message, 'Falha de comunicação com o provedor', true);
  }
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = { error: { message: text.slice(0, 200) } };
  }
  if (!res.ok) throw cloudApiError(provider, res.status, body);
  return body;
}

export async function fetchBytes(fetchFn: typeof fetch, provider: string, url: string, headers: Record<string, string>): Promise<{ bytes: Buffer; mimeType: string }> {
  const res = await fetchFn(url, { headers, signal: AbortSignal.timeout(60_000) });
  if (!res.ok) throw new ProviderError(provider, res.status, res.status, `media download failed: HTTP ${res.status}`, 'Falha ao baixar a mídia', res.status >= 500);
  return { bytes: Buffer.from(await res.arrayBuffer()), mimeType: res.headers.get('content-type') ?? 'application/octet-stream' };
}
