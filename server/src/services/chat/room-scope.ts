import {
  ADMIN_ONLY_MESSAGE_TYPES, BOT_DESTINATIONS, channelTypes, availableChatTabs, departmentQueueId, matches,
  type AppConfig, type Filter, type Room, type RoomTabId,
} from '@atendimento/schemas';
import type { Principal } from '../auth/auth-service';
import { forbidden } from '../../errors';
import type { ChatDirectoryRepository } from '../../db/repositories/chat-directory-repository';

/**
 * Who may see which rooms and messages (docs/chat.md "Tabs and visibility"). Every rule is a
 * Filter AST: the repository compiles it to SQL for lists and counts, and the hub evaluates
 * the same object on each changed record, so REST, snapshots and live changes agree.
 */

export type Viewer =
  | {
      kind: 'user';
      id: string;
      displayName: string;
      admin: boolean;
      claims: Record<string, boolean | undefined>;
      /** Department ids where the user is an agent / a supervisor. */
      agentOf: string[];
      supervisorOf: string[];
      /** Agents of the supervised departments. */
      supervisedAgents: string[];
      /** user.team: agent ids whose history this user may read. */
      team: string[];
      /** Tags the user's shared lists are narrowed to (tenant claim filterChatsByTags); empty: no narrowing. */
      showChatsWithTags?: string[];
      /** Contacts whose ERP salesman is the user (claim vendHistory with an ERP user id); undefined: no such view. */
      clientContacts?: string[];
    }
  | { kind: 'anonymous'; roomId: string };

export type UserViewer = Extract<Viewer, { kind: 'user' }>;

/** The viewer when it is a signed-in user; a visitor's token is refused (403). */
export function userOnly(viewer: Viewer): UserViewer {
  if (viewer.kind !== 'user') throw forbidden();
  return viewer;
}

/**
 * Who asks, in which tenant, under which configuration: the first argument of every chat
 * service call that acts for a caller. The web layer builds it once per request
 * (web/request.ts `scopeOf`); tenant first, as in every repository call.
 */
export interface ChatScope {
  tenantId: string;
  viewer: Viewer;
  config: AppConfig;
}

/** Builds the viewer of a principal (one query for supervisors, none otherwise). */
export async function viewerOf(principal: Principal, tenantId: string, directory: ChatDirectoryRepository): Promise<Viewer> {
  if (principal.kind === 'anonymous') return { kind: 'anonymous', roomId: principal.roomId };
  const user = principal.user;
  return {
    kind: 'user',
    id: user.id,
    displayName: user.displayName,
    admin: Boolean(user.claims.admin),
    claims: user.claims,
    agentOf: principal.agentOf,
    supervisorOf: principal.supervisorOf,
    supervisedAgents: await directory.agentsOfDepartments(tenantId, principal.supervisorOf),
    team: user.team ?? [],
    showChatsWithTags: user.showChatsWithTags ?? [],
    // One more query, only for salesmen: their clients, read when the request or subscription starts.
    ...(user.claims.vendHistory && user.erpUserId ? { clientContacts: await directory.clientContactsOf(tenantId, user.erpUserId) } : {}),
  };
}

const eq = (field: string, value: unknown): Filter => ({ field, op: '==', value });
const and = (...and: Filter[]): Filter => ({ and });
const or = (...or: Filter[]): Filter => ({ or });
const anyOf = (field: string, value: string[]): Filter => ({ field, op: 'array-contains-any', value });

/** Queue ids of the user: their departments' queues and their own agent queue. */
export function queuesOf(viewer: UserViewer): string[] {
  return [...new Set([...viewer.agentOf, ...viewer.supervisorOf].map(departmentQueueId)), `agent${viewer.id}`];
}

function hasTab(viewer: UserViewer, config: AppConfig, tab: RoomTabId): boolean {
  return availableChatTabs({ claims: viewer.claims, supervisorOf: viewer.supervisorOf }, config).includes(tab);
}

/** The tabs (rooms only) this viewer may open. */
export function roomTabsOf(viewer: UserViewer, config: AppConfig): RoomTabId[] {
  return availableChatTabs({ claims: viewer.claims, supervisorOf: viewer.supervisorOf }, config).filter((t): t is RoomTabId => t !== 'contacts');
}

/**
 * The server's filter for one tab, or null when the tab is not available to this viewer.
 * An agent only ever gets rooms of their own departments' queues, rooms they attend, and
 * the history of rooms they (or their team) attended.
 */
export function tabFilter(viewer: UserViewer, config: AppConfig, tab: RoomTabId): Filter | null {
  const base = baseTabFilter(viewer, config, tab);
  const tags = tagNarrowing(viewer, config, tab);
  return base && tags ? and(base, tags) : base;
}

/** The two views of 'Histórico' for a salesman (seed 001 §2): 'Meu Histórico' and 'Hitorico dos meus clientes'. */
export type HistoryView = 'mine' | 'clients';

/**
 * 'Hitorico dos meus clientes' (seed 001 §2 and §6: claim vendHistory with an ERP user id):
 * the closed chats of the contacts whose salesman the user is, whoever attended them. null
 * when the user has no such view.
 */
export function clientHistoryFilter(viewer: UserViewer, config: AppConfig): Filter | null {
  if (!viewer.claims.vendHistory || viewer.clientContacts === undefined) return null;
  const base = and(eq('active', false), eq('internal', false), { field: 'author.id', op: 'in', value: viewer.clientContacts });
  const tags = tagNarrowing(viewer, config, 'chatsHistories');
  return tags ? and(base, tags) : base;
}

/** Tabs a user's own chats fill: never narrowed by showChatsWithTags (they attend them). */
const OWN_TABS: readonly RoomTabId[] = ['userChats', 'userMailChat', 'internalChats'];

/**
 * Seed 001 §6 showChatsWithTags (with tenant claim filterChatsByTags): a non-admin with tags set
 * sees, in the shared lists (queues, team, bot, all queues, history), only chats carrying one.
 */
function tagNarrowing(viewer: UserViewer, config: AppConfig, tab: RoomTabId): Filter | null {
  const tags = viewer.showChatsWithTags ?? [];
  if (viewer.admin || !config.claims?.filterChatsByTags || tags.length === 0 || OWN_TABS.includes(tab)) return null;
  return anyOf('tags', tags);
}

function baseTabFilter(viewer: UserViewer, config: AppConfig, tab: RoomTabId): Filter | null {
  if (!hasTab(viewer, config, tab)) return null;
  const me = viewer.id;
  const notMail = { field: 'channel', op: '!=', value: 'mail' } as Filter;
  const supervisedQueues = viewer.supervisorOf.map(departmentQueueId);
  switch (tab) {
    case 'userChats':
      return and(eq('active', true), eq('internal', false), notMail, { field: 'agents', op: 'array-contains', value: me });
    case 'queuesChats':
      return and(
        eq('active', true), eq('internal', false), eq('inAttend', false), eq('destination', 'vueJs'), notMail,
        ...(viewer.admin ? [] : [anyOf('queues', queuesOf(viewer))]),
      );
    case 'teamChats':
      return and(
        eq('active', true), eq('internal', false), eq('inAttend', true), notMail,
        ...(viewer.admin ? [] : [or(anyOf('agents', viewer.supervisedAgents), anyOf('queues', supervisedQueues))]),
      );
    case 'userMailChat':
      return and(eq('active', true), eq('channel', 'mail'), { field: 'agents', op: 'array-contains', value: me });
    case 'mailChats':
      return and(eq('active', true), eq('channel', 'mail'), eq('inAttend', false), ...(viewer.admin ? [] : [anyOf('queues', queuesOf(viewer))]));
    case 'botChats':
      return and(
        eq('active', true), eq('internal', false), { field: 'destination', op: 'in', value: [...BOT_DESTINATIONS] },
        ...(viewer.admin ? [] : [{ field: 'departmentId', op: 'in', value: [...new Set([...viewer.agentOf, ...viewer.supervisorOf])] } as Filter]),
      );
    case 'allQueuesChats':
      return and(eq('active', true), eq('internal', false), eq('inAttend', false), eq('destination', 'vueJs'), { field: 'origin', op: 'in', value: channelTypes((c) => c.allQueues) });
    case 'chatsHistories': {
      const all = viewer.admin || Boolean(viewer.claims.enableAllHistoryChats);
      return and(
        eq('active', false), eq('internal', false),
        ...(all ? [] : [or(anyOf('agentsHistory', [...new Set([me, ...viewer.team, ...viewer.supervisedAgents])]), anyOf('queuesHistory', supervisedQueues))]),
      );
    }
    case 'internalChats':
      return and(eq('internal', true), { field: 'agents', op: 'array-contains', value: me });
  }
}

/** Every room this viewer may see: the union of their tabs (anonymous: their one room). */
export function visibilityFilter(viewer: Viewer, config: AppConfig): Filter {
  if (viewer.kind === 'anonymous') return eq('id', viewer.roomId);
  // Internal chats are their members' only, admins included.
  if (viewer.admin) return or(eq('internal', false), { field: 'agents', op: 'array-contains', value: viewer.id });
  const tabs = [...roomTabsOf(viewer, config).map((t) => tabFilter(viewer, config, t)), clientHistoryFilter(viewer, config)]
    .filter((f): f is Filter => f !== null);
  // An agent keeps seeing a room they attend even if a tab is switched off for them.
  return or(...tabs, { field: 'agents', op: 'array-contains', value: viewer.id });
}

export function canSee(viewer: Viewer, config: AppConfig, room: Room): boolean {
  return matches(room, visibilityFilter(viewer, config));
}

/** Attends the room (sends, closes, puts on hold): its agent, an admin, or a supervisor of its department. */
export function canAttend(viewer: Viewer, room: Room): boolean {
  if (viewer.kind !== 'user') return false;
  if (viewer.admin) return true;
  if (room.agents.some((a) => a.id === viewer.id)) return true;
  return supervises(viewer, room);
}

/** Supervisor of the room's department (or of one of its queues). */
export function supervises(viewer: Viewer, room: Room): boolean {
  if (viewer.kind !== 'user') return false;
  if (viewer.admin) return true;
  const queues = viewer.supervisorOf.map(departmentQueueId);
  return (room.departmentId !== null && viewer.supervisorOf.includes(room.departmentId)) || room.queues.some((q) => queues.includes(q.id));
}

/** The messages of a room this viewer may read: visitors never get internal notes; only admins get request/toChat. */
export function messageFilter(viewer: Viewer, roomId: string): Filter {
  const parts: Filter[] = [eq('roomId', roomId)];
  if (viewer.kind === 'anonymous') parts.push(eq('annotation', false));
  if (viewer.kind === 'anonymous' || !viewer.admin) parts.push({ field: 'type', op: 'not-in', value: [...ADMIN_ONLY_MESSAGE_TYPES] });
  return and(...parts);
}
