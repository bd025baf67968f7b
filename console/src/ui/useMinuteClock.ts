import { useSyncExternalStore } from 'react';
import { LIMITS } from './constants';

// One interval for every relative time on screen, instead of one timer per card.
let tick = 0;
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | null = null;

function subscribe(listener: () => void) {
  listeners.add(listener);
  timer ??= setInterval(() => {
    tick += 1;
    for (const l of [...listeners]) l();
  }, LIMITS.relativeTimeRefreshMs);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/** The current time, re-read every 60 s (relative times of cards and failure detection). */
export function useMinuteClock(now: () => number): number {
  useSyncExternalStore(subscribe, () => tick, () => tick);
  return now();
}
