import { useEffect, useState, type ReactNode } from 'react';
import type { User } from '@atendimento/schemas';
import { presence } from '../presence/presence';
import { STORAGE_KEYS } from '../api/session';
import type { ShellParameters } from './StoryShell';

/** A heartbeat too slow to fire while a story is open: stories show the status, not the timers. */
const STORY_TIMING = { firstBeatMs: 3_600_000, heartbeatMs: 3_600_000 };

type Timing = typeof STORY_TIMING;

function PresenceOf({ user, timing, children }: { user: User; timing: Timing; children: ReactNode }) {
  // Started while rendering (inside StoryShell, after its fake API and storage are in place),
  // so the first render already has the user's stored status, as after a real sign-in.
  const [stop] = useState(() => presence.start(user, timing));
  useEffect(() => stop, [stop]);
  return children;
}

/**
 * Story decorator (list it before withShell in `decorators`: Storybook wraps later decorators
 * around earlier ones, so it runs inside the shell): starts presence
 * for `parameters.shell.user`; the status comes from `shell.storage` like a real browser's.
 * `parameters.presenceTiming` makes the beats fire (a story about the heartbeat's answer).
 */
export function withPresence(Story: () => ReactNode, context: { parameters: { shell?: ShellParameters; presenceTiming?: Timing } }) {
  const user = context.parameters.shell?.user;
  if (!user) return <Story />;
  return (
    <PresenceOf key={user.id} user={user} timing={context.parameters.presenceTiming ?? STORY_TIMING}>
      <Story />
    </PresenceOf>
  );
}

/** The `shell.storage` entry of a status the user chose earlier on this browser. */
export function storedStatusEntry(userId: string, status: string): Record<string, string> {
  return { [`${STORAGE_KEYS.status}.${userId}`]: status };
}
