import { messages as texts } from '@atendimento/schemas';
import { badRequest, forbidden, notFound } from '../../errors';
import type { ChatDeps } from './chat-deps';
import { canAttend, canSee, userOnly, type ChatScope } from './room-scope';

/**
 * The public link of a chat (`/chat/:publicToken`, seed 002 §2; docs/console-operations.md
 * "Public link"): anyone holding it reads the conversation (without internal notes), so only
 * whoever attends the chat — its agents, a supervisor of its department, an admin — gets it.
 */
export function createPublicLinkService(deps: Pick<ChatDeps, 'rooms'>) {
  return {
    async path(scope: ChatScope, roomId: string): Promise<string> {
      const viewer = userOnly(scope.viewer);
      const room = await deps.rooms.findById(scope.tenantId, roomId);
      if (!room || !canSee(viewer, scope.config, room)) throw notFound();
      if (room.internal) throw badRequest('internal_room', texts.chatServer.internalRoom);
      if (!canAttend(viewer, room)) throw forbidden('enter_first', texts.chatServer.enterFirst);
      return `/chat/${encodeURIComponent(room.publicToken)}`;
    },
  };
}
