import { hiddenResearchFields, MAX_MESSAGES_LIMIT, MESSAGES_PAGE_SIZE, messages as texts, type Filter, type RoomTabId } from '@atendimento/schemas';
import { badRequest, forbidden, notFound } from '../../errors';
import type { LiveCollection, LiveQuery, LiveRecord } from '../changes/live-collection';
import type { ChatDeps } from './chat-deps';
import type { RoomService } from './room-service';
import { canSee, messageFilter, viewerOf, visibilityFilter } from './room-scope';

/** Live collection names the console and the widget subscribe to (seed 002 §7). */
const ROOMS_COLLECTION = 'rooms';
const MESSAGES_COLLECTION = 'messages';

type Query = Record<string, unknown>;

function queryOf(input: unknown): Query {
  if (input === undefined || input === null) return {};
  if (typeof input !== 'object' || Array.isArray(input)) throw badRequest('invalid_query', texts.chatServer.filterInvalid);
  return input as Query;
}

function idOf(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 64) throw badRequest('invalid_query', texts.chatServer.filterInvalid);
  return value;
}

/**
 * `rooms` and `messages` on the realtime hub (docs/chat.md "Live lists"). The server builds
 * every filter from the caller (tenant, role, claims, department membership) with the same
 * rules as the REST lists (room-scope.ts); the client only picks a tab, narrows it and
 * chooses the order, so an agent never receives another department's room.
 *
 * `rooms` queries: `{ tab, filter?, order?, limit?, history? }` or `{ roomId }` (open chat header,
 * public page, web-chat visitor). `messages` queries: `{ roomId, limit? }`, newest first.
 */
export function createChatLiveCollections(deps: ChatDeps, roomService: RoomService): LiveCollection[] {
  const { rooms, messages, directory } = deps;

  const roomsCollection: LiveCollection = {
    name: ROOMS_COLLECTION,
    async resolve(tenant, principal, input): Promise<LiveQuery> {
      const q = queryOf(input);
      const viewer = await viewerOf(principal, tenant.id, directory);
      const config = tenant.appConfig;
      // Survey answers only for admins and showNPS / showCSAT (the REST routes cut them too).
      const hidden = hiddenResearchFields(viewer.kind === 'user' ? { claims: { ...viewer.claims, admin: viewer.admin } } : null);
      const omit = hidden.length ? { omitFields: hidden } : {};
      if (q.roomId !== undefined || viewer.kind === 'anonymous') {
        const roomId = q.roomId === undefined && viewer.kind === 'anonymous' ? viewer.roomId : idOf(q.roomId);
        if (viewer.kind === 'anonymous' && roomId !== viewer.roomId) throw forbidden();
        const filter: Filter = { and: [visibilityFilter(viewer, config), { field: 'id', op: '==', value: roomId }] };
        return { filter, orderBy: [{ field: 'lastMessageAt', direction: 'desc' }], limit: 1, ...omit };
      }
      const tab = q.tab as RoomTabId;
      const page = roomService.pageQuery(viewer, config, { tab, filter: q.filter, order: q.order, limit: q.limit, history: q.history });
      return { filter: page.filter, orderBy: [{ field: 'lastMessageAt', direction: page.order }], limit: page.limit, ...omit };
    },
    async snapshot(trx, tenantId, query) {
      const order = query.orderBy[0]?.direction ?? 'desc';
      return (await rooms.list(tenantId, query.filter, { order, limit: query.limit }, trx)) as unknown as LiveRecord[];
    },
    async load(tenantId, ids) {
      return (await rooms.loadForLive(tenantId, ids)) as unknown as LiveRecord[];
    },
  };

  const messagesCollection: LiveCollection = {
    name: MESSAGES_COLLECTION,
    async resolve(tenant, principal, input): Promise<LiveQuery> {
      const q = queryOf(input);
      const viewer = await viewerOf(principal, tenant.id, directory);
      const roomId = q.roomId === undefined && viewer.kind === 'anonymous' ? viewer.roomId : idOf(q.roomId);
      const room = await rooms.findById(tenant.id, roomId);
      if (!room || !canSee(viewer, tenant.appConfig, room)) throw notFound();
      const limit = q.limit === undefined ? MESSAGES_PAGE_SIZE : Number(q.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_MESSAGES_LIMIT) throw badRequest('invalid_limit', texts.validation.invalidValue);
      // Deleted messages stay in the window: the bubble shows 'Mensagem apagada'.
      // Ties by id, newest first as the page's SQL (message-repository `page`): the window holds the latest of a burst.
      return { filter: messageFilter(viewer, roomId), orderBy: [{ field: 'lifeControl.createdAt', direction: 'desc' }, { field: 'id', direction: 'desc' }], limit, includeDeleted: true };
    },
    async snapshot(trx, tenantId, query) {
      return (await messages.page(tenantId, query.filter!, query.limit, null, trx)) as unknown as LiveRecord[];
    },
    async load(tenantId, ids) {
      return (await messages.findByIds(tenantId, ids)) as unknown as LiveRecord[];
    },
  };

  return [roomsCollection, messagesCollection];
}
