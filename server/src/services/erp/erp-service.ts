import { messages, type ErpSettings } from '@atendimento/schemas';
import {
  createErpClient,
  createErpLookups,
  ErpError,
  ERP_DEFAULT_SEARCH_LIMIT,
  ERP_MAX_PAGE_SIZE,
  erpUrl,
  parseErpQuery,
  withRowLimit,
  type ErpAnswer,
  type ErpResponse,
} from '@atendimento/integrations/erp/index';
import { AppError, badRequest, validationError } from '../../errors';
import type { Logger } from '../../logger';
import type { TenantRow } from '../../db/repositories/tenant-repository';
import type { OutboundHttp } from '../http/outbound-http';

/** Longest per-call limit a tenant may configure (the seed's request timeout). */
const ERP_MAX_TIMEOUT_MS = 600_000;
const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_QUERY_PATH = '/consulta';

/** A tenant's ERP settings with defaults filled in. */
interface ResolvedErp {
  urls: string[];
  queryPath: string;
  timeoutMs: number;
  searchLimit: number;
  /** Relational database behind the ERP is Oracle: queries get a ROWNUM limit. */
  oracle: boolean;
}

function normaliseBase(raw: string): string | null {
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (url.username || url.password) return null;
    url.hash = '';
    url.search = '';
    return url.href.replace(/\/+$/, '');
  } catch {
    return null;
  }
}

/** The ERP settings of a tenant (appConfig.erp + protheus.sgbd), or null when none are configured. */
function erpSettingsOf(tenant: TenantRow): ResolvedErp | null {
  const raw: ErpSettings | null | undefined = tenant.appConfig.erp;
  const urls = (raw?.urls ?? []).map(normaliseBase).filter((u): u is string => !!u);
  if (!urls.length) return null;
  const timeout = Number(raw?.timeoutMs);
  const limit = Number(raw?.searchLimit);
  return {
    urls,
    queryPath: raw?.queryPath && raw.queryPath.startsWith('/') ? raw.queryPath : DEFAULT_QUERY_PATH,
    timeoutMs: Number.isInteger(timeout) && timeout > 0 ? Math.min(timeout, ERP_MAX_TIMEOUT_MS) : DEFAULT_TIMEOUT_MS,
    searchLimit: Number.isInteger(limit) && limit > 0 ? Math.min(limit, ERP_MAX_PAGE_SIZE) : ERP_DEFAULT_SEARCH_LIMIT,
    oracle: /oracle/i.test(tenant.appConfig.protheus?.sgbd ?? ''),
  };
}

/** Turns an ERP failure into the answer the caller gets (never a 500). */
export function erpFailure(error: unknown, searchText = false): AppError {
  if (!(error instanceof ErpError)) throw error;
  const unavailable = searchText ? messages.table.erpSearchFailed : messages.integrations.erpUnavailable;
  switch (error.kind) {
    case 'rejected':
      // The ERP refusing our own credentials is a configuration problem, not the caller's.
      if (error.status === 401 || error.status === 403) return new AppError(502, 'erp_unavailable', unavailable);
      return new AppError(400, 'erp_rejected', searchText ? messages.table.erpSearchFailed : error.message || messages.integrations.erpRejected);
    case 'timeout':
      return new AppError(504, 'erp_timeout', searchText ? messages.table.erpSearchFailed : messages.integrations.erpTimeout);
    case 'aborted':
      return new AppError(499, 'cancelled', messages.integrations.erpCancelled);
    case 'forbidden':
      return new AppError(502, 'erp_forbidden_target', messages.integrations.erpForbiddenTarget);
    default:
      return new AppError(502, searchText ? 'erp_search_failed' : 'erp_unavailable', unavailable);
  }
}

interface ErpCallInput {
  /** One of the tenant's base URLs (or a URL under one); default the first. */
  url?: string | null;
  path: string;
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * The ERP proxy (seed 000 §7): queries in either body form and integration calls (form save
 * and delete, call-to-action documents), only ever to the base URLs the tenant configured,
 * through the SSRF-safe outbound client, cancellable by the caller, within the tenant's timeout.
 */
export function createErpService(deps: { http: OutboundHttp; logger: Logger }) {
  function settings(tenant: TenantRow): ResolvedErp {
    const resolved = erpSettingsOf(tenant);
    if (!resolved) throw new AppError(409, 'erp_not_configured', messages.integrations.erpNotConfigured);
    return resolved;
  }

  /** The configured base URL a caller's `url` names (exactly, or a path under it). */
  function baseFor(erp: ResolvedErp, url: string | null | undefined): string {
    if (url === undefined || url === null || url === '') return erp.urls[0]!;
    const wanted = normaliseBase(url);
    const match = wanted && erp.urls.find((base) => wanted === base || wanted.startsWith(`${base}/`));
    if (!match) throw badRequest('erp_target_not_allowed', messages.integrations.erpTargetNotAllowed);
    return wanted;
  }

  function clientFor(erp: ResolvedErp) {
    // The socket may stay silent as long as the tenant's limit; the deadline is the signal's.
    return createErpClient({ fetch: deps.http.trusting(erp.urls, erp.timeoutMs + 1_000), timeoutMs: erp.timeoutMs });
  }

  function checkPath(baseUrl: string, path: string): void {
    try {
      erpUrl(baseUrl, path);
    } catch {
      throw badRequest('erp_path_invalid', messages.integrations.erpPathInvalid);
    }
  }

  return {
    settings,
    /** Runs a query from the browser (`POST /api/erp-proxy`), adding Oracle's row limit. */
    async proxy(tenant: TenantRow, input: { path?: string | null; url?: string | null; limit?: number | null; body: unknown }, signal?: AbortSignal): Promise<ErpAnswer> {
      const parsed = parseErpQuery(input.body);
      if (!parsed.ok) throw validationError(parsed.problems);
      const erp = settings(tenant);
      const baseUrl = baseFor(erp, input.url);
      const path = input.path || erp.queryPath;
      checkPath(baseUrl, path);
      const query = erp.oracle ? withRowLimit(parsed.query, input.limit ?? erp.searchLimit) : parsed.query;
      try {
        return await clientFor(erp).query({ baseUrl, path }, query, signal);
      } catch (error) {
        const failure = erpFailure(error);
        if (failure.status >= 500) deps.logger.warn({ tenantId: tenant.id, kind: (error as ErpError).kind, message: (error as Error).message }, 'erp.proxy_failed');
        throw failure;
      }
    },
    /** Any call to the tenant's ERP (form save/delete, documents); failures come back as ErpError. */
    async call(tenant: TenantRow, input: ErpCallInput, signal?: AbortSignal): Promise<ErpResponse> {
      const erp = settings(tenant);
      const baseUrl = baseFor(erp, input.url);
      checkPath(baseUrl, input.path);
      return clientFor(erp).call({ baseUrl, path: input.path, method: input.method, body: input.body, headers: input.headers, signal });
    },
    /** Client and salesman lookups on the tenant's default ERP, or null when none is configured. */
    lookups(tenant: TenantRow) {
      const erp = erpSettingsOf(tenant);
      if (!erp) return null;
      return createErpLookups(clientFor(erp), { baseUrl: erp.urls[0]!, path: erp.queryPath });
    },
  };
}

export type ErpService = ReturnType<typeof createErpService>;
