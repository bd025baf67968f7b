import { createSafeFetch, trustedHostOf } from './safe-fetch';

/**
 * The server's one outbound HTTP client (safe-fetch.ts holds the rules). A tenant's ERP base
 * URLs are "explicitly configured" targets: `trusting(urls)` gives a fetch that may reach
 * exactly those host:port pairs even on loopback or a private network (the local ERP of the
 * demo, an ERP inside the customer's VPN), and refuses every other internal address, on every
 * redirect hop, as the plain `fetch` does.
 */
export function createOutboundHttp(options: { trustedHosts?: string[]; timeoutMs?: number } = {}) {
  const base = options.trustedHosts ?? [];
  const idle = options.timeoutMs ?? 30_000;
  const cache = new Map<string, typeof fetch>();
  return {
    /** Public targets only (plus the server-wide trusted hosts). */
    fetch: createSafeFetch({ trustedHosts: base, timeoutMs: idle }),
    /**
     * A fetch that also trusts these base URLs' host:port. `idleMs` is how long a socket may
     * stay silent; callers put their overall deadline on the request's signal.
     */
    trusting(urls: readonly string[], idleMs = idle): typeof fetch {
      const hosts = [...new Set(urls.map((u) => trustedHostOf(u)))].sort();
      const key = `${idleMs}|${hosts.join(',')}`;
      let client = cache.get(key);
      if (!client) {
        if (cache.size > 500) cache.clear();
        client = createSafeFetch({ trustedHosts: [...base, ...hosts], timeoutMs: idleMs });
        cache.set(key, client);
      }
      return client;
    },
  };
}

export type OutboundHttp = ReturnType<typeof createOutboundHttp>;
