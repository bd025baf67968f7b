import { ImapFlow } from 'imapflow';
import type { MailboxSettings } from '@atendimento/schemas';

/**
 * A mailbox over IMAP (imapflow), as the mail channel needs it: the UIDVALIDITY of the folder,
 * the UIDs after the last one stored, one message's raw bytes at a time, and a signal when new
 * mail arrives. imapflow IDLEs by itself while nothing else runs when the server offers IDLE,
 * and falls back to NOOP polling otherwise; the caller also syncs on a timer.
 */

interface MailLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export interface ImapInbox {
  /** UIDVALIDITY of the open folder: when it changes, stored UIDs mean nothing any more. */
  readonly uidValidity: string;
  /** The server offers IDLE (otherwise new mail is found by polling). */
  readonly idle: boolean;
  /** UIDs above `afterUid`, ascending. */
  newUids(afterUid: number): Promise<number[]>;
  /** The raw message, or null when it was expunged meanwhile. */
  fetchRaw(uid: number): Promise<Buffer | null>;
  /** Called when the server reports new messages (IDLE EXISTS or a poll). */
  onNewMail(listener: () => void): void;
  /** Called once when the connection ends (error or logout). */
  onClose(listener: (error?: Error) => void): void;
  close(): Promise<void>;
}

type ImapSettings = MailboxSettings['imap'];

function client(settings: ImapSettings, options: { idleMs?: number } = {}): ImapFlow {
  return new ImapFlow({
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    auth: { user: settings.user, pass: settings.password },
    logger: false,
    // A dead peer must not hang a sync forever.
    socketTimeout: 5 * 60_000,
    connectionTimeout: 30_000,
    greetingTimeout: 15_000,
    // Servers drop IDLE after ~30 min; restarting it sooner keeps the connection alive behind NAT.
    maxIdleTime: options.idleMs ?? 5 * 60_000,
    missingIdleCommand: 'NOOP',
    // IDLE soon after each sync, so new mail shows within a second, not after imapflow's 15 s default.
    autoIdleDelay: 250,
  });
}

/** Connects, opens the folder (default INBOX) and answers the inbox. */
export async function openImapInbox(settings: ImapSettings, logger: MailLogger): Promise<ImapInbox> {
  const imap = client(settings);
  const closeListeners: ((error?: Error) => void)[] = [];
  const newMailListeners: (() => void)[] = [];
  let lastError: Error | undefined;
  imap.on('error', (error: Error) => {
    lastError = error;
    logger.warn({ err: error, host: settings.host }, 'mail.imap_error');
  });
  imap.on('close', () => {
    for (const listener of closeListeners.splice(0)) listener(lastError);
  });
  imap.on('exists', () => {
    for (const listener of newMailListeners) listener();
  });
  await imap.connect();
  const box = await imap.mailboxOpen(settings.mailbox || 'INBOX');
  return {
    uidValidity: String(box.uidValidity),
    idle: imap.capabilities.has('IDLE'),
    async newUids(afterUid) {
      // An explicit upper bound, not '*': `n:*` includes the highest UID even below n (RFC 3501),
      // and imapflow resolves '*' from the folder state it last saw, which lags behind IDLE news.
      const found = await imap.search({ uid: `${afterUid + 1}:4294967295` }, { uid: true });
      return (Array.isArray(found) ? found : []).filter((uid) => uid > afterUid).sort((a, b) => a - b);
    },
    async fetchRaw(uid) {
      const message = await imap.fetchOne(String(uid), { source: true }, { uid: true });
      return message && message.source ? Buffer.from(message.source) : null;
    },
    onNewMail(listener) {
      newMailListeners.push(listener);
    },
    onClose(listener) {
      if (!imap.usable) {
        listener(lastError);
        return;
      }
      closeListeners.push(listener);
    },
    async close() {
      try {
        await imap.logout();
      } catch {
        imap.close();
      }
    },
  };
}

/** Appends a message to a folder (our sent replies), creating the folder when missing. */
export async function appendToFolder(settings: ImapSettings, folder: string, raw: Buffer, flags: string[] = ['\\Seen']): Promise<void> {
  const imap = client(settings);
  imap.on('error', () => {});
  await imap.connect();
  try {
    const boxes = await imap.list();
    if (!boxes.some((b) => b.path === folder)) await imap.mailboxCreate(folder).catch(() => undefined);
    await imap.append(folder, raw, flags);
  } finally {
    await imap.logout().catch(() => imap.close());
  }
}

/** True when a message with this Message-ID is in the folder (a send that went out before a restart). */
export async function folderHasMessageId(settings: ImapSettings, folder: string, messageId: string): Promise<boolean> {
  const imap = client(settings);
  imap.on('error', () => {});
  await imap.connect();
  try {
    const boxes = await imap.list();
    if (!boxes.some((b) => b.path === folder)) return false;
    await imap.mailboxOpen(folder, { readOnly: true });
    const found = await imap.search({ header: { 'message-id': `<${messageId}>` } }, { uid: true });
    return Array.isArray(found) && found.length > 0;
  } finally {
    await imap.logout().catch(() => imap.close());
  }
}
