import { useEffect, useState } from 'react';
import { useConsole } from '../../ConsoleContext';

export interface DirectoryAgent {
  id: string;
  displayName: string;
  online: boolean;
}

/**
 * The tenant's agents for the internal-chat dialogs: the realtime `presence` collection (every
 * signed-in user may read it: 'Agentes Online' uses it too), open while the dialog is.
 */
export function useAgentDirectory(enabled: boolean): DirectoryAgent[] {
  const { live, user } = useConsole();
  const [agents, setAgents] = useState<DirectoryAgent[]>([]);
  useEffect(() => {
    if (!enabled) return;
    const sub = live.subscribe('presence', {});
    const off = sub.onUpdate((update) => {
      if (update.kind === 'error') return;
      setAgents(
        update.records
          .filter((r) => r.id !== user.id && r.active !== false)
          .map((r) => ({ id: r.id, displayName: String(r.displayName ?? r.email ?? r.id), online: Boolean(r.online) }))
          .sort((a, b) => a.displayName.localeCompare(b.displayName, 'pt-BR')),
      );
    });
    return () => {
      off();
      sub.close();
    };
  }, [enabled, live, user.id]);
  return agents;
}
