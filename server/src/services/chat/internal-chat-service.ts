import { createHash } from 'node:crypto';
import { emptyRoomState, format, internalChatId, messages as texts, type CreateInternalChatInput, type Room, type RoomAgent } from '@atendimento/schemas';
import { badRequest, forbidden, notFound, validationError } from '../../errors';
import { retryOnConflict } from '../../db/knex';
import type { ChatDeps } from './chat-deps';
import { newId, newSecret } from './ids';
import { canSee, userOnly, type ChatScope } from './room-scope';
import { postSystemNote } from './system-note';

/** The channel-table row of internal chats' rooms (schemas/src/chat/channel.ts). */
const INTERNAL: Room['channel'] = 'internal';

/**
 * Internal chats between agents (seed 001 §2 "Internal chat", §5): a chat with one agent or a
 * named group with several, whose members are its `agents`. Only members see it (room-scope's
 * visibility, REST and /ws alike); messages go through the ordinary message calls, delivered
 * in process. Its chat id joins the member ids with an underscore, so the same members meet in
 * the same chat.
 */
export function createInternalChatService(deps: ChatDeps) {
  const { feed, clock, rooms, directory } = deps;

  async function memberRoom(scope: ChatScope, roomId: string): Promise<Room> {
    const viewer = userOnly(scope.viewer);
    const room = await rooms.findById(scope.tenantId, roomId);
    if (!room || !canSee(viewer, scope.config, room)) throw notFound();
    if (!room.internal) throw badRequest('not_internal', texts.internalChat.notInternal);
    if (!room.agents.some((a) => a.id === viewer.id)) throw forbidden('not_member', texts.internalChat.notMember);
    return room;
  }

  return {
    /** POST /api/internalChats: the open chat of these members, or a new one (created true). */
    async create(scope: ChatScope, input: CreateInternalChatInput): Promise<{ room: Room; created: boolean }> {
      const { tenantId } = scope;
      const viewer = userOnly(scope.viewer);
      const others = [...new Set(input.agents)].filter((id) => id !== viewer.id);
      if (others.length === 0) throw badRequest('agents_required', texts.chat.chooseInternalAgents);
      const found = await directory.agents(tenantId, others);
      if (found.length !== others.length) throw validationError([{ field: 'agents', message: texts.chatServer.agentNotFound }]);
      const members: RoomAgent[] = [{ id: viewer.id, displayName: viewer.displayName }, ...found];
      const joined = internalChatId(members.map((m) => m.id));
      const chatId = joined.length <= 320 ? joined : `grupo:${createHash('sha256').update(joined).digest('hex')}`;
      const name = others.length > 1 ? input.internalChatName?.trim().slice(0, 200) || null : null;
      return retryOnConflict(() =>
        feed.transaction(tenantId, async (trx, record) => {
          const [open] = await rooms.list(tenantId, { and: [{ field: 'internal', op: '==', value: true }, { field: 'chatId', op: '==', value: chatId }, { field: 'active', op: '==', value: true }] }, { order: 'desc', limit: 1 }, trx);
          if (open) return { room: open, created: false };
          const now = clock.now().toISOString();
          const room: Room = {
            ...emptyRoomState(),
            id: newId(),
            roomInc: await rooms.nextRoomInc(trx, tenantId),
            chatId,
            channel: INTERNAL,
            channelId: null,
            channelIdTextit: null,
            origin: INTERNAL,
            destination: 'vueJs',
            departmentId: null,
            author: { id: viewer.id, displayName: viewer.displayName, photoUrl: null, email: null, chatId, phone: null, type: 'client' },
            internal: true,
            internalChatName: name,
            active: true,
            inAttend: true,
            agents: members,
            agentsHistory: members,
            lastMessageAt: now,
            unreadCount: 0,
            lifeControl: { createdAt: now, updatedAt: now, deletedAt: null },
            publicToken: newSecret(),
          };
          await rooms.insert(trx, tenantId, room);
          record({ collection: 'rooms', id: room.id, op: 'upsert' });
          return { room, created: true };
        }),
      );
    },

    /**
     * PATCH /api/internalChats/:id/agents: a member adds agents ('Agentes adicionados!'). The
     * new members see the chat (and its past messages) live in Interno and may write at once;
     * a note says who added whom.
     */
    async addAgents(scope: ChatScope, roomId: string, agentIds: string[]): Promise<Room> {
      const { tenantId } = scope;
      const viewer = userOnly(scope.viewer);
      await memberRoom(scope, roomId);
      const ids = [...new Set(agentIds)];
      const found = await directory.agents(tenantId, ids);
      if (found.length !== ids.length) throw validationError([{ field: 'agents', message: texts.chatServer.agentNotFound }]);
      return feed.transaction(tenantId, async (trx, record) => {
        const room = (await rooms.findById(tenantId, roomId, trx, true))!;
        // The caller may have left meanwhile (the lock decides).
        if (!room.active || !room.agents.some((a) => a.id === viewer.id)) throw forbidden('not_member', texts.internalChat.notMember);
        const joining = found.filter((f) => !room.agents.some((a) => a.id === f.id));
        if (joining.length === 0) throw badRequest('already_in_chat', texts.chatServer.alreadyInChat);
        const add = (list: RoomAgent[]) => [...list, ...joining.filter((f) => !list.some((a) => a.id === f.id))];
        const next: Room = { ...room, agents: add(room.agents), agentsHistory: add(room.agentsHistory), lifeControl: { ...room.lifeControl, updatedAt: clock.now().toISOString() } };
        await postSystemNote(deps, trx, record, tenantId, room, format(texts.chatServer.agentsAddedNote, { by: viewer.displayName, agents: joining.map((a) => a.displayName).join(', ') }));
        await rooms.save(trx, tenantId, next, room);
        record({ collection: 'rooms', id: room.id, op: 'upsert' });
        return next;
      });
    },

    /** PATCH /api/internalChats/:id/leave: the caller leaves; the last one out closes the chat. */
    async leave(scope: ChatScope, roomId: string): Promise<Room> {
      const { tenantId } = scope;
      const viewer = userOnly(scope.viewer);
      await memberRoom(scope, roomId);
      return feed.transaction(tenantId, async (trx, record) => {
        const room = (await rooms.findById(tenantId, roomId, trx, true))!;
        const agents = room.agents.filter((a) => a.id !== viewer.id);
        const next: Room = { ...room, agents, active: agents.length > 0, inAttend: agents.length > 0, lifeControl: { ...room.lifeControl, updatedAt: clock.now().toISOString() } };
        await rooms.save(trx, tenantId, next, room);
        record({ collection: 'rooms', id: room.id, op: 'upsert' });
        return next;
      });
    },
  };
}

export type InternalChatService = ReturnType<typeof createInternalChatService>;
