import { useEffect } from 'react';
import { availableChatTabs, messages as seedTexts } from '@atendimento/schemas';
import { useConsole } from '../../ConsoleContext';

/**
 * 'Novo Chat de grupo' (seed 001 §4 notifications): while the console is open, an internal group
 * (more than 2 agents) that someone else started with this agent is announced once. The 'Interno'
 * tab's live list is the source, so it follows the server's visibility (members only).
 */
export function useGroupChatNotifications(): void {
  const { live, user, appConfig, notify } = useConsole();
  const enabled = availableChatTabs(user, appConfig).includes('internalChats');
  useEffect(() => {
    if (!enabled) return;
    const sub = live.subscribe('rooms', { tab: 'internalChats' });
    const announced = new Set<string>();
    const off = sub.onUpdate((update) => {
      if (update.kind !== 'changes') return;
      for (const r of update.frame.added ?? []) {
        const agents = (r.agents as { id: string }[] | undefined) ?? [];
        const author = (r.author as { id?: string } | undefined)?.id;
        if (agents.length > 2 && author !== user.id && !announced.has(r.id)) {
          announced.add(r.id);
          notify(seedTexts.chat.newGroupChatNotification, 'info');
        }
      }
    });
    return () => {
      off();
      sub.close();
    };
  }, [enabled, live, user.id, notify]);
}
