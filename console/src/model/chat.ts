/**
 * The chat shapes the console reads: the shared contract of schemas/src/chat (so console and
 * server cannot drift), plus the contact fields the drawer shows (contacts are a register).
 */
import type { Message } from '@atendimento/schemas';

export type {
  Room,
  RoomAgent,
  RoomQueue,
  LastMessage,
  MessageAuthor as Author,
  MessageStatus as DeliveryStatus,
  MessageReaction,
  ChatTabId,
  RoomTabId,
  Channel,
} from '@atendimento/schemas';

/**
 * A message as the console holds it: the API's Message, plus `idempotencyKey` on an own send
 * shown before the server answered, and the transfer details of system messages.
 */
export type ChatMessage = Omit<Message, 'type'> & {
  /** MessageType, or a type this console does not know yet (rendered as a placeholder). */
  type: Message['type'] | (string & {});
  idempotencyKey?: string | null;
  transfer?: { transferTo?: { id: string; displayName?: string | null }[]; transferFrom?: { id: string; displayName?: string | null }[]; transferBy?: { id: string; displayName?: string | null }; transferObs?: string; transferJustify?: string } | null;
};

export interface Contact {
  id: string;
  displayName?: string | null;
  phone?: string | null;
  email?: string | null;
  photoUrl?: string | null;
  channels?: string[] | null;
  clientsName?: string[] | null;
  agents?: (string | { id: string; displayName?: string })[] | null;
  group?: boolean | null;
  active?: boolean | null;
  blockedSending?: boolean | null;
  blockedReceiving?: boolean | null;
  autoBlocked?: boolean | null;
  lifeControl?: { createdAt: string; deletedAt?: string | null } | null;
}
