import { channelInfo, messageApiCan, messages } from '@atendimento/schemas';
import type { ChatMessage } from '../../model/chat';
import { AUTHOR_COLORS, LIMITS } from '../../ui/constants';

export type Delivery = 'waiting' | 'sent' | 'delivered' | 'read' | 'failed' | 'deleted';

function flag(status: ChatMessage['status'], key: 'sent' | 'delivered' | 'read' | 'failed' | 'deleted'): boolean {
  if (!status) return false;
  if (typeof status === 'string') return status === key;
  return Boolean(status[key]);
}

/**
 * Delivery indicator of seed 001 §4: waiting → sent → delivered → read; failed when the status
 * says so or nothing arrived 60 s after creation; deleted wins over everything.
 */
export function deliveryState(m: ChatMessage, now: number): Delivery {
  const s = m.status;
  if (flag(s, 'deleted')) return 'deleted';
  if (flag(s, 'failed')) return 'failed';
  if (flag(s, 'read')) return 'read';
  if (flag(s, 'delivered')) return 'delivered';
  if (flag(s, 'sent')) return 'sent';
  const created = Date.parse(m.lifeControl?.createdAt ?? '');
  if (!Number.isNaN(created) && now - created > LIMITS.failureAfterMs) return 'failed';
  return 'waiting';
}

/** First error's titleptBR or title, else 'Erro no Envio' (seed 001 §8). */
export function failureText(m: ChatMessage): string {
  const errors = typeof m.status === 'object' && m.status ? m.status.errors : null;
  const first = errors?.[0];
  return first?.titleptBR || first?.title || messages.chat.sendFailed;
}

export type AuthorKind = keyof typeof AUTHOR_COLORS;

/** Who wrote a message, for its colour and side (seed 001 §9). */
export function authorKind(m: ChatMessage, uid: string | null | undefined): AuthorKind {
  if (m.annotation || m.internal) return 'annotation';
  const type = m.author?.type ?? (m.from === 'bot' || m.from === 'cron' ? m.from : m.from === 'system' ? 'system' : 'client');
  if (type === 'bot' || type === 'cron') return 'bot';
  if (type === 'system' || type === 'webhook') return 'system';
  if (type === 'agent') return m.author?.id === uid ? 'ownAgent' : 'otherAgent';
  return 'client';
}

/** "Own" means author id equals the user's uid (seed 001 §6 "Message options"). */
export function isOwn(m: ChatMessage, uid: string | null | undefined): boolean {
  return Boolean(uid) && m.author?.id === uid;
}

const LAST_MESSAGE_LABELS: Record<string, string> = {
  image: 'Imagem',
  document: 'Documento',
  audio: 'Áudio',
  video: 'Vídeo',
  location: 'Localização',
  contact: 'Contato',
  contacts: 'Contato',
  card: 'Card',
  sticker: 'Sticker',
  call: 'Chamada',
};

/** Preview of a last message: its text, or the seed's label for media types. */
export function lastMessagePreview(last: { text?: string | null; type?: string | null } | null | undefined): string {
  if (!last) return '';
  if (last.text) return last.text;
  return LAST_MESSAGE_LABELS[last.type ?? ''] ?? '';
}

/** Call types of seed 001 §9. */
export const CALL_LABELS: Record<string, string> = { incoming: 'Recebida', outgoing: 'Iniciada', missed: 'Perdida' };


/** Which options a message offers (seed 001 §6 "Message options", §5 reactions). */
export function messageOptions(
  m: ChatMessage,
  ctx: { uid: string | null | undefined; internalRoom?: boolean; disableDeleteMessages?: boolean; channel?: string | null; channelMigrated?: boolean },
): { reply: boolean; edit: boolean; remove: boolean; react: boolean } {
  if (ctx.internalRoom || m.id.startsWith('pending:')) return { reply: false, edit: false, remove: false, react: false };
  const api = (isOwn(m, ctx.uid) ? m.from : m.to) ?? m.from ?? 'vueJs';
  const own = isOwn(m, ctx.uid);
  const deleted = deliveryState(m, 0) === 'deleted';
  const fromProduct = m.author?.type === 'agent' || m.author?.type === 'bot' || m.author?.type === 'system';
  const reactions = channelInfo(ctx.channel)?.reactions ?? 'all';
  const react = !deleted && reactions !== 'none' && !(reactions === 'contactOnly' && fromProduct) && !(reactions === 'migratedOnly' && !ctx.channelMigrated);
  return {
    reply: !deleted && messageApiCan(api, 'canReply'),
    edit: own && !deleted && m.type === 'text' && messageApiCan(m.from ?? 'vueJs', 'canEdit') && Boolean(m.messageExtId ?? m.id),
    remove: own && !deleted && !ctx.disableDeleteMessages && messageApiCan(m.from ?? 'vueJs', 'canEdit'),
    react,
  };
}

/** Distinct reaction emoji of a message (all reactions, else the last one). */
export function reactionList(m: ChatMessage): string[] {
  const out: string[] = [];
  for (const x of m.reactions ?? []) if (x.emoji && !out.includes(x.emoji)) out.push(x.emoji);
  if (out.length === 0 && m.reaction) out.push(m.reaction);
  return out;
}
