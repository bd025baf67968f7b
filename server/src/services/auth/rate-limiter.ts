import type { Clock } from '../../clock';

/**
 * Fixed-window counters kept in memory. Good for one process; several processes behind a
 * balancer each keep their own window, which only makes the effective limit N times higher
 * (docs/auth.md).
 *
 * Bounded and O(1) per call (150,000 distinct e-mails made every attempt scan the
 * whole map and cut sign-in throughput five-fold): a Map kept in least-recently-touched order;
 * past `maxKeys` the oldest key is dropped. Checking a key never adds it.
 */
export function createRateLimiter(clock: Clock, options: { max: number; windowSeconds: number; maxKeys?: number }) {
  const windows = new Map<string, { start: number; count: number }>();
  const windowMs = options.windowSeconds * 1000;
  const maxKeys = options.maxKeys ?? 100_000;

  /** The live window of `key`, or null (expired windows are dropped on the way). */
  function live(key: string, now: number) {
    const entry = windows.get(key);
    if (!entry) return null;
    if (now - entry.start >= windowMs) {
      windows.delete(key);
      return null;
    }
    return entry;
  }

  return {
    /** Seconds to wait before another attempt, or 0 when allowed. */
    retryAfter(key: string): number {
      const now = clock.now().getTime();
      const entry = live(key, now);
      if (!entry || entry.count < options.max) return 0;
      return Math.max(1, Math.ceil((entry.start + windowMs - now) / 1000));
    },
    hit(key: string): void {
      const now = clock.now().getTime();
      const entry = live(key, now) ?? { start: now, count: 0 };
      entry.count += 1;
      // Re-inserting moves the key to the young end.
      windows.delete(key);
      windows.set(key, entry);
      while (windows.size > maxKeys) windows.delete(windows.keys().next().value!);
    },
    reset(key: string): void {
      windows.delete(key);
    },
    /** Keys held (tests, metrics). */
    size: () => windows.size,
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
