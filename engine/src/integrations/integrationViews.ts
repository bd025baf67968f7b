import { useEffect, useSyncExternalStore } from 'react';
import { api } from '../api/api';
import { sessionRealtime } from '../api/realtime';
import { session } from '../api/session';
import type { RegisterView } from '../registers/definitions';
import type { IntegrationView as SharedIntegrationView } from '@atendimento/schemas/integrations/index';

/** An integration as this user's GET /api/integration-definitions gives it (list name `integration/{collection}`). */
export type IntegrationView = SharedIntegrationView<RegisterView>;

type Listener = () => void;
let current: IntegrationView[] | null = null;
let loadedFor: string | null = null;
let inflight: Promise<IntegrationView[]> | null = null;
let stopLive: (() => void) | null = null;
const listeners = new Set<Listener>();

function emit(): void {
  for (const listener of listeners) listener();
}

/**
 * Fetches this user's integrations (seed 000 §2 start-up step 4). Failures are logged only
 * (seed 000 §8): the app starts without them.
 */
export function refreshIntegrations(): Promise<IntegrationView[]> {
  const userId = session.user?.id ?? null;
  const promise = api<{ data: IntegrationView[] }>('/api/integration-definitions', { notify: false }).then(
    (body) => [...(body?.data ?? [])].sort((a, b) => a.order - b.order),
    (error: unknown) => {
      console.warn('integrations unavailable', error);
      return current ?? [];
    },
  );
  inflight = promise;
  void promise.then((views) => {
    // A newer refresh (or a sign-out) superseded this one.
    if (inflight !== promise) return;
    inflight = null;
    current = views;
    loadedFor = userId;
    emit();
  });
  return promise;
}

/**
 * Follows the definitions live (the hub's `integration_views`: ids and timestamps only): any
 * change refetches this user's views, so the menu, the list and an open form change without a
 * reload — for every signed-in user, since the server filters what the refetch returns. The
 * subscription rides on the session's one realtime client, which sign-out closes.
 */
function startLive(): void {
  if (stopLive || !session.user) return;
  const client = sessionRealtime();
  if (!client) return;
  const live = client.subscribe('integration_views', { limit: 500 });
  let first = true;
  live.onUpdate((update) => {
    if (update.kind === 'error') return;
    // The first snapshot says what the fetch already said; every later frame is a change
    // (or a resumed snapshot after a reconnect, which may hide changes): refetch.
    if (first && update.kind === 'snapshot') {
      first = false;
      return;
    }
    void refreshIntegrations();
  });
  stopLive = () => live.close();
}

session.onSignOut(() => {
  stopLive?.();
  stopLive = null;
  current = null;
  loadedFor = null;
  inflight = null;
  emit();
});

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** This user's integrations, live; null until the first fetch answered. */
export function useIntegrationViews(): IntegrationView[] | null {
  const views = useSyncExternalStore(subscribe, () => current, () => current);
  const userId = session.user?.id ?? null;
  useEffect(() => {
    if ((current === null || loadedFor !== userId) && !inflight) void refreshIntegrations();
    if (userId) startLive();
  }, [userId]);
  return loadedFor === userId ? views : null;
}

/** Forgets the fetched views (stories and specs change the fake API between renders). */
export function resetIntegrationViews(): void {
  stopLive?.();
  stopLive = null;
  current = null;
  loadedFor = null;
  inflight = null;
}
