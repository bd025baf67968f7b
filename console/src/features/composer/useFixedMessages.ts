import { useEffect, useState } from 'react';
import { hasTenantClaim } from '@atendimento/schemas';
import { useConsole } from '../../ConsoleContext';
import { chatPaths, type FixedMessage } from '../../model/chatApi';

/**
 * The fixed messages this user may use (the server scopes them: own and global ones, or all for
 * admins), loaded once when the app claim fixedMessages is on and the agent first types '/'.
 */
export function useFixedMessages(wanted: boolean, options: { always?: boolean } = {}): FixedMessage[] {
  const { api, appConfig } = useConsole();
  // The on-hold dialog chooses among fixed messages whatever the composer's '/' claim says.
  const enabled = options.always === true || hasTenantClaim(appConfig, 'fixedMessages');
  const [items, setItems] = useState<FixedMessage[] | null>(null);
  useEffect(() => {
    if (!enabled || !wanted || items) return;
    let live = true;
    api
      .request<FixedMessage[] | { data: FixedMessage[] }>(chatPaths.fixedMessages(), { notify: false })
      .then(({ body }) => live && setItems((Array.isArray(body) ? body : body?.data ?? []).filter((f) => f.active !== false)))
      .catch(() => live && setItems([]));
    return () => {
      live = false;
    };
  }, [api, enabled, wanted, items]);
  return enabled ? items ?? [] : [];
}

/** Seed 001 §5: the text after '/' matches message or tag, case-insensitive. */
export function filterFixedMessages(items: FixedMessage[], text: string): FixedMessage[] {
  if (!text.startsWith('/')) return [];
  const term = text.slice(1).toLowerCase();
  return items.filter((f) => (f.message ?? '').toLowerCase().includes(term) || (f.tag ?? '').toLowerCase().includes(term));
}

/** A fixed message whose tag is the whole text, exactly '/tag' (confirmed with Enter, Tab or a space). */
export function exactTag(items: FixedMessage[], text: string): FixedMessage | null {
  if (!text.startsWith('/') || text.length < 2) return null;
  return items.find((f) => f.tag && `/${f.tag}` === text) ?? null;
}
