import type { ChangeFeed } from '@atendimento/server/services/changes/change-feed';
import { waitFor } from './wait-for';

/**
 * Runs the writes `start` begins in ONE group commit (docs/ingest.md "Group commit"), as a
 * burst of webhooks arriving while a commit is in flight would: each grouped write is held
 * until `jobs` of them have asked, then all join the feed's queue in the same turn of the
 * event loop, so the next group takes them together. Nothing holds a connection meanwhile
 * (the writes may read the database before they ask). Answers what `start`'s promises give.
 */
export async function inOneGroup<T>(feed: ChangeFeed, jobs: number, start: () => Array<Promise<T>>): Promise<T[]> {
  const grouped = feed.grouped;
  const held: Array<() => void> = [];
  feed.grouped = ((...args: Parameters<typeof grouped>) =>
    new Promise<unknown>((resolve, reject) => {
      held.push(() => void grouped(...args).then(resolve, reject));
    })) as typeof grouped;
  try {
    const pending = start();
    await waitFor(() => held.length >= jobs, `${jobs} grouped writes (${held.length} so far)`);
    feed.grouped = grouped;
    for (const join of held) join();
    return await Promise.all(pending);
  } finally {
    feed.grouped = grouped;
  }
}
