import { useEffect, useMemo, useState } from 'react';
import type { TagOption } from '@atendimento/schemas';
import { useConsole } from '../../ConsoleContext';

/**
 * The tenant's tags for the tags dialog: the realtime `tags` collection (every signed-in user
 * reads it, seed 001 §7 "Live reads"), open while the dialog is.
 */
export function useTagOptions(enabled: boolean): TagOption[] {
  const { live } = useConsole();
  const [tags, setTags] = useState<TagOption[]>([]);
  useEffect(() => {
    if (!enabled) return;
    const sub = live.subscribe('tags', { limit: 500 });
    const off = sub.onUpdate((update) => {
      if (update.kind === 'error') return;
      setTags(
        update.records
          .map((r) => ({ id: r.id, name: String(r.name ?? ''), color: typeof r.color === 'string' ? r.color : null, department: typeof r.department === 'string' && r.department ? r.department : null, active: r.active !== false }))
          .sort((a, b) => a.name.localeCompare(b.name, 'pt-BR')),
      );
    });
    return () => {
      off();
      sub.close();
    };
  }, [enabled, live]);
  return tags;
}

/** Tag id → colour, for the tag chips of cards and chat headers (the same live `tags` collection). */
export function useTagColors(): Record<string, string | null> {
  const tags = useTagOptions(true);
  return useMemo(() => Object.fromEntries(tags.map((t) => [t.id, t.color ?? null])), [tags]);
}
