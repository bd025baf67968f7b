import { format, messages } from '@atendimento/schemas';
import type { LiveRecord } from '../../realtime/liveSource';

export interface BrowserNotice {
  title: string;
  body: string;
  /** One notice per chat and kind: a newer one replaces it in the system tray. */
  tag: string;
}

type RoomLike = {
  id: string;
  author?: { id?: string; displayName?: string | null } | null;
  agents?: { id: string }[] | null;
  lastMessage?: { messageId?: string | null; text?: string | null; author?: { type?: string } | null } | null;
};

/**
 * What a change of one of the agent's live lists announces (seed 001 §4 notifications):
 * 'Novo Chat' for a chat that joins the list, 'Nova Mensagem - {author}' for a customer's new
 * last message on a chat already there, 'Novo Chat de grupo' for an internal group (more than 2
 * agents) someone else started. `before` is the list as it was before the change.
 */
export function roomNotices(kind: 'chats' | 'internal', before: ReadonlyMap<string, LiveRecord>, added: LiveRecord[], modified: LiveRecord[], me: string): BrowserNotice[] {
  const out: BrowserNotice[] = [];
  for (const record of added) {
    const r = record as unknown as RoomLike;
    if (before.has(r.id)) continue;
    if (kind === 'internal') {
      if ((r.agents?.length ?? 0) > 2 && r.author?.id !== me) out.push({ title: messages.chat.newGroupChatNotification, body: '', tag: `group:${r.id}` });
      continue;
    }
    out.push({ title: messages.chat.newChatNotification, body: r.author?.displayName ?? '', tag: `chat:${r.id}` });
  }
  if (kind === 'chats') {
    for (const record of modified) {
      const r = record as unknown as RoomLike;
      const prev = before.get(r.id) as unknown as RoomLike | undefined;
      const last = r.lastMessage;
      if (!prev || !last?.messageId || last.messageId === prev.lastMessage?.messageId || last.author?.type !== 'client') continue;
      out.push({ title: format(messages.chat.newMessageNotification, { author: r.author?.displayName ?? '' }), body: last.text ?? '', tag: `message:${r.id}` });
    }
  }
  return out;
}
