import { format, messages as texts, type Room } from '@atendimento/schemas';
import { badRequest, conflict, forbidden, notFound } from '../../errors';
import type { ChatDeps } from './chat-deps';
import { canAttend, canSee, userOnly, type ChatScope } from './room-scope';
import { postSystemNote } from './system-note';

/**
 * 'Voltar ao início do bot' (seed 001 §4, §7 `POST /rooms/{id}/restart`; docs/console-operations.md
 * "Bot"): the chat goes back to the bot — every agent leaves, destination 'bot', not in
 * attendance — and waits in the 'Bot' tab (claim enableBotTab) until an agent takes it (push,
 * which sets destination vueJs again). No bot runs in this product: nothing is sent to the
 * customer; an external bot reading the room's destination would restart its flow.
 */
export function createBotRestartService(deps: ChatDeps) {
  const { feed, clock, rooms } = deps;
  return {
    async restart(scope: ChatScope, roomId: string): Promise<Room> {
      const { tenantId, config } = scope;
      const viewer = userOnly(scope.viewer);
      const claims = config.claims ?? {};
      const saved = await feed.transaction(tenantId, async (trx, record) => {
        const room = await rooms.findById(tenantId, roomId, trx, true);
        if (!room || !canSee(viewer, config, room)) throw notFound();
        if (!claims.backBeggining) throw forbidden('restart_disabled', texts.chatServer.restartDisabled);
        if (claims.disableRestartApp && !viewer.admin) throw forbidden('restart_disabled', texts.chatServer.restartDisabled);
        if (!room.active) throw conflict('room_closed', texts.chatServer.alreadyClosed);
        if (room.internal || room.channel === 'mail') throw badRequest('restart_unavailable', texts.chatServer.restartUnavailable);
        if (!canAttend(viewer, room)) throw forbidden('enter_first', texts.chatServer.enterFirst);
        await postSystemNote(deps, trx, record, tenantId, room, format(texts.chatServer.botRestartNote, { by: viewer.displayName }));
        const next: Room = {
          ...room,
          agents: [],
          inAttend: false,
          destination: 'bot',
          onHold: { active: false, message: null },
          replyTo: null,
          lifeControl: { ...room.lifeControl, updatedAt: clock.now().toISOString() },
        };
        await rooms.save(trx, tenantId, next, room);
        record({ collection: 'rooms', id: room.id, op: 'upsert' });
        return next;
      });
      // The agent's place is free again for the routing of their departments.
      deps.hooks.afterRelease(tenantId, [saved.departmentId, ...viewer.agentOf]);
      return saved;
    },
  };
}

export type BotRestartService = ReturnType<typeof createBotRestartService>;
