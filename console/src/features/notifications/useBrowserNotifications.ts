import { useEffect } from 'react';
import { availableChatTabs, type RoomTabId } from '@atendimento/schemas';
import { useConsole } from '../../ConsoleContext';
import type { LiveRecord } from '../../realtime/liveSource';
import { roomNotices, type BrowserNotice } from './roomNotifications';

/** The lists whose changes are announced: the agent's own chats, the queue, internal groups. */
const WATCHED: { tab: RoomTabId; kind: 'chats' | 'internal' }[] = [
  { tab: 'userChats', kind: 'chats' },
  { tab: 'queuesChats', kind: 'chats' },
  { tab: 'internalChats', kind: 'internal' },
];

/** Tenant claim or user claim disableNotifications turns the browser notifications off (seed 001 §6). */
export function notificationsEnabled(user: { claims?: Record<string, unknown> | null }, config: { claims?: Record<string, unknown> | null }): boolean {
  return !config.claims?.disableNotifications && !user.claims?.disableNotifications;
}

function show(notice: BrowserNotice): void {
  // Only while the console is not looked at: a visible page shows the chat itself.
  if (typeof document === 'undefined' || document.visibilityState !== 'hidden') return;
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  try {
    new Notification(notice.title, { body: notice.body, tag: notice.tag });
  } catch {
    // Some browsers allow notifications only from a service worker: nothing else to do.
  }
}

/**
 * Browser notifications of the console (seed 001 §4): 'Novo Chat' and 'Nova Mensagem - {author}'
 * from the agent's chats and queue, 'Novo Chat de grupo' from internal groups. Each list is
 * watched with its own live subscription, whatever tab is on screen; the first snapshot and
 * resumed frames (a reconnect replaying what happened meanwhile) announce nothing.
 */
export function useBrowserNotifications(): void {
  const { live, user, appConfig } = useConsole();
  const enabled = notificationsEnabled(user, appConfig);
  const tabs = availableChatTabs(user, appConfig).join(',');
  useEffect(() => {
    if (!enabled) return;
    const offered = new Set(tabs.split(','));
    const closers: (() => void)[] = [];
    for (const { tab, kind } of WATCHED) {
      if (!offered.has(tab)) continue;
      const sub = live.subscribe('rooms', { tab });
      let known = new Map<string, LiveRecord>();
      const off = sub.onUpdate((update) => {
        if (update.kind === 'error') return;
        if (update.kind === 'changes' && !update.frame.resumed) {
          for (const notice of roomNotices(kind, known, update.frame.added ?? [], update.frame.modified ?? [], user.id)) show(notice);
        }
        known = new Map(update.records.map((r) => [r.id, r]));
      });
      closers.push(() => {
        off();
        sub.close();
      });
    }
    return () => closers.forEach((close) => close());
  }, [enabled, tabs, live, user.id]);
}
