import { useCallback, useEffect, useState, type ReactNode } from 'react';
import type { AppConfig } from '@atendimento/schemas';
import { AppConfigContext, AppConfigReloadContext } from './AppConfigContext';
import { loadAppConfig, type ConfigResult } from './loadAppConfig';
import { TenantFallback } from './TenantFallback';
import { LoadingScreen } from '../ui/LoadingScreen';

/**
 * Start-up (seed 000 §2): fetch the tenant configuration, then show the blocked or error
 * screen, or render the app with the configuration in context.
 */
export function Boot({ load = loadAppConfig, children }: { load?: () => Promise<ConfigResult>; children: (config: AppConfig) => ReactNode }) {
  const [result, setResult] = useState<ConfigResult | null>(null);
  useEffect(() => {
    let live = true;
    void load().then((next) => live && setResult(next));
    return () => {
      live = false;
    };
  }, [load]);

  // A later read replaces the configuration only when it succeeds: a blip keeps the app as it is.
  const reload = useCallback(() => {
    void load().then((next) => {
      if (next.kind === 'ready' || next.kind === 'blocked') setResult(next);
    });
  }, [load]);

  if (!result) return <LoadingScreen />;
  if (result.kind !== 'ready') return <TenantFallback kind={result.kind} />;
  return (
    <AppConfigReloadContext.Provider value={reload}>
      <AppConfigContext.Provider value={result.config}>{children(result.config)}</AppConfigContext.Provider>
    </AppConfigReloadContext.Provider>
  );
}
