import type { MailboxSettings } from '@atendimento/schemas';

/**
 * A mail channel's `data.provider` read as MailboxSettings; null when something needed is
 * missing (the channel then neither fetches nor sends, and its sends fail visibly).
 */
export function mailboxSettingsOf(raw: Record<string, unknown> | null): MailboxSettings | null {
  if (!raw) return null;
  const imap = raw.imap as Partial<MailboxSettings['imap']> | undefined;
  const smtp = raw.smtp as Partial<MailboxSettings['smtp']> | undefined;
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
  const port = (v: unknown) => (Number.isInteger(Number(v)) && Number(v) > 0 && Number(v) < 65536 ? Number(v) : null);
  const fromAddress = str(raw.fromAddress);
  if (!imap || !smtp || !fromAddress) return null;
  const imapHost = str(imap.host);
  const imapPort = port(imap.port);
  const smtpHost = str(smtp.host);
  const smtpPort = port(smtp.port);
  if (!imapHost || !imapPort || !smtpHost || !smtpPort || !str(imap.user) || typeof imap.password !== 'string') return null;
  return {
    imap: {
      host: imapHost, port: imapPort, secure: Boolean(imap.secure), user: str(imap.user)!, password: imap.password,
      mailbox: str(imap.mailbox) ?? 'INBOX', sentMailbox: str(imap.sentMailbox) ?? 'Sent',
    },
    smtp: { host: smtpHost, port: smtpPort, secure: Boolean(smtp.secure), ...(str(smtp.user) && { user: str(smtp.user)! }), ...(typeof smtp.password === 'string' && { password: smtp.password }) },
    fromAddress: fromAddress.toLowerCase(),
    ...(str(raw.fromName) && { fromName: str(raw.fromName)! }),
    pollSeconds: Math.max(5, Math.min(3600, Number(raw.pollSeconds) || 60)),
  };
}
