import { messages as texts, type Room } from '@atendimento/schemas';
import type { Transaction } from '../../db/knex';
import type { RecordChange } from '../changes/change-feed';
import type { ChatDeps } from './chat-deps';
import { newId } from './ids';
import { newMessage } from './room-factory';

/**
 * An internal note by 'Sistema' in a chat (who added whom, who restarted the bot...): agents
 * see it in the chat's history, the customer never gets it (annotation).
 */
export async function postSystemNote(deps: Pick<ChatDeps, 'clock' | 'messages'>, trx: Transaction, record: RecordChange, tenantId: string, room: Room, text: string): Promise<void> {
  const now = deps.clock.now().toISOString();
  const message = newMessage({ id: newId(), room, author: { id: 'system', displayName: texts.routing.systemAuthor, type: 'system' }, type: 'text', text, now, fromContact: false, annotation: true });
  await deps.messages.insert(trx, tenantId, { ...message, status: { sent: true, sentAt: now } });
  record({ collection: 'messages', id: message.id, op: 'upsert' });
}
