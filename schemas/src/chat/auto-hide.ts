import { isAdmin } from '../access';
import type { AppConfig, User } from '../domain';
import type { Room } from './room';
import { roomDepartments } from './tags';

/**
 * Seed 001 §4 "Auto-hide of loaded chat": an open chat closes itself for a user who is not one
 * of its agents, not a supervisor of its department, not admin and without enableAllQueuesTab,
 * unless the chat has no agents (it waits in a queue) or the tenant sets disableHideLoadedChat.
 * What it closes: the agent who transferred a chat away (and did not stay) keeps seeing it until
 * they close it, with 'Entrar no chat' on a chat that is now a colleague's.
 */
export function hidesLoadedChat(
  user: Pick<User, 'id' | 'claims'> & { supervisorOf?: readonly string[] },
  room: Pick<Room, 'agents' | 'departmentId' | 'queues' | 'internal'>,
  config: Pick<AppConfig, 'claims'>,
): boolean {
  if (config.claims?.disableHideLoadedChat || room.internal) return false;
  if (!room.agents?.length || room.agents.some((a) => a.id === user.id)) return false;
  if (isAdmin(user) || user.claims?.enableAllQueuesTab) return false;
  const departments = roomDepartments(room);
  return !(user.supervisorOf ?? []).some((d) => departments.has(d));
}
