import {
  ROOM_SEARCH_LIMIT, SEARCH_MIN_LENGTH, departmentQueueId, maySeeResearch, messages as texts,
  type AppConfig, type CounterAnswer, type Filter, type ReadAnswer, type Room, type RoomSearchInput,
} from '@atendimento/schemas';
import { badRequest, forbidden, validationError } from '../../errors';
import type { ChatDeps } from './chat-deps';
import type { RoomService } from './room-service';
import { roomTabsOf, tabFilter, visibilityFilter, type Viewer, type ChatScope } from './room-scope';

/** Strips what the seed strips from a search term: + / ( ) (seed 001 §5). */
function normaliseSearchText(text: string): { text: string; numeric: string | null } {
  const stripped = text.replace(/[+/()]/g, '').trim();
  if (/^[\d\s.-]+$/.test(stripped) && /\d/.test(stripped)) return { text: stripped, numeric: stripped.replace(/\D/g, '') };
  return { text: stripped, numeric: null };
}

/**
 * Room search (POST /api/mongodb/search) and the per-tab counters the console polls every
 * 5 s (GET /api/counter, GET /api/read). Everything runs inside the caller's visibility.
 */
export function createRoomSearchService(deps: ChatDeps, roomService: RoomService) {
  const { rooms, clock } = deps;

  return {
    async search(scope: ChatScope, input: RoomSearchInput): Promise<{ rooms: Room[]; busca: string }> {
      const { tenantId, viewer, config } = scope;
      const visible = input.tab ? roomService.tabScope(viewer, config, input.tab, null) : visibilityFilter(viewer, config);
      const term = normaliseSearchText(input.text ?? '');
      // A number of any length is a chat number ('#63') or a phone, looked up by equality; words need 3 letters (seed).
      if (term.text && term.numeric === null && term.text.length < SEARCH_MIN_LENGTH) {
        throw badRequest('search_too_short', texts.validation.search3, [{ field: 'text', message: texts.validation.search3 }]);
      }
      const parts: Filter[] = [visible];
      if (input.tags?.length) parts.push({ field: 'tags', op: 'array-contains-any', value: input.tags });
      if (input.channels?.length) parts.push({ field: 'channelId', op: 'in', value: input.channels });
      if (input.agents?.length) parts.push({ field: 'agentsHistory', op: 'array-contains-any', value: input.agents });
      if (input.departments?.length) parts.push({ field: 'queuesHistory', op: 'array-contains-any', value: input.departments.map(departmentQueueId) });
      const full = config.claims?.npsFive ? [1, 5] : [0, 10];
      if (input.nps && (input.nps[0] !== full[0] || input.nps[1] !== full[1])) {
        // Narrowing by score would reveal it: only who may read the answers (maySeeResearch).
        if (viewer.kind !== 'user' || !maySeeResearch({ claims: { ...viewer.claims, admin: viewer.admin } }, 'nps')) throw forbidden('research_filter_denied', texts.chatServer.researchFilterDenied);
        parts.push({ field: 'nps.value', op: '>=', value: input.nps[0] }, { field: 'nps.value', op: '<=', value: input.nps[1] });
      }
      if (input.dates) {
        const [from, to] = input.dates.map((d) => new Date(d));
        if (!from || !to || Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) throw validationError([{ field: 'dates', message: texts.validation.invalidValue }]);
        const end = /^\d{4}-\d{2}-\d{2}$/.test(input.dates[1]) ? new Date(to.getTime() + 86_400_000 - 1) : to;
        parts.push({ field: 'lifeControl.createdAt', op: '>=', value: from.toISOString() }, { field: 'lifeControl.createdAt', op: '<=', value: end.toISOString() });
      }
      if (input.myContacts && viewer.kind === 'user') parts.push({ field: 'agentsHistory', op: 'array-contains', value: viewer.id });
      // Seed: the search runs only when something is set; otherwise it is cleared.
      if (parts.length === 1 && !term.text) return { rooms: [], busca: '' };
      const found = await rooms.search(tenantId, { and: parts }, { numeric: term.numeric, text: term.numeric ? null : term.text || null }, ROOM_SEARCH_LIMIT);
      return { rooms: found, busca: term.text };
    },

    /** Totals and unread rooms per tab the caller has, and rooms per queue on 'Todas Filas'. */
    async counters(scope: ChatScope): Promise<CounterAnswer['data']> {
      const { tenantId, viewer, config } = scope;
      if (viewer.kind !== 'user') return { tabs: {}, queues: {}, at: clock.now().toISOString() };
      const tabs: CounterAnswer['data']['tabs'] = {};
      let queues: Record<string, number> = {};
      for (const tab of roomTabsOf(viewer, config)) {
        const filter = tabFilter(viewer, config, tab)!;
        tabs[tab] = await rooms.count(tenantId, filter);
        if (tab === 'allQueuesChats') queues = await rooms.countByQueue(tenantId, filter);
      }
      return { tabs, queues, at: clock.now().toISOString() };
    },

    /** Own chats' unread state for the title 'ChatBot UF (n)' and the favicon badge. */
    async read(scope: ChatScope): Promise<ReadAnswer['data']> {
      const { tenantId, viewer, config } = scope;
      const at = clock.now().toISOString();
      if (viewer.kind !== 'user') return { unreadChats: 0, unreadMessages: 0, chats: 0, at };
      const own = tabFilter(viewer, config, 'userChats')!;
      const counts = await rooms.count(tenantId, own);
      const unreadMessages = await rooms.unreadMessages(tenantId, own);
      return { unreadChats: counts.unread, unreadMessages, chats: counts.total, at };
    },
  };
}
