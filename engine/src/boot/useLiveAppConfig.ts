import { useEffect } from 'react';
import { sessionRealtime } from '../api/realtime';
import { useReloadAppConfig } from './AppConfigContext';

/**
 * Applies a settings change live (docs/tenancy.md "Settings"): the signed-in app watches the
 * `appConfig` collection on the session's /ws client and re-reads the configuration when an
 * admin saves, so close dialogs, status lists and menus follow without a reload.
 */
export function useLiveAppConfig(): void {
  const reload = useReloadAppConfig();
  useEffect(() => {
    const live = sessionRealtime();
    if (!live) return;
    const subscription = live.subscribe('appConfig', {});
    let first = true;
    const stop = subscription.onUpdate((update) => {
      if (update.kind === 'error') return;
      // The first snapshot is the configuration Boot already read; a later resume snapshot may not be.
      if (first && update.kind === 'snapshot') {
        first = false;
        return;
      }
      reload();
    });
    return () => {
      stop();
      subscription.close();
    };
  }, [reload]);
}
