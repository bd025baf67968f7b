import { useEffect, useState } from 'react';
import { useConsole } from '../../ConsoleContext';

export interface LiveOption {
  id: string;
  label: string;
}

/**
 * Options for a filter from a console live collection every signed-in user reads (users,
 * departaments, tags, channels), open only while `enabled` (the filter menu is open).
 */
export function useLiveOptions(collection: 'users' | 'departaments' | 'tags' | 'channels', enabled: boolean): LiveOption[] {
  const { live } = useConsole();
  const [options, setOptions] = useState<LiveOption[]>([]);
  useEffect(() => {
    if (!enabled) return;
    const sub = live.subscribe(collection, { limit: 500 });
    const off = sub.onUpdate((update) => {
      if (update.kind === 'error') return;
      setOptions(
        update.records
          .filter((r) => r.active !== false)
          .map((r) => ({ id: r.id, label: String(r.displayName ?? r.name ?? r.id) }))
          .sort((a, b) => a.label.localeCompare(b.label, 'pt-BR')),
      );
    });
    return () => {
      off();
      sub.close();
    };
  }, [collection, enabled, live]);
  return options;
}
