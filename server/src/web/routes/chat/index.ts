import type { Chat } from '../../../services/chat';
import type { ApiRegistry } from '../../access';
import { registerChatRoomRoutes } from './room-routes';
import { registerChatWebchatRoutes } from './webchat-routes';
import { registerInternalChatRoutes } from './internal-routes';
import { redactingResearch } from './research-redaction';

/** The chat domain's routes (docs/chat.md): the console's rooms and messages, and the web-chat channel. */
export function registerChatRoutes(registry: ApiRegistry, chat: Chat): void {
  const api = redactingResearch(registry);
  registerChatRoomRoutes(api, chat);
  registerChatWebchatRoutes(api, chat);
  registerInternalChatRoutes(api, chat);
}
