import { useEffect } from 'react';
import type { CounterAnswer, ReadAnswer } from '@atendimento/schemas';
import { useConsole } from '../../ConsoleContext';
import { uiActions } from '../../store/consoleStores';

const COUNTER_POLL_MS = 5000;

/** Polls GET /api/counter and GET /api/read every 5 s (seed 002 §7) into the tab badges and title. */
export function useCounters(enabled = true): void {
  const { api, stores } = useConsole();
  useEffect(() => {
    if (!enabled) return;
    let stopped = false;
    const poll = async () => {
      try {
        const [counter, read] = await Promise.all([
          api.request<CounterAnswer>('/api/counter', { notify: false }),
          api.request<ReadAnswer>('/api/read', { notify: false }),
        ]);
        if (stopped) return;
        uiActions.patch(stores.ui, { counters: counter.body.data?.tabs ?? {}, unreadChats: read.body.data?.unreadChats ?? 0, ownChats: read.body.data?.chats ?? 0, queueCounts: counter.body.data?.queues ?? {} });
      } catch {
        // Counters are a convenience: a failed poll keeps the last values until the next one.
      }
    };
    void poll();
    const timer = setInterval(poll, COUNTER_POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [api, stores, enabled]);
}
