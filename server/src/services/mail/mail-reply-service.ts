import { htmlToPlainText, sanitizeMailHtml } from '@atendimento/integrations/mail/mail-sanitizer';
import {
  adapterOf, format, MAIL_TEXT_MAX, UPLOAD_LIMITS, messages as texts,
  type MailAddress, type MailAttachmentInput, type MailReplyInput, type Message,
} from '@atendimento/schemas';
import { AppError, badRequest, notFound } from '../../errors';
import type { MailRepository } from '../../db/repositories/mail-repository';
import type { Chat } from '../chat';
import type { SendResult } from '../chat/message-service';
import type { ChatScope } from '../chat/room-scope';
import { newId } from '../chat/ids';
import { newMessage } from '../chat/room-factory';
import { storeMailFile } from './mail-files';
import type { MailSender } from './mail-sender';

const ADDRESS = /^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/;

/** Addresses of a field given as "a@x, b@y" or a list; 400 naming the first invalid one. */
function addressesOf(value: string | string[] | undefined): string[] {
  const parts = (Array.isArray(value) ? value : value ? [value] : []).flatMap((v) => v.split(/[,;\s]+/)).map((v) => v.trim().replace(/^<|>$/g, '').toLowerCase()).filter(Boolean);
  for (const address of parts) {
    if (!ADDRESS.test(address) || address.length > 320) throw badRequest('mail_address_invalid', format(texts.mail.invalidAddress, { address: address.slice(0, 80) }));
  }
  return [...new Set(parts)];
}

/** "Re: " once, whatever the original subject's prefixes. */
function replySubject(subject: string): string {
  const s = subject.trim() || texts.mail.noSubject;
  return /^re\s*:/i.test(s) ? s : `Re: ${s}`;
}

/**
 * Replies of a mail thread (POST /api/mail/:roomId/:messageId and /file, seed 001 §7;
 * docs/email.md "Sending"). The reply is stored through the chat's message service (room
 * checks, idempotency on clientId, delivery after commit by the mail sender) with its
 * Message-ID claimed in the mailbox's index, In-Reply-To the answered mail and References its
 * chain plus that mail.
 */
export function createMailReplyService(deps: { chat: Chat; mail: MailRepository; sender: MailSender }) {
  const { chat, mail, sender } = deps;
  const { messages: messageRepo, blobs, clock } = chat.deps;

  /** Decodes and stores the attachments of /file under the chat upload limits (413 with the seed's text). */
  async function storeAttachments(tenantId: string, attachments: MailAttachmentInput[]): Promise<NonNullable<Message['attachments']>> {
    const out: NonNullable<Message['attachments']> = [];
    for (const a of attachments) {
      const base64 = a.base64.replace(/^data:[^,]*,/, '');
      if (Math.floor((base64.length * 3) / 4) > UPLOAD_LIMITS.document + 3) throw new AppError(413, 'payload_too_large', texts.chat.uploadAny100);
      const bytes = Buffer.from(base64, 'base64');
      if (bytes.length === 0) throw badRequest('file_missing', texts.chatServer.fileMissing);
      const stored = await storeMailFile(blobs, tenantId, a.fileName.replace(/[\\/\r\n]/g, '_'), bytes);
      if (!stored.stored) throw new AppError(413, 'payload_too_large', stored.kind === 'image' ? texts.chat.uploadImage5 : stored.kind === 'document' ? texts.chat.uploadAny100 : texts.chat.uploadMedia16);
      out.push({ url: stored.url, mimeType: stored.mimeType, filename: stored.fileName });
    }
    return out;
  }

  return {
    async reply(scope: ChatScope, roomId: string, messageId: string, input: MailReplyInput, attachmentsIn: MailAttachmentInput[], headerKey: string | null): Promise<SendResult> {
      const { tenantId } = scope;
      const room = await chat.rooms.get(scope, roomId);
      if (adapterOf(room.channel) !== 'mail') throw badRequest('not_mail_room', texts.mail.notMailRoom);
      const channelId = String(Array.isArray(room.channelId) ? room.channelId[0] : room.channelId ?? '');
      const html = sanitizeMailHtml(input.message ?? '').html.trim();
      const text = htmlToPlainText(html);
      if (!text && attachmentsIn.length === 0) throw badRequest('empty_reply', texts.mail.emptyReply);
      const extraTo = addressesOf([...addressesOf(input.mailTo), ...addressesOf(input.to)]);
      const cc = addressesOf(input.cc);
      const settings = await sender.settingsOf(tenantId, channelId);
      if (!settings) throw badRequest('mailbox_not_configured', texts.mail.mailboxNotConfigured);
      // Checked before any attachment reaches the disk.
      // Answering a queued mail ('Inbox') takes it: the agent enters the conversation first.
      const viewerId = scope.viewer.kind === 'user' ? scope.viewer.id : null;
      if (viewerId && !room.inAttend && !room.agents.some((a) => a.id === viewerId)) await chat.rooms.push(scope, roomId);
      await chat.messages.assertWritable(scope, roomId, false);
      const attachments = attachmentsIn.length ? await storeAttachments(tenantId, attachmentsIn) : [];
      const domain = settings.fromAddress.split('@')[1] ?? 'localhost';
      const own = settings.fromAddress;
      return chat.messages.sendBuilt(scope, roomId, input.clientId ?? headerKey, async (current, trx, author) => {
        const target = await messageRepo.findInRoom(trx, tenantId, current.id, messageId);
        if (!target || target.annotation) throw notFound();
        const answered = target.mail;
        const chain = answered ? [...answered.references, answered.messageId] : [];
        const references = [...new Set(chain)].slice(-30);
        const to: MailAddress[] = [...new Set([current.chatId.toLowerCase(), ...extraTo])].filter((a) => a !== own && ADDRESS.test(a)).map((address) => ({ name: '', address }));
        if (to.length === 0) throw badRequest('mail_address_invalid', format(texts.mail.invalidAddress, { address: current.chatId.slice(0, 80) }));
        const id = newId();
        const now = clock.now().toISOString();
        const mailMessageId = `${id}@${domain}`;
        const message = newMessage({
          id, room: current, author, type: 'text', text: (text || attachments.map((a) => a.filename).join(', ')).slice(0, MAIL_TEXT_MAX), now, fromContact: false,
          extra: {
            mail: {
              messageId: mailMessageId, inReplyTo: answered?.messageId ?? null, references,
              subject: input.subject?.trim() || replySubject(answered?.subject ?? current.subject ?? ''),
              from: { name: settings.fromName ?? '', address: own }, to, cc: cc.filter((a) => a !== own).map((address) => ({ name: '', address })),
              html: html || null, remoteImages: false, date: now, auto: null,
            },
            ...(attachments.length && { attachments }),
            replyTo: target.messageExtId ?? target.id,
          },
        });
        await mail.claimMessageKey(trx, tenantId, channelId, mailMessageId, current.id, id, now);
        return message;
      });
    },
  };
}

export type MailReplyService = ReturnType<typeof createMailReplyService>;
