import type { Clock } from '../../clock';
import type { Logger } from '../../logger';
import type { ChangeFeed } from './change-feed';

/**
 * Deletes change_log rows older than the retention, every `everyMs`. Clients whose cursor is
 * older than what is left get a fresh snapshot instead of a replay (docs/realtime.md).
 */
export function startChangeLogPruner(deps: { changes: ChangeFeed; clock: Clock; logger: Logger; retentionMs: number; everyMs: number }) {
  const { changes, clock, logger } = deps;
  let running: Promise<number> | null = null;

  async function pruneNow(): Promise<number> {
    if (running) return running;
    const before = new Date(clock.now().getTime() - deps.retentionMs).toISOString();
    running = changes
      .prune(before)
      .then((n) => {
        if (n) logger.info({ deleted: n, before }, 'changes.pruned');
        return n;
      })
      .catch((err) => {
        logger.warn({ err }, 'changes.prune_failed');
        return 0;
      })
      .finally(() => {
        running = null;
      });
    return running;
  }

  const timer = deps.everyMs > 0 ? setInterval(() => void pruneNow(), deps.everyMs) : null;
  timer?.unref?.();

  return {
    /** Prunes once now (tests, admin tools); resolves with the rows deleted. */
    pruneNow,
    stop(): void {
      if (timer) clearInterval(timer);
    },
  };
}
