import type { AppConfig } from '@atendimento/schemas';
import type { TenantRepository, TenantRow } from '../../db/repositories/tenant-repository';

/** Hosts that always mean "the default tenant" (local development and `npm start`). */
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Strips the port: 'acme.example.com:5000' → 'acme.example.com'. */
function hostName(hostHeader: string): string {
  const host = hostHeader.trim().toLowerCase();
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  return host.split(':')[0] ?? '';
}

/**
 * Resolves the tenant from the Host header. Lookups are cached briefly because every request
 * does one; `invalidate` drops the cache when an admin changes a tenant.
 */
export function createTenantService(repo: TenantRepository, options: { defaultTenant: string; cacheMs?: number }) {
  const cache = new Map<string, { tenant: TenantRow | null; at: number }>();
  const cacheMs = options.cacheMs ?? 5_000;

  async function load(host: string): Promise<TenantRow | null> {
    if (LOCAL_HOSTS.has(host)) return repo.findById(options.defaultTenant);
    return repo.findByHost(host);
  }

  return {
    async resolve(hostHeader: string): Promise<TenantRow | null> {
      const host = hostName(hostHeader);
      const hit = cache.get(host);
      if (hit && Date.now() - hit.at < cacheMs) return hit.tenant;
      const tenant = await load(host);
      cache.set(host, { tenant, at: Date.now() });
      return tenant;
    },
    invalidate(): void {
      cache.clear();
    },
    appConfig(tenant: TenantRow): AppConfig {
      return { ...tenant.appConfig, tenantId: tenant.id };
    },
  };
}

export type TenantService = ReturnType<typeof createTenantService>;
