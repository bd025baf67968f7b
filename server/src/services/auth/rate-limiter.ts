import type { Clock } from '../../clock';

/**
 * Fixed-window counters kept in memory. Good for one process; several processes behind a
 * balancer each keep their own window, which only makes the effective limit N times higher
 * (docs/auth.md). Old windows are pruned as keys are touched.
 */
export function createRateLimiter(clock: Clock, options: { max: number; windowSeconds: number }) {
  const windows = new Map<string, { start: number; count: number }>();
  const windowMs = options.windowSeconds * 1000;

  function current(key: string) {
    const now = clock.now().getTime();
    let entry = windows.get(key);
    if (!entry || now - entry.start >= windowMs) {
      entry = { start: now, count: 0 };
      windows.set(key, entry);
    }
    if (windows.size > 50_000) {
      for (const [k, w] of windows) if (now - w.start >= windowMs) windows.delete(k);
    }
    return { entry, now };
  }

  return {
    /** Seconds to wait before another attempt, or 0 when allowed. */
    retryAfter(key: string): number {
      const { entry, now } = current(key);
      if (entry.count < options.max) return 0;
      return Math.max(1, Math.ceil((entry.start + windowMs - now) / 1000));
    },
    hit(key: string): void {
      current(key).entry.count += 1;
    },
    reset(key: string): void {
      windows.delete(key);
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
