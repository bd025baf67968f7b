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
