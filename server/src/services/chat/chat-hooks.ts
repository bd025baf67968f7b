import type { Transaction } from '../../db/knex';
import type { Channel, Message, Room } from '@atendimento/schemas';
import type { RecordChange } from '../changes/change-feed';
import type { UserViewer } from './room-scope';

/**
 * The points where another domain (routing, docs/routing.md) joins the chat's writes. Each is
 * one call from the chat service that owns the write, inside its transaction where it must be
 * atomic with it. Without a domain plugged in they do nothing (`noChatHooks`).
 */
export interface ChatHooks {
  /** Ingest: the customer's message and its room are written; the room may still change here. */
  onInbound(trx: Transaction, record: RecordChange, tenantId: string, event: { room: Room; roomCreated: boolean; message: Message; channel: Channel }): Promise<void>;
  /**
   * Ingest's read-ahead (docs/ingest.md): the chats a group commit is about to ingest into, so
   * a domain can read what its `onInbound` will ask for all of them in one statement.
   */
  prepareInbound?(trx: Transaction, tenantId: string, channel: Channel, chatIds: string[]): Promise<void>;
  /**
   * Push could not read the room (`error`, a 404 for the caller): answers the refusal to give
   * instead, e.g. a 409 when a chat of the caller's queue was just taken by someone else.
   */
  pushRefused(trx: Transaction, tenantId: string, viewer: UserViewer, roomId: string, error: unknown): Promise<never>;
  /** Push, before it writes: may refuse the claim (409 taken by someone else, cap reached). */
  beforePush(trx: Transaction, tenantId: string, viewer: UserViewer, room: Room, targets: { id: string }[]): Promise<void>;
  /** Push, after it wrote `saved`: answers the room as it ends up in the transaction. */
  afterPush(trx: Transaction, record: RecordChange, tenantId: string, viewer: UserViewer, saved: Room, previous: Room): Promise<Room>;
  /** After commit: an agent left or closed chats of these departments (their queues may move). */
  afterRelease(tenantId: string, departmentIds: (string | null)[]): void;
}

export const noChatHooks: ChatHooks = {
  async onInbound() {},
  async pushRefused(_trx, _tenantId, _viewer, _roomId, error) {
    throw error;
  },
  async beforePush() {},
  async afterPush(_trx, _record, _tenantId, _viewer, saved) {
    return saved;
  },
  afterRelease() {},
};
