import { lazy, useCallback, useEffect, useMemo, type ReactNode } from 'react';
import { ThemeProvider } from '@mui/material/styles';
import { findRoute, type AppConfig, type User } from '@atendimento/schemas';
import { routesFor } from '@atendimento/schemas/app-routes';
import { ServiceView } from '@atendimento/console/ServiceView';
import { apiRequest } from './api/api';
import { signOut } from './api/auth';
import { sessionLiveSource, sessionRealtime } from './api/realtime';
import { useSessionUser } from './api/useSessionUser';
import { useAppConfig } from './boot/AppConfigContext';
import { useLiveAppConfig } from './boot/useLiveAppConfig';
import { useLocation, useNavigate } from './navigation/NavigationContext';
import { integrationMenuRoutes, integrationPageRoutes, useIntegrationViews } from './integrations';
import { AppLayout } from './layout/AppLayout';
import { ShellRoutesContext } from './layout/ShellRoutesContext';
import { loadOnlineAgents } from './presence/onlineAgents';
import { lazyNamed } from '@atendimento/console/lazyNamed';
import { LoadingScreen } from './ui/LoadingScreen';
import { signedInTheme } from './ui/signedInTheme';
import { showToast } from './ui/toast';

// react-admin (with the registers, pages and integrations under it) loads on the first screen that needs it.
const AdminApp = lazy(() => import('./AdminApp'));
// The profile carries the avatar cropper: its own chunk, not the console's.
const ProfilePage = lazyNamed(() => import('./pages/ProfilePage'), 'ProfilePage');

/** The console: the engine's API client, the session's realtime client, user, configuration and toasts. */
const consoleApi = { request: apiRequest };
const consoleNotify = (message: string, severity?: 'success' | 'info' | 'warning' | 'error') => void showToast(message, severity);

function ServiceRoute({ user, config }: { user: User; config: AppConfig }) {
  const appNavigate = useNavigate();
  const navigate = useCallback((path: string, state?: unknown) => appNavigate(path, { state }), [appNavigate]);
  // The chat in front is in the address (`/?chat=<id>`): a reload, a shared link or a bookmark
  // opens it. Replaced, not pushed: opening chats does not fill the history.
  const { search } = useLocation();
  const chatInAddress = new URLSearchParams(search).get('chat');
  const onChatInFront = useCallback((roomId: string | null) => appNavigate(roomId ? `/?chat=${encodeURIComponent(roomId)}` : '/', { replace: true }), [appNavigate]);
  return <ServiceView api={consoleApi} user={user} appConfig={config} live={sessionLiveSource} notify={consoleNotify} navigate={navigate} chatInAddress={chatInAddress} onChatInFront={onChatInFront} />;
}

// The session watcher (Shell.tsx) goes to /login once the session has ended.
const logout = () => void signOut();

/**
 * The signed-in app (docs/engine.md "How it boots", step 3): our chrome (AppLayout: toolbar,
 * drawer, guard) around the screen of the current path. The console ('/' by default) and the
 * profile render directly; every other screen is react-admin's <Admin> (AdminApp), a lazy
 * chunk, so the agent's first screen never downloads react-admin. The chrome stays mounted
 * when the user moves between the console and the registers.
 */
export default function SignedInApp({ resources }: { resources?: ReactNode }) {
  const config = useAppConfig();
  const user = useSessionUser();
  const { pathname } = useLocation();
  // The session's one /ws client opens with the signed-in app; sign-out closes it (api/realtime.ts).
  useEffect(() => void sessionRealtime(), []);
  // An admin's settings change reaches every signed-in app (docs/tenancy.md "Settings").
  useLiveAppConfig();
  // Integrations defined live by admins (docs/integrations.md): menu entries and screens, updated on every change.
  const integrations = useIntegrationViews();
  const tableRoutes = useMemo(() => routesFor(config), [config]);
  const routes = useMemo(
    () => [...tableRoutes, ...integrationMenuRoutes(integrations ?? [], tableRoutes), ...integrationPageRoutes(integrations ?? [])],
    [tableRoutes, integrations],
  );

  // Integration routes are part of the route set (seed 000 §2 start-up step 4): wait for them.
  // No user: signed out another way (expired, revoked), the session watcher is going to /login.
  if (!integrations || !user) return <LoadingScreen />;

  const route = findRoute(routes, pathname);
  let screen: ReactNode;
  if (route?.kind === 'service') screen = <ServiceRoute user={user} config={config} />;
  else if (pathname === '/profile') screen = <ProfilePage key={user.id} user={user} config={config} />;
  else screen = <AdminApp tableRoutes={tableRoutes} routes={routes} resources={resources} />;
  return (
    <ThemeProvider theme={signedInTheme}>
      <ShellRoutesContext.Provider value={routes}>
        <AppLayout user={user} config={config} onLogout={logout} loadOnlineAgents={loadOnlineAgents}>
          {screen}
        </AppLayout>
      </ShellRoutesContext.Provider>
    </ThemeProvider>
  );
}
