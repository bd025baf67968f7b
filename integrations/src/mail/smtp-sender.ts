import nodemailer, { type SendMailOptions } from 'nodemailer';
import type { MailAddress, MailboxSettings } from '@atendimento/schemas';

/**
 * Outbound mail: the reply is composed once into raw bytes (so the very same message goes to
 * SMTP and to the Sent folder) with a Message-ID and a Date chosen by the caller: a resend of the same reply carries
 * the same Message-ID, so a client that ever sees it twice shows it once.
 */

export interface OutboundMail {
  /** Message-ID without angle brackets. */
  messageId: string;
  date: Date;
  from: MailAddress;
  to: MailAddress[];
  cc: MailAddress[];
  subject: string;
  html: string;
  text: string;
  inReplyTo: string | null;
  references: string[];
  attachments: { fileName: string; mimeType: string; bytes: Buffer; contentId?: string | null }[];
}

const bracket = (id: string) => `<${id}>`;
const formatted = (a: MailAddress) => ({ name: a.name, address: a.address });

/** The raw RFC 5322 bytes of a reply (In-Reply-To and References so the customer's client threads it). */
export async function composeMail(mail: OutboundMail): Promise<Buffer> {
  return buildRaw({
    from: formatted(mail.from),
    to: mail.to.map(formatted),
    cc: mail.cc.map(formatted),
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    messageId: bracket(mail.messageId),
    date: mail.date,
    ...(mail.inReplyTo && { inReplyTo: bracket(mail.inReplyTo) }),
    ...(mail.references.length && { references: mail.references.map(bracket).join(' ') }),
    attachments: mail.attachments.map((a) => ({ filename: a.fileName, content: a.bytes, contentType: a.mimeType, ...(a.contentId && { cid: a.contentId }) })),
  });
}

/**
 * The raw bytes of a message as nodemailer would send it (its stream transport composes
 * without sending; the documented way to get them, and it works from the bundled server).
 */
export async function buildRaw(mail: SendMailOptions): Promise<Buffer> {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  const info = await transport.sendMail(mail);
  return info.message as Buffer;
}

export interface SmtpResult {
  response: string;
  accepted: string[];
  rejected: string[];
}

/** Sends raw bytes to every recipient of `mail` through the mailbox's SMTP server. */
export async function sendRaw(settings: MailboxSettings['smtp'], mail: Pick<OutboundMail, 'from' | 'to' | 'cc'>, raw: Buffer): Promise<SmtpResult> {
  const transport = nodemailer.createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    ...(settings.user ? { auth: { user: settings.user, pass: settings.password ?? '' } } : {}),
    connectionTimeout: 30_000,
    greetingTimeout: 15_000,
    socketTimeout: 120_000,
  });
  try {
    const info = await transport.sendMail({
      envelope: { from: mail.from.address, to: [...mail.to, ...mail.cc].map((a) => a.address) },
      raw,
    });
    return { response: String(info.response ?? ''), accepted: (info.accepted ?? []).map(String), rejected: (info.rejected ?? []).map(String) };
  } finally {
    transport.close();
  }
}
