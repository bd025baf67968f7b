import type { Transaction } from '../../db/knex';
import { messages as texts, type Message, type MessageAuthor, type Room } from '@atendimento/schemas';
import type { Clock } from '../../clock';
import type { RoomRepository } from '../../db/repositories/room-repository';
import type { MessageRepository } from '../../db/repositories/message-repository';
import type { RecordChange } from '../changes/change-feed';
import type { SenderFor } from '../chat/channel-senders';
import { newId } from '../chat/ids';
import { lastMessageOf, newMessage } from '../chat/room-factory';

/** The author of every automatic action: the system note and what it sends the customer. */
export function systemAuthor(type: 'system' | 'cron' = 'system'): MessageAuthor {
  return { id: 'system', displayName: texts.routing.systemAuthor, type };
}

/**
 * What an automatic message does to its room: the card shows it as the last message but the
 * room keeps its unread state and counters (an automatic answer is not an agent's answer, so
 * the waiting time keeps counting and Fila still shows the customer unread).
 */
export function applyAutomatic(room: Room, message: Message): Room {
  const unread = room.lastMessage?.unread ?? false;
  const at = message.lifeControl.createdAt;
  return {
    ...room,
    // The card keeps the customer's words while they wait: 'Recebemos sua mensagem' on every
    // card of the queue hid what each customer asked.
    lastMessage: room.lastMessage?.author.type === 'client' ? room.lastMessage : lastMessageOf(message, unread),
    lastMessageAt: at > room.lastMessageAt ? at : room.lastMessageAt,
    lifeControl: { ...room.lifeControl, updatedAt: at },
  };
}

/**
 * A room being changed by automatic actions inside one transaction: messages are written as
 * they come, the room once at the end (`save`), and what must go out through the channel
 * after the commit is collected in `outbox`.
 */
export interface RoomDraft {
  readonly original: Room;
  room: Room;
  outbox: string[];
  /** Notes kept for one multi-row insert (`flushNotes`) instead of one statement each. */
  deferred?: Message[];
}

export function draftOf(room: Room, options: { deferNotes?: boolean } = {}): RoomDraft {
  return { original: room, room, outbox: [], ...(options.deferNotes && { deferred: [] }) };
}

export function createRoutingMessages(deps: { rooms: RoomRepository; messages: MessageRepository; senderFor: SenderFor; clock: Clock }) {
  const { rooms, messages, clock } = deps;

  async function insert(trx: Transaction, record: RecordChange, tenantId: string, draft: RoomDraft, message: Message): Promise<Message> {
    const inProcess = message.annotation || deps.senderFor(draft.room)?.inProcess === true;
    const stored: Message = inProcess ? { ...message, status: { sent: true, sentAt: message.lifeControl.createdAt } } : message;
    await messages.insert(trx, tenantId, stored);
    record({ collection: 'messages', id: stored.id, op: 'upsert' });
    if (!inProcess) draft.outbox.push(stored.id);
    return stored;
  }

  /**
   * A message to the customer through the chat's channel (delivered after the commit); false
   * when nothing was sent. Never into an internal chat, nor into a WhatsApp group: a group is
   * many people, and an automatic answer, a rule's reminder or a closing notice would go to
   * every member (the agents' notes still say what happened).
   */
  async function toCustomer(trx: Transaction, record: RecordChange, tenantId: string, draft: RoomDraft, text: string, type: 'system' | 'cron' = 'system'): Promise<boolean> {
    if (draft.room.internal || draft.room.group) return false;
    const message = newMessage({ id: newId(), room: draft.room, author: systemAuthor(type), type: 'text', text, now: clock.now().toISOString(), fromContact: false });
    const stored = await insert(trx, record, tenantId, draft, message);
    draft.room = applyAutomatic(draft.room, stored);
    return true;
  }

  return {
    /** A system note in the chat (agents and supervisors read it live; the customer never does). */
    async note(trx: Transaction, record: RecordChange, tenantId: string, draft: RoomDraft, text: string): Promise<void> {
      const message = newMessage({ id: newId(), room: draft.room, author: systemAuthor(), type: 'text', text, now: clock.now().toISOString(), fromContact: false, annotation: true });
      if (draft.deferred) {
        draft.deferred.push({ ...message, status: { sent: true, sentAt: message.lifeControl.createdAt } });
        record({ collection: 'messages', id: message.id, op: 'upsert' });
        return;
      }
      await insert(trx, record, tenantId, draft, message);
    },

    /** Writes the deferred notes of these drafts in one statement per 100. */
    async flushNotes(trx: Transaction, tenantId: string, drafts: RoomDraft[]): Promise<void> {
      const notes = drafts.flatMap((d) => d.deferred ?? []);
      if (notes.length) await messages.insertMany(trx, tenantId, notes);
      for (const d of drafts) if (d.deferred) d.deferred.length = 0;
    },

    toCustomer,

    /**
     * Closes the chat as the close dialog does (the customer is told, nobody attends any more),
     * with the system as the closer and `justify` as its justification; `obs` says why.
     */
    async close(trx: Transaction, record: RecordChange, tenantId: string, draft: RoomDraft, justify: string, obs: string): Promise<void> {
      if (!draft.room.internal && draft.room.channel !== 'mail') await toCustomer(trx, record, tenantId, draft, texts.chatServer.closedNotice);
      const now = clock.now().toISOString();
      const current = draft.room;
      draft.room = {
        ...current,
        active: false,
        inAttend: false,
        agents: [],
        onHold: { active: false, message: null },
        unreadCount: 0,
        lastMessage: current.lastMessage ? { ...current.lastMessage, unread: false } : null,
        replyTo: null,
        closedBy: { id: 'system', displayName: texts.routing.systemAuthor, justify, obs, nextContact: null, closedAt: now, noMessage: false, mass: false },
      };
    },

    /** Writes the room if anything changed it. */
    async save(trx: Transaction, record: RecordChange, tenantId: string, draft: RoomDraft): Promise<Room> {
      if (draft.room === draft.original) return draft.room;
      const next = { ...draft.room, lifeControl: { ...draft.room.lifeControl, updatedAt: clock.now().toISOString() } };
      await rooms.save(trx, tenantId, next, draft.original);
      record({ collection: 'rooms', id: next.id, op: 'upsert' });
      return next;
    },
  };
}

export type RoutingMessages = ReturnType<typeof createRoutingMessages>;
