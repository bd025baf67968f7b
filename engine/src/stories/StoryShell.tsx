import { useEffect, useState, type ReactNode } from 'react';
import { Route, Routes } from 'react-router';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import type { AppConfig, User } from '@atendimento/schemas';
import { session } from '../api/session';
import { AppConfigContext } from '../boot/AppConfigContext';
import { Toaster } from '../ui/Toaster';
import { clearToasts } from '../ui/toast';
import { theme } from '../ui/theme';
import { memoryNavigation } from '../navigation/navigation';
import { NavigationProvider, useLocation } from '../navigation/NavigationContext';
import { RouterBridge } from '../navigation/RouterBridge';
import { installFakeFetch, type FakeRoutes } from './fakeApi';
import { storyConfig } from './fixtures';

export interface ShellParameters {
  config?: AppConfig;
  /** Signed-in user (null: signed out). */
  user?: User | null;
  /** The URL the story opens at. */
  path?: string;
  /** The route pattern the story's component is mounted at (default: the path). */
  pattern?: string;
  /** Fake API answers ("METHOD /path"). */
  api?: FakeRoutes;
  /** localStorage entries present when the story opens (a remembered e-mail, a chosen status). */
  storage?: Record<string, string>;
}

function Elsewhere() {
  const location = useLocation();
  return (
    <p data-testid="location" style={{ padding: 16 }}>
      {location.pathname + location.search}
    </p>
  );
}

/**
 * Story and spec harness: the app's theme, a tenant configuration, an in-memory navigation
 * (with react-router's context on it, for the screens under react-admin), the
 * session user and a fake API. Navigating away from the story's route shows the new path in
 * `data-testid="location"`, so specs can assert redirects.
 */
export function StoryShell({ children, ...params }: ShellParameters & { children: ReactNode }) {
  const config = params.config ?? storyConfig();
  const path = params.path ?? '/';
  // Installed while rendering, before any child effect fetches.
  const [fake] = useState(() => {
    clearToasts();
    for (const [key, value] of Object.entries(params.storage ?? {})) localStorage.setItem(key, value);
    const installed = installFakeFetch(params.api ?? {});
    if (params.user) session.set({ accessToken: 'story-token', user: params.user });
    else session.clear();
    return installed;
  });
  const [navigation] = useState(() => memoryNavigation([path]));
  useEffect(() => () => fake.restore(), [fake]);

  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <AppConfigContext.Provider value={config}>
        <NavigationProvider navigation={navigation}>
          <RouterBridge>
            <Toaster position={config.toastNotification.position} />
            <Routes>
              <Route path={params.pattern ?? path.split('?')[0]} element={children} />
              <Route path="*" element={<Elsewhere />} />
            </Routes>
          </RouterBridge>
        </NavigationProvider>
      </AppConfigContext.Provider>
    </ThemeProvider>
  );
}

/**
 * Story decorator reading `parameters.shell`. Storybook merges a story's parameters deeply
 * into the meta's: keep in the meta only what no story needs to take away (a story cannot
 * drop a storage entry or a claim the meta set).
 */
export function withShell(Story: () => ReactNode, context: { parameters: { shell?: ShellParameters } }) {
  return (
    <StoryShell {...context.parameters.shell}>
      <Story />
    </StoryShell>
  );
}
