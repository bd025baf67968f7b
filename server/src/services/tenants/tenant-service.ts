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

/** How often a SQLite process asks whether another process wrote the database. */
const STAMP_EVERY_MS = 200;

/**
 * Resolves the tenant from the Host header. Lookups are cached briefly because every request
 * does one; `invalidate` drops the cache when an admin changes a tenant. A change made by another
 * process (the tenant command disabling a tenant) reaches this one through the bus on
 * PostgreSQL; on SQLite, through the file's change stamp, looked at every 200 ms on the
 * service's own timer (never on a request's path: a request's statements stay the same), so
 * 'Acesso Desabilitado.' holds at once there too.
 */
export function createTenantService(repo: TenantRepository, options: { defaultTenant: string; cacheMs?: number }) {
  const cache = new Map<string, { tenant: TenantRow | null; at: number }>();
  const cacheMs = options.cacheMs ?? 5_000;
  let stamp: number | null = null;
  let checking = false;
  const watcher = setInterval(() => {
    if (checking) return;
    checking = true;
    repo.externalChangeStamp()
      .then((next) => {
        // PostgreSQL answers null: its bus tells every process; nothing to watch.
        if (next === null) return clearInterval(watcher);
        if (stamp !== null && next !== stamp) cache.clear();
        stamp = next;
      })
      // The database closing under a last tick: nothing to do.
      .catch(() => undefined)
      .finally(() => (checking = false));
  }, STAMP_EVERY_MS);
  watcher.unref?.();

  async function load(host: string): Promise<TenantRow | null> {
    if (LOCAL_HOSTS.has(host)) return repo.findById(options.defaultTenant);
    return repo.findByHost(host);
  }

  function cached(hostHeader: string): TenantRow | null | undefined {
    const hit = cache.get(hostName(hostHeader));
    return hit && Date.now() - hit.at < cacheMs ? hit.tenant : undefined;
  }

  return {
    async resolve(hostHeader: string): Promise<TenantRow | null> {
      const hit = cached(hostHeader);
      if (hit !== undefined) return hit;
      const host = hostName(hostHeader);
      const tenant = await load(host);
      cache.set(host, { tenant, at: Date.now() });
      return tenant;
    },
    /**
     * The cached answer for this host without waiting (undefined: not cached, call `resolve`):
     * the tenant middleware runs on every request and a cache hit needs no promise.
     */
    cached,
    invalidate(): void {
      cache.clear();
    },
    /** Stops watching the database file (server close). */
    stop(): void {
      clearInterval(watcher);
    },
    appConfig(tenant: TenantRow): AppConfig {
      return { ...tenant.appConfig, tenantId: tenant.id };
    },
  };
}

export type TenantService = ReturnType<typeof createTenantService>;
