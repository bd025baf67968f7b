/**
 * The ERP proxy protocol (seed 000 §7), shared by the product's proxy, its ERP client and the
 * local ERP. A request body comes in one of two forms:
 *
 * - endpoint form: `{ ENDPOINT, PORPAGINA, PAGINA, LISTAGEM, PARAMETROS: { ':FILTRO', ':ORDEM' } }`
 *   — ENDPOINT names a query the ERP publishes (clientes, vendedores...);
 * - direct form: `{ DIRECT: true, QUERY, ORDEM, FILTRO }` (PORPAGINA/PAGINA optional) — QUERY is
 *   a `SELECT ... FROM table` the ERP runs itself.
 *
 * Answers carry REGISTROSRESULTADOS (rows in this page), TOTAL (all matches), RESULTADOS
 * (endpoint form) or RETORNOS (direct form), and PROXIMO (true when another page exists).
 * docs/erp.md has examples.
 */

/** ERP page size when the caller names none (seed 000 §9 "ERP page size default 5"). */
const ERP_DEFAULT_PAGE_SIZE = 5;
/** Largest page the proxy forwards (child queries use 100 or 999). */
export const ERP_MAX_PAGE_SIZE = 999;
/** Default Oracle row limit when the integration names no apiRestSearchLimit. */
export const ERP_DEFAULT_SEARCH_LIMIT = 20;

interface ErpEndpointQuery {
  ENDPOINT: string;
  PORPAGINA: number;
  PAGINA: number;
  /** Columns to list (comma-separated text or a list); absent or true = every column. */
  LISTAGEM?: boolean | string | string[];
  /** `:FILTRO` and `:ORDEM`, plus any named parameter the endpoint knows. */
  PARAMETROS: Record<string, string>;
}

interface ErpDirectQuery {
  DIRECT: true;
  QUERY: string;
  ORDEM?: string;
  FILTRO?: string;
  PORPAGINA: number;
  PAGINA: number;
}

export type ErpQuery = ErpEndpointQuery | ErpDirectQuery;

export interface ErpAnswer<Row = Record<string, unknown>> {
  REGISTROSRESULTADOS: number;
  TOTAL: number;
  PAGINA?: number;
  PORPAGINA?: number;
  PROXIMO: boolean;
  RESULTADOS?: Row[];
  RETORNOS?: Row[];
}

export function isDirectQuery(query: ErpQuery): query is ErpDirectQuery {
  return (query as ErpDirectQuery).DIRECT === true;
}

/** One problem with a body, named by its field, in pt-BR. */
interface ErpBodyProblem {
  field: string;
  message: string;
}

const MAX_TEXT = 4000;

function pageNumber(raw: unknown, field: string, fallback: number, max: number, problems: ErpBodyProblem[]): number {
  if (raw === undefined || raw === null || raw === '') return fallback;
  const n = typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > max) {
    problems.push({ field, message: `${field} deve ser um número inteiro entre 1 e ${max}` });
    return fallback;
  }
  return n;
}

function text(raw: unknown, field: string, problems: ErpBodyProblem[], required = false): string | undefined {
  if (raw === undefined || raw === null || raw === '') {
    if (required) problems.push({ field, message: `Informe ${field}` });
    return undefined;
  }
  if (typeof raw !== 'string') {
    problems.push({ field, message: `${field} deve ser um texto` });
    return undefined;
  }
  if (raw.length > MAX_TEXT) {
    problems.push({ field, message: `${field} ultrapassa ${MAX_TEXT} caracteres` });
    return undefined;
  }
  return raw;
}

/** PARAMETROS as an object, or as a list of one-key objects (`[{ ':FILTRO': '...' }]`). */
function parameters(raw: unknown, problems: ErpBodyProblem[]): Record<string, string> {
  if (raw === undefined || raw === null) return {};
  const entries: [string, unknown][] = [];
  if (Array.isArray(raw)) {
    for (const item of raw) {
      if (!item || typeof item !== 'object' || Array.isArray(item)) {
        problems.push({ field: 'PARAMETROS', message: 'PARAMETROS deve ser um objeto ou uma lista de objetos' });
        return {};
      }
      entries.push(...Object.entries(item));
    }
  } else if (typeof raw === 'object') {
    entries.push(...Object.entries(raw));
  } else {
    problems.push({ field: 'PARAMETROS', message: 'PARAMETROS deve ser um objeto ou uma lista de objetos' });
    return {};
  }
  const out: Record<string, string> = {};
  for (const [key, value] of entries) {
    if (!/^:?[A-Za-z_][A-Za-z0-9_]{0,40}$/.test(key)) {
      problems.push({ field: `PARAMETROS.${key}`, message: `parâmetro inválido: ${key}` });
      continue;
    }
    if (value === null || value === undefined) continue;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      problems.push({ field: `PARAMETROS.${key}`, message: `${key} deve ser um texto` });
      continue;
    }
    const v = String(value);
    if (v.length > MAX_TEXT) problems.push({ field: `PARAMETROS.${key}`, message: `${key} ultrapassa ${MAX_TEXT} caracteres` });
    else out[key.startsWith(':') ? key.toUpperCase() : `:${key.toUpperCase()}`] = v;
  }
  return out;
}

/**
 * Checks a body in either form and returns it normalised (pages filled in, PARAMETROS as an
 * object with `:`-prefixed upper-case keys), or the list of problems.
 */
export function parseErpQuery(input: unknown): { ok: true; query: ErpQuery } | { ok: false; problems: ErpBodyProblem[] } {
  const problems: ErpBodyProblem[] = [];
  if (!input || typeof input !== 'object' || Array.isArray(input)) {
    return { ok: false, problems: [{ field: 'body', message: 'Envie ENDPOINT (com PARAMETROS) ou DIRECT com QUERY' }] };
  }
  const body = input as Record<string, unknown>;
  const PORPAGINA = pageNumber(body.PORPAGINA, 'PORPAGINA', ERP_DEFAULT_PAGE_SIZE, ERP_MAX_PAGE_SIZE, problems);
  const PAGINA = pageNumber(body.PAGINA, 'PAGINA', 1, 1_000_000, problems);
  const direct = body.DIRECT === true || body.DIRECT === 'true' || body.DIRECT === 'S' || body.DIRECT === 1;
  if (direct) {
    const QUERY = text(body.QUERY, 'QUERY', problems, true);
    const ORDEM = text(body.ORDEM, 'ORDEM', problems);
    const FILTRO = text(body.FILTRO, 'FILTRO', problems);
    if (QUERY !== undefined && !/^\s*select\s/i.test(QUERY)) problems.push({ field: 'QUERY', message: 'QUERY deve ser um SELECT' });
    if (problems.length) return { ok: false, problems };
    return { ok: true, query: { DIRECT: true, QUERY: QUERY!, PORPAGINA, PAGINA, ...(ORDEM && { ORDEM }), ...(FILTRO && { FILTRO }) } };
  }
  const ENDPOINT = text(body.ENDPOINT, 'ENDPOINT', problems, body.DIRECT === undefined || body.DIRECT === false);
  if (ENDPOINT !== undefined && !/^[A-Za-z0-9_./-]{1,120}$/.test(ENDPOINT)) problems.push({ field: 'ENDPOINT', message: 'ENDPOINT inválido' });
  if (body.DIRECT !== undefined && body.DIRECT !== false && !direct) problems.push({ field: 'DIRECT', message: 'DIRECT deve ser true' });
  const PARAMETROS = parameters(body.PARAMETROS, problems);
  let LISTAGEM: ErpEndpointQuery['LISTAGEM'];
  if (body.LISTAGEM !== undefined && body.LISTAGEM !== null) {
    const l = body.LISTAGEM;
    if (typeof l === 'boolean' || (typeof l === 'string' && l.length <= MAX_TEXT)) LISTAGEM = l;
    else if (Array.isArray(l) && l.every((c) => typeof c === 'string') && l.length <= 200) LISTAGEM = l as string[];
    else problems.push({ field: 'LISTAGEM', message: 'LISTAGEM deve ser true/false, uma lista de colunas ou um texto com colunas separadas por vírgula' });
  }
  if (problems.length) return { ok: false, problems };
  return { ok: true, query: { ENDPOINT: ENDPOINT!, PORPAGINA, PAGINA, PARAMETROS, ...(LISTAGEM !== undefined && { LISTAGEM }) } };
}

function andFilter(filter: string | undefined, extra: string): string {
  return filter && filter.trim() ? `(${filter}) AND ${extra}` : extra;
}

/**
 * Adds Oracle's row limit (seed 000 §7: "For relational databases of type Oracle a row limit is
 * added (apiRestSearchLimit)") to the filter of either form.
 */
export function withRowLimit(query: ErpQuery, limit: number): ErpQuery {
  const clause = `ROWNUM <= ${Math.max(1, Math.floor(limit))}`;
  if (isDirectQuery(query)) return { ...query, FILTRO: andFilter(query.FILTRO, clause) };
  return { ...query, PARAMETROS: { ...query.PARAMETROS, ':FILTRO': andFilter(query.PARAMETROS[':FILTRO'], clause) } };
}

/** The rows of an answer in either form (RESULTADOS or RETORNOS). */
export function rowsOf<Row = Record<string, unknown>>(answer: Partial<ErpAnswer<Row>> | null | undefined): Row[] {
  const rows = answer?.RESULTADOS ?? answer?.RETORNOS;
  return Array.isArray(rows) ? rows : [];
}

/** Quotes a value for a filter text: `quote("D'Ávila")` → `'D''Ávila'`. */
export function quote(value: string | number): string {
  return typeof value === 'number' ? String(value) : `'${String(value).replace(/'/g, "''")}'`;
}
