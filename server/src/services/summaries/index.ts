import { DEFAULT_TIME_ZONE, format, messages as texts, type Message } from '@atendimento/schemas';
import type { Db } from '../../db/knex';
import { createSummaryRepository } from '../../db/repositories/summary-repository';
import type { Logger } from '../../logger';
import { notFound, validationError } from '../../errors';
import type { Chat } from '../chat';
import type { ChatScope } from '../chat/room-scope';
import type { Mailer } from '../mail/mailer';
import { buildSummary } from './summary';

/** Messages read for one summary at most (pages of 200, newest first, then put in order). */
const MAX_MESSAGES = 2000;

/**
 * Chat summaries (seed 000 §2 "Summaries", §7 POST /rooms/sumarize/{roomId}; docs/summaries.md):
 * find a chat by its number, and e-mail its extractive summary to the caller. Both go through
 * the chat's own reads, so a caller only finds and summarizes chats they may open.
 */
export function createSummaries(deps: { db: Db; chat: Chat; mailer: Mailer; logger: Logger }) {
  const repo = createSummaryRepository(deps.db);
  const { chat, mailer, logger } = deps;

  return {
    /** `GET /api/sumaries/:code`: the chat of a number (contact, created, closed or active). */
    async find(scope: ChatScope, code: string) {
      if (!/^\d{1,12}$/.test(code)) throw validationError([{ field: 'code', message: texts.summary.notFound }]);
      const id = await repo.roomIdByInc(scope.tenantId, Number(code));
      if (!id) throw notFound();
      const room = await chat.rooms.get(scope, id);
      return { id: room.id, roomInc: room.roomInc, contact: room.author?.displayName || room.chatId, createdAt: room.lifeControl.createdAt, closedAt: room.active ? null : room.closedBy?.closedAt ?? null, active: room.active };
    },

    /** `POST /api/rooms/sumarize/:roomId` { targetEmail }: e-mails the summary to the caller only. */
    async send(scope: ChatScope, user: { email: string }, roomId: string, body: unknown, baseUrl: string): Promise<{ sentTo: string }> {
      const target = (body && typeof body === 'object' ? (body as { targetEmail?: unknown }).targetEmail : undefined) ?? user.email;
      // A chat's content goes only to the address the caller signed in with (no exfiltration by mail).
      if (typeof target !== 'string' || target.trim().toLowerCase() !== user.email.toLowerCase()) {
        throw validationError([{ field: 'targetEmail', message: texts.summary.onlyOwnEmail }]);
      }
      const room = await chat.rooms.get(scope, roomId);
      const list: Message[] = [];
      let before: { at: string; id: string } | null = null;
      while (list.length < MAX_MESSAGES) {
        const page = await chat.messages.page(scope, roomId, before, 200);
        list.push(...page.data);
        const last = page.data[page.data.length - 1];
        if (!page.before || !last) break;
        before = { at: last.lifeControl.createdAt, id: last.id };
      }
      const summary = buildSummary(room, list, {
        timeZone: scope.config.timeZone || DEFAULT_TIME_ZONE,
        baseUrl,
        subject: format(texts.summary.mailSubject, { code: room.roomInc, contact: room.author?.displayName || room.chatId }),
      });
      await mailer.send({ to: user.email, subject: summary.subject, text: summary.text, html: summary.html });
      logger.info({ tenantId: scope.tenantId, roomId, messages: list.length }, 'summary.sent');
      return { sentTo: user.email };
    },
  };
}

export type Summaries = ReturnType<typeof createSummaries>;
