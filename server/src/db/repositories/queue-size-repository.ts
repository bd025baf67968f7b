import type { Db } from '../knex';

/** The work waiting in the product's queues, across tenants: what an operator's /metrics shows. */
export interface QueueSizes {
  /** Open chats waiting for an agent in a department queue (the 'Fila' of every tenant). */
  waitingChats: number;
  /** Campaign messages not sent yet (queued, or claimed and in flight). */
  campaignMessages: number;
  /** Scheduler deadlines already due and not yet fired (routing timers, surveys, contingencies). */
  dueDeadlines: number;
}

/**
 * Counts for GET /metrics. Operators' figures, so deliberately not tenant-scoped; three
 * aggregate statements per scrape (every 15–60 s), not per request.
 */
export function createQueueSizeRepository(db: Db) {
  const count = async (query: Promise<unknown>) => Number(((await query) as { n?: number | string } | undefined)?.n ?? 0);
  return {
    async sizes(now: Date): Promise<QueueSizes> {
      const [waitingChats, campaignMessages, dueDeadlines] = await Promise.all([
        count(db('rooms').where({ active: true, internal: false, in_attend: false, destination: 'vueJs' }).whereNull('deleted_at').count({ n: '*' }).first()),
        count(db('campaign_messages').whereIn('state', ['queued', 'sending']).count({ n: '*' }).first()),
        count(db('deadlines').where('due_at', '<=', now.toISOString()).count({ n: '*' }).first()),
      ]);
      return { waitingChats, campaignMessages, dueDeadlines };
    },
  };
}
