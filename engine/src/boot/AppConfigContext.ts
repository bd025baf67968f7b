import { createContext, useContext } from 'react';
import type { AppConfig } from '@atendimento/schemas';

/** The tenant configuration fetched at start-up; every screen reads it through useAppConfig. */
export const AppConfigContext = createContext<AppConfig | null>(null);

export function useAppConfig(): AppConfig {
  const config = useContext(AppConfigContext);
  if (!config) throw new Error('useAppConfig: no tenant configuration. Render inside <AppConfigContext.Provider> (Boot does it).');
  return config;
}

/**
 * Re-reads the tenant configuration (Boot provides it): the signed-in app calls it when the
 * `appConfig` live collection says an admin changed the settings (docs/tenancy.md "Settings").
 */
export const AppConfigReloadContext = createContext<() => void>(() => {});

export function useReloadAppConfig(): () => void {
  return useContext(AppConfigReloadContext);
}
