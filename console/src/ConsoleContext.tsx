import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { AppConfig, User } from '@atendimento/schemas';
import type { ConsoleStores } from './store/consoleStores';
import { createConsoleStores } from './store/consoleStores';
import type { LiveSource } from './realtime/liveSource';

export interface ConsoleRequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** JSON-encoded unless FormData/Blob/string. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Toast the error (default true); the console passes false where it shows errors itself. */
  notify?: boolean;
  signal?: AbortSignal;
}

/**
 * What the console needs from the app that mounts it (the engine's `apiRequest` fits as is):
 * same-origin `/api` calls with the access token, one refresh-and-retry on 401, resolving with
 * the parsed body and rejecting with an Error whose message is the server's pt-BR `errorMessage`.
 */
export interface ConsoleApi {
  request<T = unknown>(path: string, options?: ConsoleRequestOptions): Promise<{ body: T }>;
}

export type Severity = 'success' | 'info' | 'warning' | 'error';

/** Props of `ServiceView`: the seam between engine and console (docs/console.md). */
export interface ConsoleServices {
  api: ConsoleApi;
  live: LiveSource;
  user: User;
  appConfig: AppConfig;
  /** Shows a toast; the console shows its own snackbar when the engine passes none. */
  notify?: (message: string, severity?: Severity) => void;
  /**
   * Opens an app route outside the console (an integration record's page); `state` rides in the
   * router's location state. The engine passes react-router's navigate; without it, a page load.
   */
  navigate?: (path: string, state?: unknown) => void;
}

export interface ConsoleContextValue extends Required<Omit<ConsoleServices, 'notify' | 'navigate'>> {
  stores: ConsoleStores;
  notify: (message: string, severity?: Severity) => void;
  navigate: (path: string, state?: unknown) => void;
  /** Public read-only mode (/chat/:id): no menu, no close, no composer. */
  readOnly: boolean;
  /** Clock for relative times and failure detection (stories pin it). */
  now: () => number;
}

const pageLoad = (path: string) => window.location.assign(path);

const Ctx = createContext<ConsoleContextValue | null>(null);

/** Provides the console's services and its stores to every feature below it. */
export function ConsoleProvider(props: {
  services: ConsoleServices;
  stores?: ConsoleStores;
  readOnly?: boolean;
  now?: () => number;
  notify: (message: string, severity?: Severity) => void;
  children: ReactNode;
}) {
  const { services, stores, readOnly = false, now, notify, children } = props;
  const ownStores = useMemo(() => stores ?? createConsoleStores(), [stores]);
  const value = useMemo<ConsoleContextValue>(
    () => ({ api: services.api, live: services.live, user: services.user, appConfig: services.appConfig, stores: ownStores, notify: services.notify ?? notify, navigate: services.navigate ?? pageLoad, readOnly, now: now ?? Date.now }),
    [services, ownStores, readOnly, now, notify],
  );
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

/** The console context; throws with the fix when a feature renders outside `ConsoleProvider`. */
export function useConsole(): ConsoleContextValue {
  const value = useContext(Ctx);
  if (!value) throw new Error('useConsole: no ConsoleProvider above this component. Render it inside <ServiceView> or <ConsoleProvider>.');
  return value;
}
