import type { Chat } from '../../../services/chat';
import type { ApiRegistry } from '../../access';
import { registerChatRoomRoutes } from './room-routes';
import { registerChatWebchatRoutes } from './webchat-routes';
import { registerInternalChatRoutes } from './internal-routes';

/** The chat domain's routes (docs/chat.md): the console's rooms and messages, and the web-chat channel. */
export function registerChatRoutes(api: ApiRegistry, chat: Chat): void {
  registerChatRoomRoutes(api, chat);
  registerChatWebchatRoutes(api, chat);
  registerInternalChatRoutes(api, chat);
}
