import { afterCommit, type Transaction } from '../../db/knex';
import { contingencyFor, contingencyWindow, format, isOpenAt, messages as texts, nextOpening, type Channel, type Message, type Room } from '@atendimento/schemas';
import type { Clock } from '../../clock';
import type { Logger } from '../../logger';
import type { ChatDirectoryRepository } from '../../db/repositories/chat-directory-repository';
import type { RoutingRepository } from '../../db/repositories/routing-repository';
import type { RecordChange } from '../changes/change-feed';
import { isInert, roomQueueOf, type RoutingConfig } from './routing-config';
import { draftOf, type RoutingMessages } from './routing-messages';
import type { Timers } from './timers';

/** A date in the tenant's time zone as the console writes dates (DD/MM/YYYY HH:mm). */
export function localDateTime(at: Date | string, timeZone: string): string {
  return new Intl.DateTimeFormat('pt-BR', { timeZone, day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(at)).replace(',', '');
}

export interface InboundDeps {
  config: RoutingConfig;
  repo: RoutingRepository;
  msgs: RoutingMessages;
  timers: Timers;
  directory: ChatDirectoryRepository;
  clock: Clock;
  logger: Logger;
  kick(tenantId: string, departmentId: string | null | undefined): Promise<void>;
  dispatch(tenantId: string, messageId: string): Promise<void>;
}

/**
 * What a customer's message starts (docs/routing.md "A chat's path"), inside the ingest
 * transaction: a new chat without a queue enters the default queue; an active contingency
 * answers with its message (tags, close); outside business hours the department's message
 * goes out once per closed period (and the chat waits for the opening, or closes); a new chat
 * gets the department's automatic answer; the clock's rules start counting. At most one
 * automatic message answers one customer message. After the commit the department is routed.
 * A department where nothing is configured costs nothing here.
 */
export function createInbound(deps: InboundDeps) {
  const { config, repo, msgs, timers, directory, clock, logger } = deps;

  return async function onInbound(
    trx: Transaction, record: RecordChange, tenantId: string,
    event: { room: Room; roomCreated: boolean; message: Message; channel: Channel },
  ): Promise<void> {
    const { room, roomCreated, message, channel } = event;
    if (room.internal || !room.active || message.author.type !== 'client') return;
    const tenant = await config.tenant(tenantId, trx);
    const now = clock.now();
    const draft = draftOf(room);
    const toCustomer = (text: string) => msgs.toCustomer(trx, record, tenantId, draft, text);

    if (roomCreated && room.queues.length === 0) {
      // A channel without a department: the default queue (seed 000 §3 Queue.default) receives it.
      const fallback = [...tenant.queues.values()].find((q) => q.default && q.active);
      if (fallback) {
        const queue = roomQueueOf(fallback);
        draft.room = { ...draft.room, queues: [queue], queuesHistory: [queue], departmentId: fallback.departmentId ?? null };
      }
    }
    const dept = draft.room.departmentId ? tenant.departments.get(draft.room.departmentId) ?? null : null;
    const contingency = tenant.contingencies.length ? contingencyFor(tenant.contingencies, { departmentId: draft.room.departmentId, channelId: channel.id }, now) : null;
    if (isInert(dept) && !contingency && draft.room === room) return;

    const routing = roomCreated ? null : await repo.roomRouting(trx, tenantId, room.id);
    const queuedAt = routing?.queuedAt ?? room.lifeControl.createdAt;
    const notices = { ...(routing?.notices ?? {}) };
    let noticesChanged = false;
    let answered = false;

    if (contingency && !(notices.contingencies ?? []).includes(contingency.id)) {
      const applies = roomCreated || (!contingency.newChatsOnly && (!room.inAttend || contingency.inAttend === true));
      if (applies) {
        notices.contingencies = [...(notices.contingencies ?? []), contingency.id];
        noticesChanged = true;
        if (contingency.defaultMessage?.trim()) answered = await toCustomer(contingency.defaultMessage.trim());
        let extra = '';
        const tagIds = (contingency.tags ?? []).filter(Boolean);
        if (tagIds.length) {
          const found = await directory.tags(tenantId, tagIds, trx);
          const tags = [...draft.room.tags];
          const names = [...draft.room.tagsNames];
          for (const t of found) if (!tags.includes(t.id)) (tags.push(t.id), names.push(t.name));
          draft.room = { ...draft.room, tags, tagsNames: names };
          if (found.length) extra += format(texts.routing.contingencyTags, { tags: found.map((t) => t.name).join(', ') });
        }
        if (contingency.flow) extra += format(texts.routing.contingencyFlow, { flow: contingency.flow });
        const window = contingencyWindow(contingency);
        if (contingency.closeChat) extra += texts.routing.contingencyClosed;
        const note = format(texts.routing.contingency, { end: window ? localDateTime(window.end, tenant.timeZone) : '', extra });
        if (contingency.closeChat) await msgs.close(trx, record, tenantId, draft, texts.routing.closeContingency, note);
        await msgs.note(trx, record, tenantId, draft, note);
      }
    }

    if (draft.room.active && dept?.daysWork && !draft.room.inAttend && !isOpenAt(dept.daysWork, now, tenant.timeZone)) {
      const opening = nextOpening(dept.daysWork, now, tenant.timeZone);
      const period = opening?.toISOString() ?? 'never';
      if (!answered && notices.outOfHours !== period) {
        notices.outOfHours = period;
        noticesChanged = true;
        answered = await toCustomer(dept.outOfHoursMessage ?? texts.routing.outOfHoursDefault);
        if (dept.outOfHoursAction === 'close') {
          const note = format(texts.routing.outOfHoursClosed, { department: dept.displayName });
          await msgs.close(trx, record, tenantId, draft, texts.routing.closeOutOfHours, note);
          await msgs.note(trx, record, tenantId, draft, note);
        } else {
          await msgs.note(trx, record, tenantId, draft, opening
            ? format(texts.routing.outOfHours, { department: dept.displayName, opening: localDateTime(opening, tenant.timeZone) })
            : format(texts.routing.outOfHoursNoOpening, { department: dept.displayName }));
        }
      }
      if (opening && draft.room.active && dept.rule !== 'wait') await timers.scheduleOpening(trx, tenantId, dept.id, opening);
    }

    if (draft.room.active && roomCreated && !answered && dept?.automaticAnswer && (await toCustomer(dept.automaticAnswer))) {
      await msgs.note(trx, record, tenantId, draft, format(texts.routing.automaticAnswer, { source: format(texts.routing.departmentSource, { department: dept.displayName }) }));
    }

    const saved = await msgs.save(trx, record, tenantId, draft);
    if (!routing || noticesChanged) {
      await repo.saveRoomRouting(trx, tenantId, {
        roomId: saved.id, departmentId: saved.departmentId, queueId: saved.queues[0]?.id ?? null, queuedAt,
        assignedTo: routing?.assignedTo ?? null, assignedBy: routing?.assignedBy ?? null, assignedAt: routing?.assignedAt ?? null, assignSeq: routing?.assignSeq ?? null, notices,
      });
    }
    if (saved.active) {
      if (!routing && !saved.inAttend) await timers.onQueued(trx, tenantId, saved, queuedAt, dept, tenant);
      await timers.onCustomerMessage(trx, tenantId, saved, dept);
    }
    const outbox = draft.outbox;
    afterCommit(trx, () => {
      for (const id of outbox) void deps.dispatch(tenantId, id).catch((err) => logger.error({ err, tenantId }, 'routing.dispatch_failed'));
      if (saved.active && !saved.inAttend) void deps.kick(tenantId, saved.departmentId);
    });
  };
}
