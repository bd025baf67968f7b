import { folderHasMessageId } from '@atendimento/integrations/mail/imap-inbox';
import { channelTypes, type MailboxSettings } from '@atendimento/schemas';
import type { Db } from '../../db/knex';
import { createChannelProviderRepository } from '../../db/repositories/channel-provider-repository';
import { createMailRepository, type MailRepository } from '../../db/repositories/mail-repository';
import type { Logger } from '../../logger';
import type { Chat } from '../chat';
import type { BlobStore } from '../files/blob-store';
import { createMailIngest } from './mail-ingest';
import { createMailReplyService } from './mail-reply-service';
import { createMailSender, type MailSender } from './mail-sender';
import { createMailboxWatcher, type MailboxWatcher } from './mailbox-watcher';
import { mailboxSettingsOf } from './mailbox-settings';

/** The types whose row names the mail adapter (schemas/src/chat/channel.ts). */
const mailTypes = () => channelTypes((c) => c.adapter === 'mail');

/**
 * The outbound half, built before the chat domain so its message service can deliver mail
 * replies (services/chat/channel-senders.ts `byAdapter`).
 */
export function createMailOutbound(deps: { db: Db; blobs: BlobStore; logger: Logger }): { sender: MailSender; repo: MailRepository } {
  return { sender: createMailSender({ channels: createChannelProviderRepository(deps.db), blobs: deps.blobs, logger: deps.logger }), repo: createMailRepository(deps.db) };
}

/**
 * The e-mail channel (docs/email.md), wired on top of the chat domain: one watcher per active
 * mail channel (IMAP in), the reply service (SMTP out through the chat's sends) and, when a
 * watcher first connects in this process, the recovery of replies a restart cut mid-send.
 * `refresh()` starts, restarts and stops watchers to match the channels' settings; `start()`
 * does it now and every `reconcileMs`.
 */
export function createMail(options: { chat: Chat; outbound: { sender: MailSender; repo: MailRepository }; backoff?: { firstMs: number; maxMs: number } }) {
  const { chat, outbound } = options;
  const { deps } = chat;
  const mail = outbound.repo;
  const channels = createChannelProviderRepository(deps.db);
  const ingest = createMailIngest({ ...deps, mail });
  const replies = createMailReplyService({ chat, mail, sender: outbound.sender });
  const watchers = new Map<string, { watcher: MailboxWatcher; fingerprint: string }>();
  const startedAt = deps.clock.now().toISOString();
  let timer: NodeJS.Timeout | null = null;
  let refreshing: Promise<void> | null = null;

  /** Replies stored before this process started and never answered by SMTP: sent once more unless the Sent folder has them. */
  async function recoverReplies(tenantId: string, channelId: string, settings: MailboxSettings): Promise<void> {
    for (const id of await mail.unsentReplies(tenantId, channelId)) {
      const message = await deps.messages.findById(tenantId, id);
      if (!message?.mail || message.lifeControl.createdAt >= startedAt) continue;
      if (await folderHasMessageId(settings.imap, settings.imap.sentMailbox ?? 'Sent', message.mail.messageId)) {
        await chat.messages.applyStatus(tenantId, id, 'sent', undefined, message.mail.messageId);
        continue;
      }
      await chat.messages.dispatch(tenantId, id);
    }
  }

  async function reconcile(): Promise<void> {
    const wanted = new Map<string, { tenantId: string; channelId: string; settings: MailboxSettings }>();
    for (const { tenantId, channelId } of await mail.activeMailChannels(mailTypes())) {
      const found = await channels.findActive(tenantId, channelId);
      const settings = found ? mailboxSettingsOf(found.settings) : null;
      if (settings) wanted.set(`${tenantId}\u0001${channelId}`, { tenantId, channelId, settings });
    }
    for (const [key, current] of [...watchers]) {
      const next = wanted.get(key);
      if (!next || JSON.stringify(next.settings) !== current.fingerprint) {
        watchers.delete(key);
        await current.watcher.stop();
      }
    }
    for (const [key, { tenantId, channelId, settings }] of wanted) {
      if (watchers.has(key)) continue;
      const channel = await deps.directory.channel(tenantId, channelId);
      if (!channel) continue;
      let recovered = false;
      const watcher = createMailboxWatcher({
        tenantId, channel, settings, ingest, mail, clock: deps.clock, logger: deps.logger, backoff: options.backoff,
        onConnected: async () => {
          if (recovered) return;
          recovered = true;
          await recoverReplies(tenantId, channelId, settings);
        },
      });
      watchers.set(key, { watcher, fingerprint: JSON.stringify(settings) });
      watcher.start();
    }
  }

  return {
    ingest,
    replies,
    sender: outbound.sender,
    /** Matches the watchers to the mail channels now (after an admin changed one; tests). */
    refresh(): Promise<void> {
      refreshing ??= reconcile().finally(() => {
        refreshing = null;
      });
      return refreshing;
    },
    /** The watcher of a channel (tests wait on it). */
    watcher(tenantId: string, channelId: string): MailboxWatcher | null {
      return watchers.get(`${tenantId}\u0001${channelId}`)?.watcher ?? null;
    },
    start(reconcileMs = 30_000): void {
      void this.refresh().catch((err) => deps.logger.error({ err }, 'mail.refresh_failed'));
      timer = setInterval(() => void this.refresh().catch((err) => deps.logger.error({ err }, 'mail.refresh_failed')), reconcileMs);
      timer.unref?.();
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = null;
      await refreshing?.catch(() => undefined);
      for (const { watcher } of watchers.values()) await watcher.stop();
      watchers.clear();
    },
  };
}

export type Mail = ReturnType<typeof createMail>;
