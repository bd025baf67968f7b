import { mailSchemas, messages as texts, UPLOAD_LIMITS, type MailReplyFileInput, type MailReplyInput } from '@atendimento/schemas';
import { AppError, badRequest } from '../../../errors';
import type { Mail } from '../../../services/mail';
import type { Chat } from '../../../services/chat';
import { validateWith } from '../../../services/chat/chat-validation';
import { access, type ApiRegistry, type AppContext } from '../../access';
import { bodyOrEmpty, idempotencyKey, scopeOf } from '../../request';

/** A reply with attachments as base64 JSON (seed 001 §7): the document limit plus base64's third, plus the fields. */
const MAX_FILE_BODY = Math.ceil((UPLOAD_LIMITS.document * 4) / 3) + 1024 * 1024;

/** The whole JSON body of /file, read here (app.ts leaves that path to its route) with its own limit. */
async function largeJsonBody(ctx: AppContext): Promise<unknown> {
  if (!ctx.is('application/json')) throw badRequest('json_required', texts.validation.invalidValue);
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > MAX_FILE_BODY) throw new AppError(413, 'payload_too_large', texts.chat.uploadAny100, { headers: { Connection: 'close' } });
  // Attachments are held whole in memory here: they count in the process's upload budget (web/upload-budget.ts).
  ctx.state.uploads.hold(ctx, declared > 0 ? declared : MAX_FILE_BODY);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > MAX_FILE_BODY) throw new AppError(413, 'payload_too_large', texts.chat.uploadAny100, { headers: { Connection: 'close' } });
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw badRequest('json_invalid', texts.validation.invalidValue);
  }
}

/** Path of /file whose body the JSON parser must leave alone (app.ts). */
export const MAIL_FILE_PATH = /^\/api\/mail\/[^/]+\/[^/]+\/file$/;

/**
 * The e-mail thread's calls (seed 001 §7, docs/email.md): a reply to one message of the thread,
 * and the same reply with attachments. Both answer like the other message calls
 * (`{ meta: { ok, created }, data: message }`; 201 new, 200 for a retried clientId).
 */
export function registerMailRoutes(api: ApiRegistry, mail: Mail, chat: Chat): void {
  api.add({
    method: 'POST',
    path: '/api/mail/:roomId/:messageId',
    access: access.user,
    handler: async (ctx) => {
      const input = validateWith<MailReplyInput>('mail.reply', mailSchemas.reply, bodyOrEmpty(ctx));
      const result = await mail.replies.reply(await scopeOf(ctx, chat), String(ctx.params.roomId), String(ctx.params.messageId), input, [], idempotencyKey(ctx));
      ctx.status = result.created ? 201 : 200;
      ctx.body = { meta: { ok: true, created: result.created }, data: result.message };
    },
  });

  api.add({
    method: 'POST',
    path: '/api/mail/:roomId/:messageId/file',
    access: access.user,
    handler: async (ctx) => {
      // Who may write here is known before the (large) body is read.
      await chat.messages.assertWritable(await scopeOf(ctx, chat), String(ctx.params.roomId), false).catch(async (error) => {
        // A queued mail is taken by replying: only 'enter first' is left to the reply itself.
        if ((error as AppError).code !== 'enter_first') throw error;
      });
      const input = validateWith<MailReplyFileInput>('mail.replyFile', mailSchemas.replyFile, await largeJsonBody(ctx));
      const { attachments, ...reply } = input;
      const result = await mail.replies.reply(await scopeOf(ctx, chat), String(ctx.params.roomId), String(ctx.params.messageId), reply, attachments, idempotencyKey(ctx));
      ctx.status = result.created ? 201 : 200;
      ctx.body = { meta: { ok: true, created: result.created }, data: result.message };
    },
  });
}
