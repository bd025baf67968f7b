import type { UiState } from './consoleStores';

/**
 * What the service view keeps when the agent leaves it for another screen ('Contatos', the
 * profile...) and comes back in the same tab: the chosen tab and its filters, and the open chats
 * with the contact drawer. The chats' data is not kept: lists and rooms are fetched and made
 * live again on return, so nothing shown is stale.
 */
const KEPT = ['tab', 'unreadOnly', 'order', 'queueFilter', 'historyView', 'openRooms', 'drawerRoomId'] as const satisfies readonly (keyof UiState)[];

type KeptUi = Pick<UiState, (typeof KEPT)[number]>;

// Per user: another account signed in later in the same tab starts from the defaults.
const memory = new Map<string, Partial<KeptUi>>();

/** The view state `userId` left the service view with, if they did in this tab. */
export function recallUi(userId: string): Partial<KeptUi> | undefined {
  return memory.get(userId);
}

/** Keeps what the service view shows for the next time `userId` opens it. */
export function rememberUi(userId: string, state: UiState): void {
  const kept: Partial<KeptUi> = {};
  for (const key of KEPT) (kept as Record<string, unknown>)[key] = state[key];
  memory.set(userId, kept);
}
