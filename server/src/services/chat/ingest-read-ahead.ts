import { isWebchat, type Channel, type Room } from '@atendimento/schemas';
import type { Transaction } from '../../db/knex';
import type { ChatContact } from '../../db/repositories/chat-contact-repository';
import type { GroupRead } from '../changes/change-feed';
import type { ChatDeps } from './chat-deps';
import type { InboundItem } from './ingest-service';

/** One request's messages, as the group's reader receives them. */
interface IngestReadInput {
  tenantId: string;
  channel: Channel;
  items: InboundItem[];
}

type Bound = { boundId: string | null; contact: ChatContact | null };

/**
 * What a group commit's read-ahead found for one transaction. Each entry answers one lookup
 * only (the first message that asks): after it, that message may have changed the contact or
 * the room, so the next one reads the database again. A contact reached through two
 * identities is handed out once for the same reason.
 */
export interface IngestAhead {
  /** The binding of `key` as `findByIdentity` answers it; undefined when not read ahead. */
  contact(tenantId: string, channelId: string, key: string): Bound | undefined;
  /** The chat's open room as `findOpen` answers it (null: none); undefined when not read ahead. */
  openRoom(tenantId: string, channelId: string, chatId: string): Room | null | undefined;
  /** Forgets everything: a message that moves identities between contacts (a number change). */
  clear(): void;
}

/** Whether the read-ahead reads for this message: a customer's own message by phone, outside groups and web chat. */
function readsAhead(channel: Channel, item: InboundItem): boolean {
  return !isWebchat(channel.type) && !item.group && !item.content.system && Boolean(item.contact.phone);
}

const scopeKey = (tenantId: string, channelId: string, key: string) => `${tenantId}\u0001${channelId}\u0001${key}`;

/**
 * The ingest path's read-ahead (docs/ingest.md "Read-ahead"): when several webhooks share a
 * group commit, their contacts, open rooms (locked on PostgreSQL, in id order) and the
 * campaign targets of their numbers are read in one statement per kind before the first
 * message runs, instead of three round trips per message. `ingestOne` asks the transaction's
 * `IngestAhead` first and the database when it has no answer, so a lone webhook, the retry
 * with savepoints and every message the read-ahead skips take the same path as before.
 */
export function createIngestReadAhead(deps: Pick<ChatDeps, 'contacts' | 'rooms' | 'hooks'>) {
  const byTransaction = new WeakMap<Transaction, IngestAhead>();

  async function reader(trx: Transaction, inputs: IngestReadInput[]): Promise<void> {
    const wanted = new Map<string, { tenantId: string; channel: Channel; phones: Set<string> }>();
    for (const { tenantId, channel, items } of inputs) {
      for (const item of items) {
        if (!readsAhead(channel, item)) continue;
        const scope = `${tenantId}\u0001${channel.id}`;
        let entry = wanted.get(scope);
        if (!entry) wanted.set(scope, (entry = { tenantId, channel, phones: new Set() }));
        // The identity key is the user id when the provider sends one, else the phone; the chat is the phone.
        entry.phones.add(item.contact.phone!);
        if (item.contact.userId) entry.phones.add(item.contact.userId);
      }
    }
    const contacts = new Map<string, Bound>();
    const rooms = new Map<string, Room | null>();
    // Channels in one order in every group: their rooms' locks are taken in one order too.
    for (const scope of [...wanted.keys()].sort()) {
      const { tenantId, channel, phones } = wanted.get(scope)!;
      const keys = [...phones];
      const bound = await deps.contacts.findByIdentities(trx, tenantId, channel.id, keys);
      for (const key of keys) contacts.set(scopeKey(tenantId, channel.id, key), bound.get(key) ?? { boundId: null, contact: null });
      const open = await deps.rooms.findOpenMany(trx, tenantId, channel.id, keys);
      for (const key of keys) rooms.set(scopeKey(tenantId, channel.id, key), open.get(key) ?? null);
      await deps.hooks.prepareInbound?.(trx, tenantId, channel, keys);
    }
    const handed = new Set<string>();
    byTransaction.set(trx, {
      contact(tenantId, channelId, key) {
        const k = scopeKey(tenantId, channelId, key);
        const found = contacts.get(k);
        if (!found) return undefined;
        contacts.delete(k);
        const id = found.contact?.id;
        if (id && handed.has(`${tenantId}\u0001${id}`)) return undefined;
        if (id) handed.add(`${tenantId}\u0001${id}`);
        return found;
      },
      openRoom(tenantId, channelId, chatId) {
        const k = scopeKey(tenantId, channelId, chatId);
        const found = rooms.get(k);
        if (found === undefined) return undefined;
        rooms.delete(k);
        return found;
      },
      clear() {
        contacts.clear();
        rooms.clear();
      },
    });
  }

  return {
    /** The group's read for these messages (`feed.grouped`'s third argument). */
    read(tenantId: string, channel: Channel, items: InboundItem[]): GroupRead<IngestReadInput> {
      return { reader, input: { tenantId, channel, items } };
    },
    /** What the group read ahead for this transaction, if it did. */
    of(trx: Transaction): IngestAhead | undefined {
      return byTransaction.get(trx);
    },
  };
}
