import { useSyncExternalStore } from 'react';
import type { StatusOption, User } from '@atendimento/schemas';
import { api } from '../api/api';
import { session, STORAGE_KEYS } from '../api/session';

/**
 * The agent's presence (seed 002 §4, 000 §4): the chosen status is kept locally; on sign-in the
 * app sends 'logon', the current status 1 s later and every 60 s; on sign-out 'logoff'. The
 * server (POST /api/users/{id}/status) keeps the records; "online" there means a record within
 * 90 s, so a closed tab turns offline by itself.
 */
const PRESENCE_TIMING = { firstBeatMs: 1_000, heartbeatMs: 60_000 } as const;

export const DEFAULT_STATUS = 'online';

type Listener = () => void;
let current: string | null = null;
const listeners = new Set<Listener>();

function key(userId: string): string {
  return `${STORAGE_KEYS.status}.${userId}`;
}

/** The status this user chose last on this browser, else the server's, else online. */
function storedStatus(user: Pick<User, 'id' | 'status'>): string {
  return localStorage.getItem(key(user.id)) ?? (user.status && !['logon', 'logoff'].includes(user.status) ? user.status : DEFAULT_STATUS);
}

/**
 * Sends one status record; heartbeats pass notify false so a network blip does not toast. A
 * heartbeat (`heartbeat: true`) is answered with the status chosen on another device when there
 * is one (docs/realtime.md "Two devices").
 */
async function sendStatus(userId: string, status: string, notify = false, heartbeat = false): Promise<string> {
  const answer = await api<{ data: { status: string } }>(`/api/users/${encodeURIComponent(userId)}/status`, { method: 'POST', body: heartbeat ? { status, heartbeat } : { status }, notify });
  return answer.data?.status ?? status;
}

/** Bumped by every choice in this tab: a heartbeat answer that crosses one is stale. */
let choices = 0;

/** Shows a status chosen elsewhere (another tab, another device), keeping it for this browser. */
function adopt(userId: string, status: string): void {
  if (status === current) return;
  current = status;
  localStorage.setItem(key(userId), status);
  emit();
}

function emit(): void {
  for (const listener of listeners) listener();
}

/** The status list of the tenant, in its configured order. */
export function statusOptions(list: StatusOption[] | undefined): StatusOption[] {
  return [...(list ?? [])].sort((a, b) => a.index - b.index);
}

/** The matching entry of the list, compared case-insensitively (seed 001 §3). */
export function findStatus(list: StatusOption[] | undefined, text: string | null): StatusOption | undefined {
  const wanted = (text ?? '').toLowerCase();
  return (list ?? []).find((option) => option.text.toLowerCase() === wanted);
}

export const presence = {
  get status(): string | null {
    return current;
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Chooses a status: kept locally at once, then sent (errors toast). */
  async choose(userId: string, status: string): Promise<void> {
    choices++;
    current = status;
    localStorage.setItem(key(userId), status);
    emit();
    await sendStatus(userId, status, true);
  },
  /**
   * Starts the heartbeat for a signed-in user: 'logon', the status after 1 s, then every 60 s;
   * 'logoff' before sign-out. Returns the stop function.
   */
  start(user: Pick<User, 'id' | 'status'>, timing: { firstBeatMs: number; heartbeatMs: number } = PRESENCE_TIMING): () => void {
    current = storedStatus(user);
    emit();
    // Beats are heartbeats: they repeat what this tab knows and take a status chosen since on
    // another device (or set by an admin); only a choice in the status bar changes the status.
    let stopped = false;
    const beat = () => {
      const before = choices;
      sendStatus(user.id, current ?? DEFAULT_STATUS, false, true)
        .then((answered) => {
          if (before === choices && !stopped && answered !== 'logon' && answered !== 'logoff') adopt(user.id, answered);
        })
        .catch((error) => console.warn('presence heartbeat failed', error));
    };
    void sendStatus(user.id, 'logon').catch((error) => console.warn('presence logon failed', error));
    const first = setTimeout(beat, timing.firstBeatMs);
    const every = setInterval(beat, timing.heartbeatMs);
    const stopTimers = () => {
      stopped = true;
      clearTimeout(first);
      clearInterval(every);
    };
    const offBefore = session.beforeSignOut(async () => {
      stopTimers();
      await sendStatus(user.id, 'logoff').catch(() => undefined);
    });
    const offEnd = session.onSignOut(stopTimers);
    // Another tab of this browser chose a status: this one shows it and beats with it (else
    // each tab's heartbeat sent its own, and the bar of the first said 'ausente' while the
    // second had set online).
    const onStorage = (event: StorageEvent) => {
      if (event.key !== key(user.id) || !event.newValue || event.newValue === current) return;
      choices++;
      current = event.newValue;
      emit();
    };
    window.addEventListener('storage', onStorage);
    return () => {
      stopTimers();
      offBefore();
      offEnd();
      window.removeEventListener('storage', onStorage);
    };
  },
};

const readStatus = () => presence.status;

/** The current status, re-rendering on change. */
export function usePresenceStatus(): string | null {
  return useSyncExternalStore(presence.subscribe, readStatus, readStatus);
}
