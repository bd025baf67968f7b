import { useEffect, useState } from 'react';
import type { RegisterDefinition } from '@atendimento/schemas/registers/index';
import { api } from '../api/api';
import { session } from '../api/session';

/**
 * A register as this user may use it, from GET /api/registers/definitions: the same
 * schema.json the server validates with (minus fields whose tenant claim is off), the UI
 * schema, the list metadata, and what this user may not change.
 */
export interface RegisterView extends RegisterDefinition {
  readOnly: boolean;
  lockedFields: string[];
  /** The server-compiled form validator for exactly this schema (absent in stories and specs). */
  validatorUrl?: string;
}

let cache: { userId: string | null; promise: Promise<Map<string, RegisterView>> } | null = null;
session.onSignOut(() => {
  cache = null;
});

/**
 * The definitions of the signed-in user, fetched once per user. The server decides which
 * registers are listed, so a register added as a folder in REGISTERS_DIRS shows up here too.
 */
export function loadRegisterViews(): Promise<Map<string, RegisterView>> {
  const userId = session.user?.id ?? null;
  if (!cache || cache.userId !== userId) {
    const promise = api<{ data: RegisterView[] }>('/api/registers/definitions', { notify: false }).then(
      (body) => new Map(body.data.map((view) => [view.name, view])),
    );
    // A failed fetch is not kept: the next screen tries again.
    promise.catch(() => {
      if (cache?.promise === promise) cache = null;
    });
    cache = { userId, promise };
  }
  return cache.promise;
}

/** Forgets the fetched definitions (stories and specs change the fake API between renders). */
export function resetRegisterViews(): void {
  cache = null;
}

export type RegisterViewState = { status: 'loading' } | { status: 'ready'; view: RegisterView } | { status: 'missing' } | { status: 'error'; message: string };

/** One register's view for a screen; 'missing' when this user may not use it. */
export function useRegisterView(name: string): RegisterViewState {
  const [state, setState] = useState<RegisterViewState>({ status: 'loading' });
  useEffect(() => {
    let live = true;
    loadRegisterViews().then(
      (views) => {
        if (!live) return;
        const view = views.get(name);
        setState(view ? { status: 'ready', view } : { status: 'missing' });
      },
      (error: Error) => live && setState({ status: 'error', message: error.message }),
    );
    return () => {
      live = false;
    };
  }, [name]);
  return state;
}
