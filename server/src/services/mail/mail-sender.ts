import { appendToFolder } from '@atendimento/integrations/mail/imap-inbox';
import { composeMail, sendRaw } from '@atendimento/integrations/mail/smtp-sender';
import { format, messages as texts, type MailboxSettings, type Message } from '@atendimento/schemas';
import type { ChannelProviderRepository } from '../../db/repositories/channel-provider-repository';
import type { Logger } from '../../logger';
import type { BlobStore } from '../files/blob-store';
import { SendFailure, type ChannelSender, type OutboundContext } from '../chat/channel-senders';
import { mailboxSettingsOf } from './mailbox-settings';

/** The bytes of one of our /api/files/{tenant}/{name} URLs. */
async function blobBytes(blobs: BlobStore, tenantId: string, url: string): Promise<Buffer | null> {
  const match = /^\/api\/files\/([^/]+)\/([^/?#]+)$/.exec(url);
  if (!match || match[1] !== tenantId) return null;
  const file = await blobs.open(tenantId, match[2]!);
  if (!file) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of file.stream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function failure(reason: string): SendFailure {
  return new SendFailure([{ title: reason, titleptBR: format(texts.mail.smtpFailed, { reason }) }]);
}

/**
 * The mail channel's sender (docs/email.md "Sending"): the reply stored by the reply route is
 * composed with the Message-ID chosen when it was stored (In-Reply-To and References of its
 * thread), sent through the mailbox's SMTP server and appended to its Sent folder. A failure
 * becomes the message's visible error; a retry composes the same Message-ID again.
 */
export function createMailSender(deps: { channels: ChannelProviderRepository; blobs: BlobStore; logger: Logger }): ChannelSender & { settingsOf(tenantId: string, channelId: string): Promise<MailboxSettings | null> } {
  async function settingsOf(tenantId: string, channelId: string): Promise<MailboxSettings | null> {
    const found = await deps.channels.findActive(tenantId, channelId);
    return found ? mailboxSettingsOf(found.settings) : null;
  }

  async function send(ctx: OutboundContext): Promise<{ externalId: string | null }> {
    const message: Message = ctx.message;
    const mail = message.mail;
    if (!mail) throw new SendFailure([{ title: 'not a mail message', titleptBR: texts.mail.notMailRoom }]);
    const channelId = ctx.channel?.id ?? message.channelId;
    const settings = channelId ? await settingsOf(ctx.tenantId, channelId) : null;
    if (!settings) throw new SendFailure([{ title: 'mailbox not configured', titleptBR: texts.mail.mailboxNotConfigured }]);
    const attachments = [];
    for (const a of message.attachments ?? []) {
      const bytes = await blobBytes(deps.blobs, ctx.tenantId, a.url);
      if (!bytes) throw failure(`anexo ausente: ${a.filename}`);
      attachments.push({ fileName: a.filename, mimeType: a.mimeType, bytes });
    }
    const from = { name: settings.fromName ?? '', address: settings.fromAddress };
    const outbound = {
      messageId: mail.messageId,
      date: new Date(message.lifeControl.createdAt),
      from,
      to: mail.to,
      cc: mail.cc,
      subject: mail.subject,
      html: mail.html ?? '',
      text: message.text ?? '',
      inReplyTo: mail.inReplyTo,
      references: mail.references,
      attachments,
    };
    const raw = await composeMail(outbound);
    let response: string;
    try {
      const result = await sendRaw(settings.smtp, outbound, raw);
      if (result.accepted.length === 0) throw new Error(result.response || 'recipients rejected');
      response = result.response;
    } catch (error) {
      deps.logger.warn({ err: error, tenantId: ctx.tenantId, messageId: message.id }, 'mail.smtp_failed');
      throw failure(error instanceof Error ? error.message : String(error));
    }
    deps.logger.info({ tenantId: ctx.tenantId, messageId: message.id, response }, 'mail.sent');
    // The Sent folder keeps the thread whole in the mailbox's own view; missing it loses no mail.
    try {
      await appendToFolder(settings.imap, settings.imap.sentMailbox ?? 'Sent', raw);
    } catch (error) {
      deps.logger.warn({ err: error, tenantId: ctx.tenantId, messageId: message.id }, 'mail.sent_append_failed');
    }
    return { externalId: mail.messageId };
  }

  return {
    inProcess: false,
    settingsOf,
    send,
    async react() {},
    async edit() {},
    async remove() {},
  };
}

export type MailSender = ReturnType<typeof createMailSender>;
