import type { Db } from '../../db/knex';
import { pendingMigrations, pingDb } from '../../db/knex';

export interface ReadinessDeps {
  db: Db;
  /** Whether the change bus between processes is connected (memory bus: always). */
  busConnected(): boolean;
  /** True once a graceful stop began: the load balancer must stop sending traffic here. */
  draining(): boolean;
}

export interface Readiness {
  readonly ready: boolean;
  readonly checks: Readonly<{ database: boolean; migrations: boolean; bus: boolean; accepting: boolean }>;
}

/** The readiness check; `current()` is its last answer while that is fresh, without waiting (null: call it). */
export interface ReadinessCheck {
  (): Promise<Readiness>;
  current(): Readiness | null;
}

/**
 * GET /api/health/ready (docs/production.md "Health"): live means the process answers;
 * ready means it can serve: database reachable, every migration applied, bus connected and
 * not stopping. Migrations never un-apply, so once done that check is not run again.
 */
export function createReadiness(deps: ReadinessDeps, options: { pingEveryMs?: number } = {}): ReadinessCheck {
  let migrationsDone = false;
  // One database round trip per second at most: probes and GET /api/health (a benchmark's
  // target, B1) may come in thousands per second.
  const pingEveryMs = options.pingEveryMs ?? 1_000;
  let lastPing: { at: number; ok: Promise<boolean> } | null = null;
  let last: Readiness | null = null;
  // When the ping behind `last` was sent: GET /api/health reads `last` without a promise while that is fresh.
  let lastAt = -Infinity;
  const readiness = async function readiness(): Promise<Readiness> {
    const now = performance.now();
    if (!lastPing || now - lastPing.at >= pingEveryMs) {
      lastPing = { at: now, ok: pingDb(deps.db).then(() => true, () => false) };
    }
    const ping = lastPing;
    const database = await ping.ok;
    if (database && !migrationsDone) migrationsDone = await pendingMigrations(deps.db).then((n) => n === 0, () => false);
    const migrations = database && migrationsDone;
    const bus = deps.busConnected();
    const accepting = !deps.draining();
    // The same answer object while nothing changed: it is read on every GET /api/health.
    const c = last?.checks;
    lastAt = ping.at;
    if (last && c && c.database === database && c.migrations === migrations && c.bus === bus && c.accepting === accepting) return last;
    last = { ready: database && migrations && bus && accepting, checks: { database, migrations, bus, accepting } };
    return last;
  };
  return Object.assign(readiness, {
    current(): Readiness | null {
      // Fresh while its ping is and nothing read without the database changed (bus, draining).
      if (!last || performance.now() - lastAt >= pingEveryMs) return null;
      const c = last.checks;
      return c.bus === deps.busConnected() && c.accepting === !deps.draining() ? last : null;
    },
  });
}
