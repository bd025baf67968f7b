import { openImapInbox, type ImapInbox } from '@atendimento/integrations/mail/imap-inbox';
import type { Channel, MailboxSettings } from '@atendimento/schemas';
import type { Clock } from '../../clock';
import type { Logger } from '../../logger';
import type { MailRepository } from '../../db/repositories/mail-repository';
import type { MailIngest } from './mail-ingest';

export interface WatcherOptions {
  tenantId: string;
  channel: Channel;
  settings: MailboxSettings;
  ingest: MailIngest;
  mail: MailRepository;
  clock: Clock;
  logger: Logger;
  /** Reconnect back-off: first wait, then doubling up to the max. */
  backoff?: { firstMs: number; maxMs: number };
  /** Once per connection, after it is up (the recovery of replies a restart cut). */
  onConnected?: () => Promise<void>;
}

/**
 * One mailbox folder kept in sync (docs/email.md "Receiving"): connect, store every UID above
 * the last one stored (one message at a time, the resume point saved after each), then wait
 * for IDLE news or the poll timer; on a disconnect, reconnect with back-off and resume from the
 * saved UID. A UIDVALIDITY change resets the resume point to 0: the folder is read again and
 * the Message-ID index keeps what was stored from being stored twice.
 */
export function createMailboxWatcher(options: WatcherOptions) {
  const { tenantId, channel, settings, ingest, mail, clock, logger } = options;
  const folder = settings.imap.mailbox ?? 'INBOX';
  const backoff = options.backoff ?? { firstMs: 1000, maxMs: 30_000 };
  const log = { tenantId, channelId: channel.id };
  let inbox: ImapInbox | null = null;
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  let retryTimer: NodeJS.Timeout | null = null;
  let pollTimer: NodeJS.Timeout | null = null;
  let failures = 0;

  async function syncOnce(box: ImapInbox): Promise<void> {
    const state = await mail.mailboxState(tenantId, channel.id, folder);
    let lastUid = state?.lastUid ?? 0;
    if (!state || state.uidValidity !== box.uidValidity) {
      if (state) logger.warn({ ...log, from: state.uidValidity, to: box.uidValidity }, 'mail.uidvalidity_changed');
      lastUid = 0;
      await mail.saveMailboxState(tenantId, channel.id, folder, { uidValidity: box.uidValidity, lastUid }, clock.now().toISOString());
    }
    for (const uid of await box.newUids(lastUid)) {
      if (stopped || inbox !== box) return;
      const raw = await box.fetchRaw(uid);
      if (raw) {
        const result = await ingest.ingestRaw(tenantId, channel, settings, raw);
        if (result.created) logger.info({ ...log, uid, roomId: result.roomId }, 'mail.stored');
      }
      await mail.saveMailboxState(tenantId, channel.id, folder, { uidValidity: box.uidValidity, lastUid: uid }, clock.now().toISOString());
    }
  }

  /** Runs a sync now, or once more right after the one running. */
  function sync(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    const box = inbox;
    if (!box) return Promise.resolve();
    running = (async () => {
      try {
        do {
          again = false;
          await syncOnce(box);
        } while (again && !stopped && inbox === box);
      } catch (error) {
        logger.warn({ ...log, err: error }, 'mail.sync_failed');
        // A broken connection reconnects through its close event; anything else retries later.
        if (inbox === box) scheduleRetry(() => void sync());
      } finally {
        running = null;
      }
    })();
    return running;
  }

  function scheduleRetry(run: () => void): void {
    if (stopped || retryTimer) return;
    const wait = Math.min(backoff.maxMs, backoff.firstMs * 2 ** Math.min(failures, 10));
    failures += 1;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      run();
    }, wait);
    retryTimer.unref?.();
  }

  async function connect(): Promise<void> {
    if (stopped) return;
    try {
      const box = await openImapInbox(settings.imap, logger);
      if (stopped) {
        await box.close();
        return;
      }
      inbox = box;
      box.onNewMail(() => void sync());
      box.onClose((error) => {
        if (inbox !== box) return;
        inbox = null;
        if (!stopped) {
          logger.warn({ ...log, err: error }, 'mail.imap_disconnected');
          scheduleRetry(() => void connect());
        }
      });
      failures = 0;
      logger.info({ ...log, idle: box.idle }, 'mail.imap_connected');
      await sync();
      await options.onConnected?.().catch((err) => logger.warn({ ...log, err }, 'mail.recovery_failed'));
    } catch (error) {
      logger.warn({ ...log, err: error }, 'mail.imap_connect_failed');
      scheduleRetry(() => void connect());
    }
  }

  return {
    start(): void {
      void connect();
      pollTimer = setInterval(() => void sync(), (settings.pollSeconds ?? 60) * 1000);
      pollTimer.unref?.();
    },
    /** Syncs now (tests, an admin's 'check now'); resolves when the folder is read. */
    async syncNow(): Promise<void> {
      await sync();
    },
    /** True while the IMAP connection is up. */
    connected(): boolean {
      return inbox !== null;
    },
    async stop(): Promise<void> {
      stopped = true;
      if (retryTimer) clearTimeout(retryTimer);
      if (pollTimer) clearInterval(pollTimer);
      const box = inbox;
      inbox = null;
      await running?.catch(() => undefined);
      await box?.close().catch(() => undefined);
    },
  };
}

export type MailboxWatcher = ReturnType<typeof createMailboxWatcher>;
