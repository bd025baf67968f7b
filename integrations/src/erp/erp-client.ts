import { splitClientKey } from '@atendimento/schemas';
import { quote, rowsOf, type ErpAnswer, type ErpQuery } from './erp-protocol';

/**
 * The product's client for a customer's ERP. It gets its `fetch` passed in (the server hands it
 * its SSRF-safe client), never calls anything by itself, and turns every failure into an
 * {@link ErpError} with a kind the caller can map to a status: the ERP refused the request
 * (`rejected`, its 4xx and message), it failed or answered garbage (`unavailable`, `invalid`),
 * it was too slow (`timeout`), the caller went away (`aborted`), or the target is not allowed
 * (`forbidden`).
 */

type ErpErrorKind = 'rejected' | 'unavailable' | 'invalid' | 'timeout' | 'aborted' | 'forbidden' | 'too_large';

export class ErpError extends Error {
  constructor(
    readonly kind: ErpErrorKind,
    message: string,
    /** HTTP status the ERP answered (0 when it did not answer). */
    readonly status = 0,
    /** The ERP's JSON answer, when it sent one. */
    readonly body: unknown = null,
  ) {
    super(message);
  }
}

interface ErpRequest {
  /** Base URL the tenant configured, e.g. http://erp.cliente.com.br:8080/rest. */
  baseUrl: string;
  /** Path under the base URL, e.g. /consulta. */
  path: string;
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Cancels the call (the browser went away). */
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface ErpResponse {
  status: number;
  body: unknown;
  contentType: string;
}

/** Joins a base URL and a path, refusing paths that would leave the base (`..`, `//host`, schemes). */
export function erpUrl(baseUrl: string, path: string): URL {
  const base = new URL(baseUrl);
  const clean = path.trim();
  if (/^[a-z][a-z0-9+.-]*:/i.test(clean) || clean.startsWith('//') || clean.includes('\\')) throw new ErpError('forbidden', `ERP: caminho inválido "${path}"`);
  const [pathname, search = ''] = clean.split('?', 2) as [string, string?];
  const segments = pathname.split('/').filter(Boolean);
  const decoded = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return '..';
    }
  };
  if (segments.some((s) => s === '..' || s === '.' || decoded(s).includes('/') || decoded(s) === '..' || decoded(s) === '.')) {
    throw new ErpError('forbidden', `ERP: caminho inválido "${path}"`);
  }
  const url = new URL(base.href);
  url.pathname = `${base.pathname.replace(/\/$/, '')}/${segments.join('/')}`;
  url.search = search ? `?${search}` : '';
  return url;
}

async function readCapped(res: Response, maxBytes: number): Promise<Buffer> {
  if (!res.body) return Buffer.alloc(0);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new ErpError('too_large', `ERP: resposta maior que ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

interface ErpClientOptions {
  fetch: typeof fetch;
  /** Default time limit per call, ms. */
  timeoutMs?: number;
  /** Largest answer read, bytes (default 10 MB). */
  maxBytes?: number;
}

/** Message an ERP error answer carries, in the shapes ERPs use. */
function erpMessage(body: unknown): string | null {
  if (!body || typeof body !== 'object') return typeof body === 'string' && body ? body.slice(0, 300) : null;
  const b = body as Record<string, unknown>;
  for (const key of ['errorMessage', 'message', 'MENSAGEM', 'mensagem', 'error', 'ERRO', 'erro']) {
    const v = b[key];
    if (typeof v === 'string' && v) return v.slice(0, 300);
    if (v && typeof v === 'object' && typeof (v as { message?: unknown }).message === 'string') return String((v as { message: string }).message).slice(0, 300);
  }
  return null;
}

/** Creates the client; see the module comment for how failures come back. */
export function createErpClient(options: ErpClientOptions) {
  const maxBytes = options.maxBytes ?? 10 * 1024 * 1024;

  async function call(req: ErpRequest): Promise<ErpResponse> {
    const url = erpUrl(req.baseUrl, req.path);
    const timeout = AbortSignal.timeout(req.timeoutMs ?? options.timeoutMs ?? 60_000);
    const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
    const method = (req.method ?? 'POST').toUpperCase();
    let res: Response;
    try {
      res = await options.fetch(url, {
        method,
        headers: { accept: 'application/json', ...(req.body !== undefined && { 'content-type': 'application/json' }), ...req.headers },
        body: req.body === undefined || method === 'GET' || method === 'HEAD' ? undefined : JSON.stringify(req.body),
        signal,
      });
    } catch (error) {
      throw failure(error, req.signal, timeout);
    }
    let raw: Buffer;
    try {
      raw = await readCapped(res, maxBytes);
    } catch (error) {
      if (error instanceof ErpError) throw error;
      throw failure(error, req.signal, timeout);
    }
    const contentType = res.headers.get('content-type') ?? '';
    let body: unknown = raw;
    if (contentType.includes('json') || (raw.length && (raw[0] === 0x7b || raw[0] === 0x5b))) {
      try {
        body = raw.length ? JSON.parse(raw.toString('utf8')) : null;
      } catch {
        if (res.ok) throw new ErpError('invalid', 'ERP: resposta não é um JSON válido', res.status);
        body = raw.toString('utf8').slice(0, 300);
      }
    }
    if (res.status >= 400 && res.status < 500) throw new ErpError('rejected', erpMessage(body) ?? `ERP recusou a requisição (HTTP ${res.status})`, res.status, body);
    if (res.status >= 500 || res.status < 200 || res.status >= 300) throw new ErpError('unavailable', erpMessage(body) ?? `ERP indisponível (HTTP ${res.status})`, res.status, body);
    return { status: res.status, body, contentType };
  }

  function failure(error: unknown, callerSignal: AbortSignal | undefined, timeout: AbortSignal): ErpError {
    if ((error as { code?: string })?.code === 'forbidden_target') return new ErpError('forbidden', (error as Error).message);
    if (callerSignal?.aborted) return new ErpError('aborted', 'ERP: chamada cancelada pelo cliente');
    if (timeout.aborted) return new ErpError('timeout', 'ERP: tempo de resposta esgotado');
    return new ErpError('unavailable', `ERP inacessível: ${(error as Error)?.message ?? String(error)}`);
  }

  /** Runs a query (either body form) and returns the answer, which must be a JSON object. */
  async function query<Row = Record<string, unknown>>(target: { baseUrl: string; path: string; headers?: Record<string, string> }, body: ErpQuery, signal?: AbortSignal): Promise<ErpAnswer<Row>> {
    const res = await call({ ...target, method: 'POST', body, signal });
    if (!res.body || typeof res.body !== 'object' || Array.isArray(res.body)) throw new ErpError('invalid', 'ERP: resposta sem REGISTROSRESULTADOS/RESULTADOS', res.status);
    return res.body as ErpAnswer<Row>;
  }

  return { call, query };
}

type ErpClient = ReturnType<typeof createErpClient>;

/** A client row (SA1) as the ERP returns it. */
export interface ErpClientRow {
  A1_COD: string;
  A1_LOJA: string;
  A1_CGC: string;
  A1_NOME: string;
  A1_NREDUZ: string;
  FILIAL?: string;
  EMPRESA?: string;
  [column: string]: unknown;
}

/** A salesman row (SA3). */
export interface ErpSalesmanRow {
  A3_COD: string;
  A3_LOJA?: string;
  A3_CGC: string;
  A3_NOME: string;
  A3_NREDUZ: string;
  [column: string]: unknown;
}

/** The id a contact stores for a linked ERP client: code and store, '000123' + '01'. */
export function clientKey(row: Pick<ErpClientRow, 'A1_COD' | 'A1_LOJA'>): string {
  return `${String(row.A1_COD).trim()}${String(row.A1_LOJA).trim()}`;
}


const inList = (column: string, values: string[]) => `${column} IN (${values.map((v) => quote(v)).join(', ')})`;

/**
 * Lookups the product itself makes (contact links), written as endpoint-form queries on the
 * ERP's published `clientes` and `vendedores` queries.
 */
export function createErpLookups(client: ErpClient, target: { baseUrl: string; path: string; headers?: Record<string, string> }) {
  return {
    async clientsByKeys(keys: string[], signal?: AbortSignal): Promise<ErpClientRow[]> {
      const parts = keys.map(splitClientKey).filter((k): k is NonNullable<typeof k> => !!k);
      if (!parts.length) return [];
      const filter = parts.map((p) => `(A1_COD = ${quote(p.A1_COD)} AND A1_LOJA = ${quote(p.A1_LOJA)})`).join(' OR ');
      const answer = await client.query<ErpClientRow>(target, { ENDPOINT: 'clientes', PORPAGINA: Math.min(999, parts.length), PAGINA: 1, PARAMETROS: { ':FILTRO': filter, ':ORDEM': 'A1_NOME' } }, signal);
      return rowsOf(answer);
    },
    async clientsByCgc(cgc: string, signal?: AbortSignal): Promise<ErpClientRow[]> {
      const digits = cgc.replace(/\D/g, '');
      if (!digits) return [];
      const answer = await client.query<ErpClientRow>(target, { ENDPOINT: 'clientes', PORPAGINA: 100, PAGINA: 1, PARAMETROS: { ':FILTRO': `A1_CGC = ${quote(digits)}`, ':ORDEM': 'A1_COD, A1_LOJA' } }, signal);
      return rowsOf(answer);
    },
    async salesmenByCodes(codes: string[], signal?: AbortSignal): Promise<ErpSalesmanRow[]> {
      const clean = codes.map((c) => c.trim()).filter((c) => /^[A-Za-z0-9]{1,20}$/.test(c));
      if (!clean.length) return [];
      const answer = await client.query<ErpSalesmanRow>(target, { ENDPOINT: 'vendedores', PORPAGINA: Math.min(999, clean.length), PAGINA: 1, PARAMETROS: { ':FILTRO': inList('A3_COD', clean), ':ORDEM': 'A3_NOME' } }, signal);
      return rowsOf(answer);
    },
  };
}
