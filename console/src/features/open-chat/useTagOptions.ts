import { useEffect, useMemo, useState } from 'react';
import type { TagOption } from '@atendimento/schemas';
import { useConsole } from '../../ConsoleContext';
import type { LiveRecord } from '../../realtime/liveSource';
import { subscribeShared } from '../../realtime/sharedLive';

const TAGS_QUERY = { limit: 500 };

function tagOptionsOf(records: LiveRecord[]): TagOption[] {
  return records
    .map((r) => ({ id: r.id, name: String(r.name ?? ''), color: typeof r.color === 'string' ? r.color : null, department: typeof r.department === 'string' && r.department ? r.department : null, active: r.active !== false }))
    .sort((a, b) => a.name.localeCompare(b.name, 'pt-BR'));
}

/**
 * The tenant's tags (the tags dialog, the chips' colours): the realtime `tags` collection (every
 * signed-in user reads it, seed 001 §7 "Live reads"), one subscription shared by the list, each
 * open chat and the dialog (`subscribeShared`), held while `enabled`.
 */
export function useTagOptions(enabled: boolean): TagOption[] {
  const { live } = useConsole();
  const [tags, setTags] = useState<TagOption[]>([]);
  useEffect(() => {
    if (!enabled) return;
    const sub = subscribeShared(live, 'tags', TAGS_QUERY);
    // A later holder of the shared subscription: its records are already there.
    if (sub.state === 'live') setTags(tagOptionsOf(sub.records));
    const off = sub.onUpdate((update) => {
      if (update.kind === 'error') return;
      setTags(tagOptionsOf(update.records));
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
