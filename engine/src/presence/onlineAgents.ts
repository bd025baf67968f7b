import type { LiveRecordData, RealtimeClient } from '@atendimento/schemas';
import { sessionRealtime } from '../api/realtime';
import { DEFAULT_STATUS } from './presence';
import type { OnlineAgent } from '../layout/OnlineAgentsDialog';

/** How long 'Agentes Online' waits for the server's list before showing what it has (none). */
const ONLINE_AGENTS_TIMEOUT_MS = 10_000;

type PresenceRecord = LiveRecordData & { displayName?: string; email?: string; photoUrl?: string | null; status?: string | null; online?: boolean };

/**
 * Who is online now, for 'Agentes Online' (seed 000 §2, 002 §4): one snapshot of the realtime
 * `presence` collection filtered on `online == true` (a status record within 90 s that is not
 * offline), subscribed on the session's realtime client and closed once answered.
 */
export function loadOnlineAgents(options: { client?: RealtimeClient | null; timeoutMs?: number } = {}): Promise<OnlineAgent[]> {
  const client = options.client === undefined ? sessionRealtime() : options.client;
  if (!client) return Promise.reject(new Error('loadOnlineAgents: not signed in, no realtime client'));
  const live = client.subscribe<PresenceRecord>('presence', { filter: { field: 'online', op: '==', value: true } });
  return new Promise<OnlineAgent[]>((resolve, reject) => {
    const timer = setTimeout(() => finish(() => reject(new Error('loadOnlineAgents: no answer from /ws in time; is the realtime hub up?'))), options.timeoutMs ?? ONLINE_AGENTS_TIMEOUT_MS);
    function finish(done: () => void) {
      clearTimeout(timer);
      live.close();
      done();
    }
    live.onUpdate((update) => {
      if (update.kind === 'error') return finish(() => reject(new Error(`loadOnlineAgents: ${update.frame.errorMessage}`)));
      const agents = update.records.map((record) => ({
        id: record.id,
        displayName: record.displayName ?? record.email ?? record.id,
        email: record.email ?? '',
        photoUrl: record.photoUrl ?? null,
        // Online with no status chosen yet (only 'logon' so far) reads as the default, online.
        status: record.status ?? DEFAULT_STATUS,
      }));
      finish(() => resolve(agents));
    });
  });
}
