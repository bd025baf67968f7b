import {
  CHAT_TAB_BY_ID, CONTACT_HISTORY_LIMIT, format, tagAllowed, mayAskResearch, maySeeResearch, surveyList, surveyQuestion, type ResearchMethod, type PendingResearch, isWebchat, MAX_ROOMS_LIMIT, calendarDay, channelIs, isValidFilter, validateClose, messages as texts,
  type AppConfig, type Channel, type CloseRoomInput, type CreateRoomInput, type Filter, type Message, type PatchRoomInput, type Room, type RoomTabId,
} from '@atendimento/schemas';
import { badRequest, conflict, forbidden, notFound, validationError } from '../../errors';
import { checkFilter, FilterError } from '../../db/repositories/chat-filter-sql';
import { ROOM_FIELDS, type RoomCursor } from '../../db/repositories/room-repository';
import type { ChatContact } from '../../db/repositories/chat-contact-repository';
import type { RecordChange } from '../changes/change-feed';
import { retryOnConflict, type Transaction } from '../../db/knex';
import type { ChatDeps } from './chat-deps';
import { roomCursor } from './cursor';
import { newId, newSecret } from './ids';
import type { MessageService } from './message-service';
import type { SurveyService } from './survey-service';
import { postSystemNote } from './system-note';
import { applyMessage, newMessage, newRoom, queueOfDepartment } from './room-factory';
import { canAttend, canSee, clientHistoryFilter, supervises, tabFilter, visibilityFilter, type HistoryView, type UserViewer, type Viewer, type ChatScope, userOnly } from './room-scope';

const ONE_HOUR = 3_600_000;

/** Checks a client's narrowing filter (only ROOM_FILTER_FIELDS, typed values). */
function clientRoomFilter(filter: unknown): Filter | null {
  if (filter === undefined || filter === null) return null;
  if (!isValidFilter(filter)) throw badRequest('filter_invalid', texts.chatServer.filterInvalid);
  try {
    checkFilter(filter, ROOM_FIELDS);
  } catch (error) {
    if (error instanceof FilterError) throw badRequest('filter_invalid', texts.chatServer.filterInvalid);
    throw error;
  }
  return filter;
}

/** Dotted fields a filter names, at any depth. */
function fieldsOf(filter: Filter): string[] {
  if ('and' in filter) return filter.and.flatMap(fieldsOf);
  if ('or' in filter) return filter.or.flatMap(fieldsOf);
  return [filter.field];
}

/** Filtering by a survey score would reveal it: only who may read the answers (maySeeResearch). */
function checkResearchFilter(viewer: UserViewer, filter: Filter | null): void {
  if (!filter) return;
  const user = { claims: { ...viewer.claims, admin: viewer.admin } };
  for (const field of fieldsOf(filter)) {
    if ((field === 'nps.value' && !maySeeResearch(user, 'nps')) || (field === 'csat.value' && !maySeeResearch(user, 'csat'))) {
      throw forbidden('research_filter_denied', texts.chatServer.researchFilterDenied);
    }
  }
}

/** Default list order: desc, or asc with tenant claim ascOrder (seed 002 §7). */
export function defaultOrder(config: AppConfig): 'asc' | 'desc' {
  return config.claims?.ascOrder ? 'asc' : 'desc';
}

/**
 * Rooms: lists by tab, one room, creation, the console's PATCH, enter/leave (push/pull) and
 * closing (single, without notice, mass) with the seed's rules (001 §4, §5, §7).
 */
export function createRoomService(deps: ChatDeps, messageService: MessageService, surveysOf: () => SurveyService | null = () => null) {
  const { feed, clock, rooms, messages, contacts, directory } = deps;

  /** The tab's server filter AND the client's narrowing; 403 for a tab the viewer does not have. */
  function tabScope(viewer: Viewer, config: AppConfig, tab: RoomTabId, clientFilter: unknown, history?: unknown): Filter {
    const user = userOnly(viewer);
    if (!(tab in CHAT_TAB_BY_ID) || tab === ('contacts' as RoomTabId)) throw badRequest('tab_invalid', texts.chatServer.tabUnavailable);
    const view = historyView(tab, history);
    const scope = view === 'clients' ? clientHistoryFilter(user, config) : tabFilter(user, config, tab);
    if (!scope) throw forbidden('tab_unavailable', texts.chatServer.tabUnavailable);
    const narrow = clientRoomFilter(clientFilter);
    checkResearchFilter(user, narrow);
    return narrow ? { and: [scope, narrow] } : scope;
  }

  /** 'Histórico' views (`history` of the list query): 'mine' (the default) or 'clients' (vendHistory). */
  function historyView(tab: RoomTabId, value: unknown): HistoryView {
    if (value === undefined || value === null || value === '' || value === 'mine') return 'mine';
    if (value === 'clients' && tab === 'chatsHistories') return 'clients';
    throw badRequest('invalid_history', texts.validation.invalidValue);
  }

  function limitOf(tab: RoomTabId, value: unknown): number {
    if (value === undefined || value === null || value === '') return CHAT_TAB_BY_ID[tab].limit;
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1 || n > MAX_ROOMS_LIMIT) throw badRequest('invalid_limit', texts.validation.invalidValue);
    return n;
  }

  async function loadVisible(tenantId: string, viewer: Viewer, config: AppConfig, roomId: string, trx?: Transaction): Promise<Room> {
    const room = await rooms.findById(tenantId, roomId, trx ?? deps.db, Boolean(trx));
    if (!room || !canSee(viewer, config, room)) throw notFound();
    return room;
  }

  function ensureOpen(room: Room): void {
    if (!room.active) throw conflict('room_closed', texts.chatServer.alreadyClosed);
  }

  async function save(trx: Transaction, record: RecordChange, tenantId: string, next: Room, previous: Room): Promise<Room> {
    const stamped = { ...next, lifeControl: { ...next.lifeControl, updatedAt: clock.now().toISOString() } };
    await rooms.save(trx, tenantId, stamped, previous);
    record({ collection: 'rooms', id: next.id, op: 'upsert' });
    return stamped;
  }

  /** Marks the contact's messages read (the visitor sees 'lida') and clears the room's unread state. */
  async function markRead(trx: Transaction, record: RecordChange, tenantId: string, room: Room, readOut?: Message[]): Promise<Room> {
    const unread = await messages.notYet(trx, tenantId, room.id, ['client'], [null, 'sent', 'delivered']);
    for (const m of unread) await messageService.applyStatusIn(trx, record, tenantId, m, 'read');
    readOut?.push(...unread);
    const fresh = (await rooms.findById(tenantId, room.id, trx)) ?? room;
    return { ...fresh, unreadCount: 0, lastMessage: fresh.lastMessage ? { ...fresh.lastMessage, unread: false } : null };
  }

  async function closeOne(
    trx: Transaction,
    record: RecordChange,
    tenantId: string,
    viewer: UserViewer,
    config: AppConfig,
    room: Room,
    input: CloseRoomInput,
    mode: { noMessage: boolean; mass: boolean; research?: ResearchMethod },
  ): Promise<{ room: Room; noticeMessageId: string | null }> {
    ensureOpen(room);
    if (!canAttend(viewer, room)) throw forbidden('enter_first', texts.chatServer.enterFirst);
    const claims = config.claims ?? {};
    if (mode.research) {
      if (room.internal || room.channel === 'mail') throw badRequest('research_unavailable', texts.chatServer.internalRoom);
      const channel = room.channelId ? await directory.channel(tenantId, String(room.channelId), trx) : null;
      if (!mayAskResearch(config, mode.research, { admin: viewer.admin, channelAllows: Boolean(channel?.claims.askResearch) })) throw forbidden('research_disabled', texts.survey.disabled);
    } else if (!viewer.admin) {
      const channel = room.channelId ? await directory.channel(tenantId, String(room.channelId), trx) : null;
      if (mode.noMessage ? claims.disableCloseChatNoMessage && !channel?.claims.closeChatNoMessage : claims.disableCloseChat && !channel?.claims.closeChat) {
        throw forbidden('close_disabled', texts.chatServer.closeDisabled);
      }
      if (claims.forceAgentMessage && room.messagesCount.agentMessage === 0 && !room.internal) throw badRequest('agent_message_required', texts.chatServer.forceAgentMessage);
    }
    let justify = input.closedBy?.justify?.trim() || null;
    const obs = mode.mass ? texts.chat.massCloseNote : input.closedBy?.obs?.trim() || null;
    if (mode.mass) justify = justify ?? texts.chat.massCloseNote;
    const nextContact = !mode.mass && claims.hasNextContact ? input.nextContact?.trim() || null : null;
    if (!mode.mass) {
      const problem = validateClose(config, { justify, obs, nextContact }, calendarDay(clock.now(), config.timeZone));
      // The seed's own text as errorMessage: the console toasts it as is.
      if (problem?.field === 'closedBy.justify') throw badRequest('close_justify_required', problem.message, [problem]);
      if (problem) throw validationError([problem]);
    }
    let current = room;
    if (input.tags) current = await withTags(trx, tenantId, viewer, config, current, input.tags);
    // tagWhenClose (tenant claim, or the department's own claim) binds every close path of an agent.
    if (!viewer.admin && current.tags.length === 0 && !room.internal && (await tagRequired(trx, tenantId, config, current))) {
      throw badRequest('tag_required', texts.chatServer.tagRequired, [{ field: 'tags', message: texts.chatServer.tagRequired }]);
    }
    const now = clock.now().toISOString();
    let noticeMessageId: string | null = null;
    if (!mode.noMessage && !room.internal && room.channel !== 'mail') {
      // The contact is told the chat ended (close without notice skips this).
      // A survey close asks the question instead of the closing notice (the answer comes back on the closed room).
      const text = mode.research ? surveyQuestion(config, mode.research) : texts.chatServer.closedNotice;
      // On channels that take lists (WhatsApp), a scale that fits one goes as a list of scores.
      const list = mode.research && channelIs(current.channel, 'interactive') ? surveyList(config, mode.research) : null;
      const notice = newMessage({ id: newId(), room: current, author: { id: 'system', displayName: 'Sistema', type: 'system' }, type: list ? 'interactive' : 'text', text, now, fromContact: false, ...(list && { extra: { interactive: list } }) });
      const inProcess = deps.senderFor(current)?.inProcess === true;
      const stored = inProcess ? { ...notice, status: { sent: true, sentAt: now } } : notice;
      await messages.insert(trx, tenantId, stored);
      record({ collection: 'messages', id: stored.id, op: 'upsert' });
      current = applyMessage(current, stored, now);
      noticeMessageId = stored.id;
    }
    const closed: Room = {
      ...current,
      active: false,
      inAttend: false,
      agents: [],
      onHold: { active: false, message: null },
      unreadCount: 0,
      lastMessage: current.lastMessage ? { ...current.lastMessage, unread: false } : null,
      replyTo: null,
      closedBy: { id: viewer.id, displayName: viewer.displayName, justify, obs, nextContact, closedAt: now, noMessage: mode.noMessage, mass: mode.mass },
    };
    const surveys = mode.research ? surveysOf() : null;
    if (mode.research && surveys) {
      const research: PendingResearch = await surveys.start(trx, tenantId, room.id, mode.research);
      closed.research = research;
      closed[mode.research === 'nps' ? 'npsRequestedAt' : 'csatRequestedAt'] = research.askedAt;
    }
    const saved = await save(trx, record, tenantId, closed, room);
    return { room: saved, noticeMessageId };
  }

  async function tagRequired(trx: Transaction, tenantId: string, config: AppConfig, room: Room): Promise<boolean> {
    if (config.claims?.tagWhenClose) return true;
    if (!room.departmentId) return false;
    return (await directory.departmentClaims(tenantId, room.departmentId, trx)).tagWhenClose === true;
  }

  async function withTags(trx: Transaction, tenantId: string, viewer: UserViewer, config: AppConfig, room: Room, ids: string[]): Promise<Room> {
    const unique = [...new Set(ids)];
    if (unique.length > 1 && !config.claims?.multiTags) throw validationError([{ field: 'tags', message: texts.validation.invalidValue }]);
    if (!room.active && !viewer.admin && clock.now().getTime() - Date.parse(room.lastMessageAt) > ONE_HOUR) {
      throw badRequest('tag_after_hour', texts.chat.tagAfterHour);
    }
    const found = await directory.tags(tenantId, unique, trx);
    if (found.length !== unique.length) throw validationError([{ field: 'tags', message: texts.validation.invalidValue }]);
    // tagsPerDepto (seed 001 §5): a department's tag only on chats of that department's queues.
    if (found.some((t) => !tagAllowed(config, t, room))) throw validationError([{ field: 'tags', message: texts.chatServer.tagOtherDepartment }]);
    return { ...room, tags: found.map((t) => t.id), tagsNames: found.map((t) => t.name) };
  }

  /** Agents to push or pull: oneself by default; others need admin or supervisor of the room. */
  async function targetsOf(tenantId: string, viewer: UserViewer, room: Room, agents: (string | { id: string })[] | undefined, trx: Transaction) {
    const ids = [...new Set((agents ?? []).map((a) => (typeof a === 'string' ? a : a.id)))];
    if (ids.length === 0 || (ids.length === 1 && ids[0] === viewer.id)) return [{ id: viewer.id, displayName: viewer.displayName }];
    if (!supervises(viewer, room)) throw forbidden('push_not_allowed', texts.chatServer.pushNotAllowed);
    const found = await directory.agents(tenantId, ids, trx);
    if (found.length !== ids.length) throw validationError([{ field: 'agents', message: texts.chatServer.agentNotFound }]);
    return found;
  }

  /** A tab query as the server runs it (REST page and live subscription alike). */
  function pageQuery(viewer: Viewer, config: AppConfig, query: { tab: RoomTabId; filter?: unknown; order?: unknown; limit?: unknown; history?: unknown }): { filter: Filter; order: 'asc' | 'desc'; limit: number } {
    const filter = tabScope(viewer, config, query.tab, query.filter, query.history);
    if (query.order !== undefined && query.order !== 'asc' && query.order !== 'desc') throw badRequest('invalid_order', texts.validation.invalidValue);
    const order = query.order === 'asc' || query.order === 'desc' ? query.order : defaultOrder(config);
    return { filter, order, limit: limitOf(query.tab, query.limit) };
  }

  return {
    tabScope,
    pageQuery,

    /** A page of a tab: the tab's limit by default, keyset `after` for the next page. */
    async list(scope: ChatScope, query: { tab: RoomTabId; filter?: unknown; order?: unknown; limit?: unknown; history?: unknown; after?: RoomCursor | null }) {
      const { tenantId, viewer, config } = scope;
      const { filter, order, limit } = pageQuery(viewer, config, query);
      const data = await rooms.list(tenantId, filter, { order, limit, after: query.after ?? null });
      const last = data[data.length - 1];
      return { data, next: data.length === limit && last ? roomCursor(last) : null };
    },

    async get(scope: ChatScope, roomId: string): Promise<Room> {
      const { tenantId, viewer, config } = scope;
      return loadVisible(tenantId, viewer, config, roomId);
    },

    /** Rooms of a contact's chat id (contact drawer history), newest first. */
    async byChatId(scope: ChatScope, chatId: string, channelId: string | null, limitIn: unknown): Promise<Room[]> {
      const { tenantId, viewer, config } = scope;
      const limit = limitIn === undefined ? CONTACT_HISTORY_LIMIT : Number(limitIn);
      if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw badRequest('invalid_limit', texts.validation.invalidValue);
      return rooms.byChatId(tenantId, chatId.slice(0, 320), channelId, visibilityFilter(viewer, config), limit);
    },

    /**
     * POST /api/rooms: the open room of the contact on the channel, or a new one attended by the caller.
     * `options.chatId` (active messages: the contact's phone after the 9th-digit rule) replaces the
     * contact's phone as the room's chat id.
     */
    async create(scope: ChatScope, input: CreateRoomInput, options: { chatId?: string } = {}): Promise<{ room: Room; created: boolean }> {
      const { tenantId, config } = scope;
      const viewer = userOnly(scope.viewer);
      if (!input.contactId && !input.contact) throw validationError([{ field: 'contact', message: texts.validation.requiredField }]);
      let channel: Channel | null = null;
      if (input.channelId) {
        channel = await directory.channel(tenantId, input.channelId);
        if (!channel || !channel.active) throw validationError([{ field: 'channelId', message: texts.chatServer.noChannel }]);
      } else {
        channel = (await directory.channels(tenantId)).find((c) => c.active && !c.hide && channelIs(c.type, 'whatsapp')) ?? null;
        if (!channel) throw validationError([{ field: 'channelId', message: texts.chatServer.noChannel }]);
      }
      const departmentId = input.departmentId ?? channel.departmentId;
      if (input.departmentId && !viewer.admin && !viewer.agentOf.includes(input.departmentId) && !viewer.supervisorOf.includes(input.departmentId)) {
        throw validationError([{ field: 'departmentId', message: texts.chat.chooseDepartment }]);
      }
      const phone = input.contact?.phone ? input.contact.phone.replace(/\D/g, '') : null;
      if (input.contact?.phone !== undefined && (!phone || phone.length < 10 || phone.length > 15)) throw validationError([{ field: 'contact.phone', message: texts.validation.phoneInvalid }]);
      const email = input.contact?.email?.trim().toLowerCase() || null;
      if (email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw validationError([{ field: 'contact.email', message: texts.validation.emailInvalid }]);
      if (input.contact && !phone && !email) throw validationError([{ field: 'contact.phone', message: texts.chatServer.phoneOrEmailRequired }]);
      if (input.contact && !input.contact.displayName.trim()) throw validationError([{ field: 'contact.displayName', message: texts.validation.displayNameRequired }]);

      return retryOnConflict(() =>
        feed.transaction(tenantId, async (trx, record) => {
          const now = clock.now().toISOString();
          let contact: ChatContact | null = null;
          if (input.contactId) {
            contact = await contacts.findById(trx, tenantId, input.contactId);
            if (!contact) throw validationError([{ field: 'contactId', message: texts.errors.notFound }]);
          } else if (phone) contact = await contacts.findByPhone(trx, tenantId, phone);
          if (!contact) {
            const displayName = input.contact!.displayName.trim().slice(0, 200);
            contact = {
              id: newId(), displayName, name: displayName, phone, email, photoUrl: null, channels: [channelIs(channel!.type, 'whatsapp') ? 'whatsapp' : channel!.type],
              agents: [viewer.id], clients: [], prospects: [], salesmen: [], vendId: null, group: false, chatId: phone, active: true,
              blockedSending: false, blockedReceiving: false, autoBlocked: false, chatsHistory: [], clientsName: [], lifeControl: { createdAt: now, deletedAt: null },
            };
            await contacts.insert(trx, tenantId, contact);
            record({ collection: 'contacts', id: contact.id, op: 'upsert' });
          }
          const chatId = options.chatId ?? contact.phone ?? contact.email;
          if (!chatId) throw validationError([{ field: 'contact.phone', message: texts.chatServer.phoneOrEmailRequired }]);
          const open = await rooms.findOpen(trx, tenantId, channel!.id, chatId);
          if (open) {
            if (!canSee(viewer, config, open)) throw conflict('room_in_attendance', texts.chatServer.inAttendanceElsewhere);
            return { room: open, created: false };
          }
          if (isWebchat(channel!.type)) throw validationError([{ field: 'channelId', message: texts.chatServer.noChannel }]);
          const departmentName = departmentId ? await directory.departmentName(tenantId, departmentId, trx) : null;
          const agent = { id: viewer.id, displayName: viewer.displayName };
          const base = newRoom({
            id: newId(), roomInc: await rooms.nextRoomInc(trx, tenantId), channel: channel!, chatId,
            author: { id: contact.id, displayName: contact.displayName, photoUrl: contact.photoUrl, email: contact.email, chatId, phone: contact.phone, type: 'client', blockedSending: contact.blockedSending },
            department: departmentId && departmentName ? { id: departmentId, name: departmentName } : null, publicToken: newSecret(), now,
          });
          const room: Room = { ...base, agents: [agent], agentsHistory: [agent], inAttend: true };
          await rooms.insert(trx, tenantId, room);
          record({ collection: 'rooms', id: room.id, op: 'upsert' });
          return { room, created: true };
        }),
      );
    },

    /** PATCH /api/rooms/:id: tags, on-hold, read/unread, annotated, replyTo, activeChat. */
    async patch(scope: ChatScope, roomId: string, input: PatchRoomInput): Promise<Room> {
      const { tenantId, config } = scope;
      const viewer = userOnly(scope.viewer);
      const readNow: Message[] = [];
      let holdMessageId: string | null = null;
      const saved = await feed.transaction(tenantId, async (trx, record) => {
        holdMessageId = null;
        const room = await loadVisible(tenantId, viewer, config, roomId, trx);
        let next = room;
        const attending = canAttend(viewer, room);
        if (input.onHold !== undefined || input.annotated !== undefined || input.replyTo !== undefined || input.activeChat !== undefined) {
          if (!attending) throw forbidden('enter_first', texts.chatServer.enterFirst);
        }
        if (input.tags !== undefined) next = await withTags(trx, tenantId, viewer, config, next, input.tags);
        if (input.onHold !== undefined) {
          if (!config.claims?.enableChatOnHold) throw forbidden('on_hold_disabled', texts.chatServer.onHoldDisabled);
          ensureOpen(room);
          if (room.internal) throw badRequest('internal_room', texts.chatServer.internalRoom);
          if (input.onHold.active) {
            const text = input.onHold.message?.trim();
            if (!text) throw badRequest('on_hold_message_required', texts.chatServer.onHoldMessageRequired, [{ field: 'onHold.message', message: texts.chatServer.onHoldMessageRequired }]);
            // The chosen message goes to the customer, written by the agent; being the hold's own
            // message it does not switch the hold off (any later send by the agent does).
            const now = clock.now().toISOString();
            const message = newMessage({ id: newId(), room: next, author: { id: viewer.id, displayName: viewer.displayName, type: 'agent' }, type: 'text', text, now, fromContact: false });
            const stored = deps.senderFor(next)?.inProcess === true ? { ...message, status: { sent: true, sentAt: now } } : message;
            await messages.insert(trx, tenantId, stored);
            record({ collection: 'messages', id: stored.id, op: 'upsert' });
            holdMessageId = stored.id;
            next = { ...applyMessage(next, stored, now), onHold: { active: true, message: text } };
          } else {
            next = { ...next, onHold: { active: false, message: null } };
          }
        }
        if (input.lastMessage !== undefined) {
          // Read/unread is the attendants' (seeing a queued chat is not reading it for them: marking
          // it read would tick the customer's messages read before anyone took it).
          ensureOpen(room);
          if (!attending) throw forbidden('enter_first', texts.chatServer.enterFirst);
          if (input.lastMessage.unread) {
            if (config.claims?.disableSetUnread && !viewer.admin) throw forbidden('unread_disabled', texts.chatServer.unreadDisabled);
            next = { ...next, unreadCount: Math.max(1, next.unreadCount), lastMessage: next.lastMessage ? { ...next.lastMessage, unread: true } : null };
          } else {
            const read = await markRead(trx, record, tenantId, next, readNow);
            next = { ...read, tags: next.tags, tagsNames: next.tagsNames, onHold: next.onHold };
          }
        }
        if (input.annotated !== undefined) next = { ...next, annotated: input.annotated };
        if (input.replyTo !== undefined) next = { ...next, replyTo: input.replyTo };
        if (input.activeChat !== undefined) next = { ...next, messageActive: false, ...({ activeChat: input.activeChat } as object) };
        const previous = (await rooms.findById(tenantId, room.id, trx)) ?? room;
        return save(trx, record, tenantId, next, previous);
      });
      if (holdMessageId) void messageService.dispatch(tenantId, holdMessageId).catch((err) => deps.logger.error({ err }, 'chat.deliver_failed'));
      // After commit: tell the provider (blue ticks on the customer's phone) up to the newest message read.
      const newest = readNow.filter((m) => m.messageExtId).sort((a, b) => a.lifeControl.createdAt.localeCompare(b.lifeControl.createdAt)).at(-1);
      const sender = newest ? deps.senderFor(saved) : null;
      if (newest && sender?.markRead) {
        void sender.markRead(tenantId, saved, newest).catch((err: unknown) => deps.logger.warn({ err, tenantId, roomId }, 'chat.mark_read_failed'));
      }
      return saved;
    },

    /** Enter: the agent joins agents and agentsHistory; the room is in attendance. */
    async push(scope: ChatScope, roomId: string, agents?: (string | { id: string })[]): Promise<Room> {
      const { tenantId, config } = scope;
      const viewer = userOnly(scope.viewer);
      return feed.transaction(tenantId, async (trx, record) => {
        const room = await loadVisible(tenantId, viewer, config, roomId, trx).catch((error: unknown) => deps.hooks.pushRefused(trx, tenantId, viewer, roomId, error));
        ensureOpen(room);
        if (room.channel === 'mail' && !viewer.admin && !viewer.claims.inbox && !config.claims?.inbox) throw forbidden();
        const targets = await targetsOf(tenantId, viewer, room, agents, trx);
        await deps.hooks.beforePush(trx, tenantId, viewer, room, targets);
        const add = (list: { id: string; displayName: string }[]) => [...list, ...targets.filter((t) => !list.some((a) => a.id === t.id))];
        // Adding others ('Agentes adicionados!'): a note says who added whom.
        const others = targets.filter((t) => t.id !== viewer.id && !room.agents.some((a) => a.id === t.id));
        if (others.length) await postSystemNote(deps, trx, record, tenantId, room, format(texts.chatServer.agentsAddedNote, { by: viewer.displayName, agents: others.map((a) => a.displayName).join(', ') }));
        const queuesHistory = [...room.queuesHistory, ...room.queues.filter((q) => !room.queuesHistory.some((h) => h.id === q.id))];
        const next: Room = { ...room, agents: add(room.agents), agentsHistory: add(room.agentsHistory), queuesHistory, inAttend: true, destination: 'vueJs' };
        return deps.hooks.afterPush(trx, record, tenantId, viewer, await save(trx, record, tenantId, next, room), room);
      });
    },

    /** Leave: the agent leaves agents; with nobody left the room goes back to its queue. */
    async pull(scope: ChatScope, roomId: string, agents?: (string | { id: string })[]): Promise<Room> {
      const { tenantId, config } = scope;
      const viewer = userOnly(scope.viewer);
      const saved = await feed.transaction(tenantId, async (trx, record) => {
        const room = await loadVisible(tenantId, viewer, config, roomId, trx);
        ensureOpen(room);
        const targets = await targetsOf(tenantId, viewer, room, agents, trx);
        const remaining = room.agents.filter((a) => !targets.some((t) => t.id === a.id));
        const next: Room = { ...room, agents: remaining, inAttend: remaining.length > 0 };
        return save(trx, record, tenantId, next, room);
      });
      deps.hooks.afterRelease(tenantId, [saved.departmentId, ...viewer.agentOf]);
      return saved;
    },

    /** PATCH /close, /closeNoMessage and /askresearch (researchMethod 'nps' or 'csat'). */
    async close(scope: ChatScope, roomId: string, input: CloseRoomInput, noMessage: boolean, research?: ResearchMethod): Promise<Room> {
      const { tenantId, config } = scope;
      const viewer = userOnly(scope.viewer);
      const result = await feed.transaction(tenantId, async (trx, record) => {
        const room = await loadVisible(tenantId, viewer, config, roomId, trx);
        return closeOne(trx, record, tenantId, viewer, config, room, input, { noMessage, mass: false, research });
      });
      if (result.noticeMessageId) void messageService.dispatch(tenantId, result.noticeMessageId).catch((err) => deps.logger.error({ err }, 'chat.deliver_failed'));
      deps.hooks.afterRelease(tenantId, [result.room.departmentId, ...viewer.agentOf]);
      return result.room;
    },

    /** POST /massClose: each room closes on its own; the ones that cannot are reported, not fatal. */
    async massClose(scope: ChatScope, ids: string[], justify: string | null): Promise<{ closed: string[]; skipped: { id: string; errorMessage: string }[] }> {
      const { tenantId, config } = scope;
      const viewer = userOnly(scope.viewer);
      const closed: string[] = [];
      const skipped: { id: string; errorMessage: string }[] = [];
      for (const id of [...new Set(ids)]) {
        try {
          const result = await feed.transaction(tenantId, async (trx, record) => {
            const room = await loadVisible(tenantId, viewer, config, id, trx);
            return closeOne(trx, record, tenantId, viewer, config, room, { closedBy: { justify } }, { noMessage: false, mass: true });
          });
          closed.push(id);
          if (result.noticeMessageId) void messageService.dispatch(tenantId, result.noticeMessageId).catch((err) => deps.logger.error({ err }, 'chat.deliver_failed'));
        } catch (error) {
          const message = (error as { errorMessage?: string }).errorMessage;
          if (!message) throw error;
          skipped.push({ id, errorMessage: message });
        }
      }
      if (closed.length) deps.hooks.afterRelease(tenantId, viewer.agentOf);
      return { closed, skipped };
    },

    /** Queue of a department for a room (used by ingest and transfers). */
    queueOfDepartment,
  };
}

export type RoomService = ReturnType<typeof createRoomService>;
