import {
  parseSurveyAnswer, researchPending, surveyReask, surveyScale, SURVEY_EXPIRY_MS, messages as texts,
  type AppConfig, type Message, type PendingResearch, type ResearchMethod, type Room,
} from '@atendimento/schemas';
import { afterCommit, type Transaction } from '../../db/knex';
import type { RecordChange } from '../changes/change-feed';
import type { Scheduler } from '../scheduler/scheduler';
import type { ChatDeps } from './chat-deps';
import { newId } from './ids';
import { newMessage } from './room-factory';

const EXPIRY = { kind: 'surveyExpiry', key: (roomId: string) => `survey:${roomId}` } as const;

const format = (text: string, values: Record<string, string>) => text.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? '');
const methodName = (method: ResearchMethod) => (method === 'nps' ? texts.survey.nps : texts.survey.csat);

/**
 * NPS/CSAT surveys after 'Encerrar com pesquisa' (docs/console-operations.md "Surveys"). The
 * closed room keeps the pending survey (`research`); the customer's next message on that chat,
 * on any channel (web chat, WhatsApp), is taken as the answer while it is pending: a number in
 * range (and an optional comment) is stored on the room (`nps` / `csat`: value, reason,
 * answerdAt) and thanked; anything else is asked again once, then the survey is given up
 * politely. Unanswered surveys expire after SURVEY_EXPIRY_MS on the scheduler; after that a
 * message opens a new chat as usual.
 */
export function createSurveyService(deps: ChatDeps & { scheduler?: Scheduler; dispatch(tenantId: string, messageId: string): Promise<void> }) {
  const { rooms, messages, clock } = deps;

  async function toCustomer(trx: Transaction, record: RecordChange, tenantId: string, room: Room, text: string, outbox: string[]): Promise<Message> {
    const now = clock.now().toISOString();
    const message = newMessage({ id: newId(), room, author: { id: 'system', displayName: texts.routing.systemAuthor, type: 'system' }, type: 'text', text, now, fromContact: false });
    const inProcess = deps.senderFor(room)?.inProcess === true;
    const stored = inProcess ? { ...message, status: { sent: true, sentAt: now } } : message;
    await messages.insert(trx, tenantId, stored);
    record({ collection: 'messages', id: stored.id, op: 'upsert' });
    if (!inProcess) outbox.push(stored.id);
    return stored;
  }

  async function note(trx: Transaction, record: RecordChange, tenantId: string, room: Room, text: string): Promise<void> {
    const now = clock.now().toISOString();
    const message = newMessage({ id: newId(), room, author: { id: 'system', displayName: texts.routing.systemAuthor, type: 'system' }, type: 'text', text, now, fromContact: false, annotation: true });
    await messages.insert(trx, tenantId, { ...message, status: { sent: true, sentAt: now } });
    record({ collection: 'messages', id: message.id, op: 'upsert' });
  }

  function flush(trx: Transaction, tenantId: string, outbox: string[]): void {
    if (outbox.length === 0) return;
    afterCommit(trx, () => {
      for (const id of outbox) void deps.dispatch(tenantId, id).catch((err) => deps.logger.error({ err, tenantId }, 'chat.survey_dispatch_failed'));
    });
  }

  async function save(trx: Transaction, record: RecordChange, tenantId: string, next: Room, previous: Room): Promise<Room> {
    const stamped = { ...next, lifeControl: { ...next.lifeControl, updatedAt: clock.now().toISOString() } };
    await rooms.save(trx, tenantId, stamped, previous);
    record({ collection: 'rooms', id: next.id, op: 'upsert' });
    return stamped;
  }

  deps.scheduler?.handle(EXPIRY.kind, {
    lock: async (trx, tenantId, roomId) => {
      await rooms.findById(tenantId, roomId, trx, true);
    },
    async fire({ trx, record, tenantId, deadline, now }) {
      const room = await rooms.findById(tenantId, deadline.subjectId!, trx);
      // Answered, given up or asked again since: nothing to expire.
      if (!room?.research || room.active || room.research.askedAt !== (deadline.payload as { askedAt?: string }).askedAt) return;
      if (researchPending(room, now)) return { moveTo: new Date(room.research.expiresAt) };
      await note(trx, record, tenantId, room, format(texts.survey.expiredNote, { method: methodName(room.research.method) }));
      await save(trx, record, tenantId, { ...room, research: null }, room);
    },
  });

  return {
    /** The survey a close starts: the pending state for the closed room, its expiry on the clock. */
    async start(trx: Transaction, tenantId: string, roomId: string, method: ResearchMethod): Promise<PendingResearch> {
      const now = clock.now();
      const research: PendingResearch = { method, askedAt: now.toISOString(), expiresAt: new Date(now.getTime() + SURVEY_EXPIRY_MS).toISOString(), asks: 1 };
      await deps.scheduler?.schedule(trx, tenantId, { key: EXPIRY.key(roomId), kind: EXPIRY.kind, subjectId: roomId, dueAt: research.expiresAt, payload: { askedAt: research.askedAt } });
      return research;
    },

    /**
     * Ingest, when the chat has no open room (the caller looked it up under its lock), before a
     * new room would open: when its last closed room waits for a
     * survey answer, the customer's message is stored there and taken as the answer. Answers
     * the closed room, or null when no survey waits (the message opens a chat as usual).
     */
    async takeAnswer(trx: Transaction, record: RecordChange, tenantId: string, configOf: () => Promise<Pick<AppConfig, 'claims'>>, channelId: string, chatId: string, build: (room: Room) => Message): Promise<Room | null> {
      const room = await rooms.lastClosed(trx, tenantId, channelId, chatId);
      if (!room || !researchPending(room, clock.now())) return null;
      const research = room.research!;
      const config = await configOf();
      const message = build(room);
      if (!(await messages.insertIfNew(trx, tenantId, message))) return room;
      record({ collection: 'messages', id: message.id, op: 'upsert' });
      const outbox: string[] = [];
      const answer = message.type === 'text' || message.type === 'interactive' ? parseSurveyAnswer(message.text ?? message.interactive?.button_reply?.title ?? message.interactive?.list_reply?.title, surveyScale(config, research.method)) : null;
      let next: Room;
      if (answer) {
        next = { ...room, research: null, [research.method]: { value: answer.value, reason: answer.comment, answerdAt: clock.now().toISOString() } };
        await toCustomer(trx, record, tenantId, room, texts.survey.thanks, outbox);
        await note(trx, record, tenantId, room, format(texts.survey.answeredNote, { method: methodName(research.method) }));
      } else if (research.asks < 2) {
        next = { ...room, research: { ...research, asks: research.asks + 1 } };
        await toCustomer(trx, record, tenantId, room, surveyReask(config, research.method), outbox);
      } else {
        next = { ...room, research: null };
        await toCustomer(trx, record, tenantId, room, texts.survey.giveUp, outbox);
        await note(trx, record, tenantId, room, format(texts.survey.gaveUpNote, { method: methodName(research.method) }));
      }
      const saved = await save(trx, record, tenantId, next, room);
      flush(trx, tenantId, outbox);
      return saved;
    },
  };
}

export type SurveyService = ReturnType<typeof createSurveyService>;
