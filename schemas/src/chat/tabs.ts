import type { AppConfig, User } from '../domain';
import type { Filter } from '../query';

/**
 * The chat-list tabs of seed 001 §2 (ids, labels, order) with the subscription limits of
 * seed 002 §7. The server decides what each tab contains (docs/chat.md "Tabs"); the UI only
 * picks a tab, narrows it with a filter and chooses the order.
 */
export const CHAT_TAB_IDS = [
  'contacts', 'userChats', 'queuesChats', 'teamChats', 'userMailChat', 'mailChats', 'botChats', 'allQueuesChats', 'chatsHistories', 'internalChats',
] as const;
export type ChatTabId = (typeof CHAT_TAB_IDS)[number];
/** Tabs listing rooms (all but 'contacts', which lists the contacts collection). */
export type RoomTabId = Exclude<ChatTabId, 'contacts'>;

export interface ChatTab {
  id: ChatTabId;
  label: string;
  /** Live subscription limit (seed 002 §7); scrolling asks for more by raising the limit. */
  limit: number;
  /** Whether 'Tudo' / 'Não Lido' chips show on the tab. */
  unreadChips: boolean;
}

export const CHAT_TABS: readonly ChatTab[] = [
  { id: 'contacts', label: 'Contatos', limit: 20, unreadChips: false },
  { id: 'userChats', label: 'Meus', limit: 100, unreadChips: true },
  { id: 'queuesChats', label: 'Fila', limit: 100, unreadChips: true },
  { id: 'teamChats', label: 'Equipe', limit: 10, unreadChips: true },
  { id: 'userMailChat', label: 'Meu Inbox', limit: 10, unreadChips: true },
  { id: 'mailChats', label: 'Inbox', limit: 10, unreadChips: true },
  { id: 'botChats', label: 'Bot', limit: 10, unreadChips: false },
  { id: 'allQueuesChats', label: 'Todas Filas', limit: 10, unreadChips: true },
  { id: 'chatsHistories', label: 'Histórico', limit: 10, unreadChips: false },
  { id: 'internalChats', label: 'Interno', limit: 100, unreadChips: true },
];

export const CHAT_TAB_BY_ID: Readonly<Record<ChatTabId, ChatTab>> = Object.fromEntries(CHAT_TABS.map((t) => [t.id, t])) as Record<ChatTabId, ChatTab>;

/** Largest limit a room subscription or page may ask for (scrolling raises the limit). */
export const MAX_ROOMS_LIMIT = 500;
/** Messages per page in an open chat (seed 002 §7). */
export const MESSAGES_PAGE_SIZE = 20;
/** Largest message page a caller may ask for. */
export const MAX_MESSAGES_LIMIT = 200;
/** Room search answers at most this many ids (seed 001 §9). */
export const ROOM_SEARCH_LIMIT = 100;
/** Contact history in the drawer (seed 001 §9). */
export const CONTACT_HISTORY_LIMIT = 5;

/**
 * Room fields a tab subscription, a page or a search may filter on (Filter AST of ../query).
 * Array fields (agents, queues, agentsHistory, queuesHistory, tags) take 'array-contains' /
 * 'array-contains-any' with ids. Anything else is refused with 400.
 */
export const ROOM_FILTER_FIELDS = [
  'id', 'active', 'inAttend', 'internal', 'channel', 'channelId', 'origin', 'destination', 'departmentId', 'chatId', 'roomInc',
  'author.id', 'lastMessage.unread', 'lastMessage.lifeControl.createdAt', 'lifeControl.createdAt', 'closedBy.closedAt',
  'onHold.active', 'nps.value', 'csat.value', 'hide', 'group',
  'agents', 'queues', 'agentsHistory', 'queuesHistory', 'tags',
] as const;
export type RoomFilterField = (typeof ROOM_FILTER_FIELDS)[number];

/** Subscription query for the live collection `rooms` (and GET /api/rooms). */
export type RoomsQuery =
  | {
      tab: RoomTabId;
      /** Narrows the tab: only ROOM_FILTER_FIELDS. */
      filter?: Filter | null;
      /** By last message date; default desc ('asc' with tenant claim ascOrder). */
      order?: 'asc' | 'desc';
      /** Default: the tab's limit; at most MAX_ROOMS_LIMIT. */
      limit?: number;
    }
  /** One room (open chat header, public page, visitor widget): only if the caller may see it. */
  | { roomId: string };

/** Subscription query for the live collection `messages`: the newest page of one room. */
export interface MessagesQuery {
  roomId: string;
  /** Default MESSAGES_PAGE_SIZE; older pages come from GET /api/rooms/:id/messages?before=. */
  limit?: number;
}

/** Department queue id for a department (seed 001 §3: "depto" + department id). */
export function departmentQueueId(departmentId: string): string {
  return `depto${departmentId}`;
}

type TabUser = Pick<User, 'claims'> & { supervisorOf?: string[]; departments?: string[] };

/** Tenant flag or user claim (the seed lists enable/disable switches on both). */
function flag(user: TabUser, config: Pick<AppConfig, 'claims'> | null | undefined, name: string): boolean {
  return Boolean(user.claims?.[name]) || Boolean(config?.claims?.[name]);
}

/**
 * A tenant's arrangement of the chat tabs (seed 001 §2: "Tab order and attributes can be
 * overridden by app configuration chatTabs"; `AppConfig.chatTabs`, edited under 'Visões'):
 * listed tabs come first in the listed order, the others keep their default order after them;
 * `label` renames a tab, `hidden` removes it for everyone. It only arranges what the claims
 * already give: a tab a user may not have stays unavailable whatever the list says, and 'Meus'
 * (the agent's own chats) cannot be hidden.
 */
export interface ChatTabSetting {
  id: ChatTabId;
  /** Shown instead of the default title ('Fila' → 'Aguardando'); empty: the default. */
  label?: string | null;
  hidden?: boolean;
}

/** Tabs a tenant cannot hide: the agent's own chats ('Meus'), which other screens rely on. */
export const UNHIDEABLE_CHAT_TABS: readonly ChatTabId[] = ['userChats'];
/** Longest tab label override (the vertical tabs are 84 px wide). */
export const CHAT_TAB_LABEL_MAX = 30;

/**
 * The stored `chatTabs` as a clean list: only known tab ids, each once (the first wins), labels
 * trimmed (empty dropped). Whatever else the column may hold (it was free JSON) is ignored.
 */
export function chatTabSettings(raw: unknown): ChatTabSetting[] {
  if (!Array.isArray(raw)) return [];
  const seen = new Set<ChatTabId>();
  const out: ChatTabSetting[] = [];
  for (const entry of raw) {
    if (!entry || typeof entry !== 'object') continue;
    const { id, label, hidden } = entry as Record<string, unknown>;
    if (typeof id !== 'string' || !(id in CHAT_TAB_BY_ID) || seen.has(id as ChatTabId)) continue;
    seen.add(id as ChatTabId);
    const text = typeof label === 'string' ? label.trim().slice(0, CHAT_TAB_LABEL_MAX) : '';
    out.push({ id: id as ChatTabId, ...(text && { label: text }), ...(hidden === true && { hidden: true }) });
  }
  return out;
}

/**
 * Applies a tenant's chatTabs to the tabs the claims allow: order as listed (the rest after, in
 * their default order), hidden ones removed. Never adds a tab that is not in `allowed`.
 */
export function arrangeChatTabs(allowed: readonly ChatTabId[], chatTabs: unknown): ChatTabId[] {
  const list = chatTabSettings(chatTabs);
  const hidden = new Set(list.filter((t) => t.hidden && !UNHIDEABLE_CHAT_TABS.includes(t.id)).map((t) => t.id));
  const shown = (id: ChatTabId) => allowed.includes(id) && !hidden.has(id);
  const listed = list.map((t) => t.id).filter(shown);
  return [...listed, ...allowed.filter((id) => shown(id) && !listed.includes(id))];
}

/** Each tab's title for this tenant: its chatTabs label, else the seed's. */
export function chatTabLabels(config: Pick<AppConfig, 'chatTabs'> | null | undefined): Record<ChatTabId, string> {
  const labels = Object.fromEntries(CHAT_TABS.map((t) => [t.id, t.label])) as Record<ChatTabId, string>;
  for (const t of chatTabSettings(config?.chatTabs)) if (t.label) labels[t.id] = t.label;
  return labels;
}

/**
 * The tabs this user may open, in the seed's order (001 §2 "Tabs in order") as the tenant's
 * chatTabs arranges it. Shared by the console (what to show) and the server (what to allow):
 * a tab the user does not have, or the tenant hides, answers 403.
 */
export function availableChatTabs(user: TabUser, config: (Pick<AppConfig, 'claims'> & Partial<Pick<AppConfig, 'chatTabs'>>) | null | undefined): ChatTabId[] {
  const admin = Boolean(user.claims?.admin);
  const supervisor = admin || (user.supervisorOf?.length ?? 0) > 0;
  const tabs: ChatTabId[] = ['contacts', 'userChats'];
  if (!flag(user, config, 'disableQueuesTab')) tabs.push('queuesChats');
  if (supervisor) tabs.push('teamChats');
  if (admin || user.claims?.inbox || config?.claims?.inbox) tabs.push('userMailChat', 'mailChats');
  if (flag(user, config, 'enableBotTab')) tabs.push('botChats');
  if (flag(user, config, 'enableAllQueuesTab')) tabs.push('allQueuesChats');
  tabs.push('chatsHistories');
  if (!flag(user, config, 'disableInternalChats')) tabs.push('internalChats');
  return arrangeChatTabs(tabs, config?.chatTabs);
}
