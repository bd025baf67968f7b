import nodemailer from 'nodemailer';
import type { Logger } from '../../logger';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  bcc?: string;
  /** Files sent with the message (register exports); `path` streams a file from disk (dashboard exports). */
  attachments?: ({ filename: string; content: Buffer | string; contentType?: string } | { filename: string; path: string; contentType?: string })[];
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** Sends through SMTP (nodemailer) to the server named by smtpUrl. */
export function createMailer(smtpUrl: string, from: string, logger: Logger): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(message) {
      const info = await transport.sendMail({ from, ...message });
      logger.info({ to: message.to, subject: message.subject, messageId: info.messageId }, 'mail.sent');
    },
    close: () => transport.close(),
  };
}
