import type { Clock } from '../../clock';
import type { Logger } from '../../logger';
import type { Db } from '../../db/knex';
import type { RoomRepository } from '../../db/repositories/room-repository';
import type { MessageRepository } from '../../db/repositories/message-repository';
import type { ChatContactRepository } from '../../db/repositories/chat-contact-repository';
import type { ChatDirectoryRepository } from '../../db/repositories/chat-directory-repository';
import type { ChangeFeed } from '../changes/change-feed';
import type { BlobStore } from '../files/blob-store';
import type { SenderFor } from './channel-senders';
import type { ChatHooks } from './chat-hooks';

/** What every chat service is built from (passed in, so tests can swap any of it). */
export interface ChatDeps {
  db: Db;
  feed: ChangeFeed;
  clock: Clock;
  logger: Logger;
  blobs: BlobStore;
  rooms: RoomRepository;
  messages: MessageRepository;
  contacts: ChatContactRepository;
  directory: ChatDirectoryRepository;
  senderFor: SenderFor;
  /** Where routing joins ingest and push (chat-hooks.ts); no-ops until a domain plugs in. */
  hooks: ChatHooks;
}

/** PostgreSQL unique_violation or SQLite's constraint errors: a race another writer won. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * Runs a write; if a unique index says another writer got there first (same external id,
 * same idempotency key, same open chat), runs it again so it finds the winner's row.
 */
export async function retryOnConflict<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await work();
    } catch (error) {
      if (i >= attempts || !isUniqueViolation(error)) throw error;
    }
  }
}
