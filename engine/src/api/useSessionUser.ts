import { useSyncExternalStore } from 'react';
import type { User } from '@atendimento/schemas';
import { session } from './session';

const read = () => session.user;

/** The signed-in user, re-rendering when the session or the profile changes. */
export function useSessionUser(): User | null {
  return useSyncExternalStore(session.subscribe, read, read);
}
