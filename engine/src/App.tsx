import { Children, isValidElement, lazy, Suspense, useCallback, useEffect, useMemo, type ReactElement, type ReactNode } from 'react';
import { Navigate, Route, useNavigate } from 'react-router';
import deepmerge from '@mui/utils/deepmerge';
import { Admin, CustomRoutes, defaultLightTheme, localStorageStore, useLogout } from 'react-admin';
import type { AppRoute } from '@atendimento/schemas';
import { APP_ROUTES, routesFor } from '@atendimento/schemas/app-routes';
import { ServiceView } from '@atendimento/console';
import { apiRequest } from './api/api';
import { sessionLiveSource, sessionRealtime } from './api/realtime';
import { showToast } from './ui/toast';
import { authProvider } from './admin/authProvider';
import { createDataProvider } from './admin/dataProvider';
import { i18nProvider } from './admin/i18nProvider';
import { integrationMenuRoutes, integrationPageRoutes, integrationRouteElements, useIntegrationViews } from './integrations';
import { NotificationBridge } from './admin/NotificationBridge';
import { useSessionUser } from './api/useSessionUser';
import { useAppConfig } from './boot/AppConfigContext';
import { useLiveAppConfig } from './boot/useLiveAppConfig';
import { AppLayout } from './layout/AppLayout';
import { registerResources as buildRegisterResources } from './registers';
import { ShellRoutesContext } from './layout/ShellRoutesContext';
import { loadOnlineAgents } from './presence/onlineAgents';
import { ComingSoonPage } from './pages/ComingSoonPage';
import { NewsPage } from './pages/NewsPage';
import { ProfilePage } from './pages/ProfilePage';
import { SummariesPage } from './pages/SummariesPage';
import { LoadingScreen } from './ui/LoadingScreen';
import { themeOptions } from './ui/theme';

/**
 * The signed-in app: react-admin's <Admin> (history mode, base /) with our layout, pt-BR
 * messages, the session-backed authProvider and the simple-rest dataProvider on /api.
 *
 * Extension seams (docs/engine.md):
 * - Registers: pass their <Resource> elements as `resources` — the default below is
 *   where `import { registerResources } from './registers'` plugs in. A register route without
 *   a resource shows a guarded placeholder; the drawer, toolbar and guard come from the route
 *   table (schemas/src/routes.ts), not from the resources.
 * - Pages (dashboard, summaries, API, campaign detail): add the element to `PAGES` by path.
 */
const registerResources: ReactElement[] = buildRegisterResources();

/** Hand-built screens by their path in the route table; the rest of the 'page' routes show a placeholder. */
// The API screen (docs/api.md) is its own lazy chunk: only admins of tenants with the api setting open it.
const ApiPage = lazy(async () => ({ default: (await import('./pages/ApiPage')).ApiPage }));

// The settings screen (docs/tenancy.md "Settings"): admin only.
const TenantSettingsPage = lazy(async () => ({ default: (await import('./pages/TenantSettingsPage')).TenantSettingsPage }));
// The channels screen (docs/channels.md): admin only, its own chunk too.
const ChannelsPage = lazy(async () => ({ default: (await import('./pages/ChannelsPage')).ChannelsPage }));
const CampaignsPage = lazy(async () => ({ default: (await import('./pages/campaigns/CampaignsPage')).CampaignsPage }));
const CampaignDetailPage = lazy(async () => ({ default: (await import('./pages/campaigns/CampaignDetailPage')).CampaignDetailPage }));
// The dashboard (docs/reports.md) carries victory: its own chunk, loaded by those who open it.
const DashboardPage = lazy(async () => ({ default: (await import('./pages/dashboard/DashboardPage')).DashboardPage }));

const PAGES: Record<string, ReactNode> = {
  '/settings': (
    <Suspense fallback={<LoadingScreen />}>
      <TenantSettingsPage />
    </Suspense>
  ),
  '/channels': (
    <Suspense fallback={<LoadingScreen />}>
      <ChannelsPage />
    </Suspense>
  ),
  '/novidades': <NewsPage />,
  // Campaigns (docs/campaigns.md): list with the CSV upload, and the detail with live counters.
  '/notifications': (
    <Suspense fallback={<LoadingScreen />}>
      <CampaignsPage />
    </Suspense>
  ),
  '/notifications/:id': (
    <Suspense fallback={<LoadingScreen />}>
      <CampaignDetailPage />
    </Suspense>
  ),
  '/dashboard': (
    <Suspense fallback={<LoadingScreen />}>
      <DashboardPage />
    </Suspense>
  ),
  '/sumaries': <SummariesPage />,
  '/api': (
    <Suspense fallback={<LoadingScreen />}>
      <ApiPage />
    </Suspense>
  ),
};

const adminTheme = deepmerge(defaultLightTheme, themeOptions);
const store = localStorageStore('1', 'atendimento');

function ShellLayout({ children }: { children: ReactNode }) {
  const user = useSessionUser();
  const config = useAppConfig();
  const logout = useLogout();
  // Signed out in another way (expired, revoked): the session watcher is already going to /login.
  if (!user) return <LoadingScreen />;
  return (
    <AppLayout user={user} config={config} onLogout={() => void logout()} loadOnlineAgents={loadOnlineAgents}>
      {children}
    </AppLayout>
  );
}

function ProfileRoute() {
  const user = useSessionUser();
  const config = useAppConfig();
  return user ? <ProfilePage key={user.id} user={user} config={config} /> : null;
}

/** The console at '/': the engine's API client, the session's realtime client, user, configuration and toasts. */
const consoleApi = { request: apiRequest };
const consoleNotify = (message: string, severity?: 'success' | 'info' | 'warning' | 'error') => void showToast(message, severity);
function ServiceRoute() {
  const user = useSessionUser();
  const config = useAppConfig();
  const routerNavigate = useNavigate();
  const navigate = useCallback((path: string, state?: unknown) => void routerNavigate(path, { state }), [routerNavigate]);
  return user ? <ServiceView api={consoleApi} user={user} appConfig={config} live={sessionLiveSource} notify={consoleNotify} navigate={navigate} /> : null;
}

function NotFoundRedirect() {
  return <Navigate to="/404" replace />;
}

function resourceNames(resources: ReactNode): Set<string> {
  const names = new Set<string>();
  Children.forEach(resources, (child) => {
    if (isValidElement<{ name?: string }>(child) && child.props.name) names.add(child.props.name);
  });
  return names;
}

/** The element of one route of the table (index i of APP_ROUTES: its original path). */
function routeElements(route: AppRoute, originalPath: string, resources: Set<string>): ReactElement[] {
  const key = `${route.path}:${originalPath}`;
  if (route.kind === 'public') return [];
  if (route.kind === 'service') return [<Route key={key} path={route.path} element={<ServiceRoute />} />];
  if (originalPath === '/profile') return [<Route key={key} path={route.path} element={<ProfileRoute />} />];
  const register = originalPath.slice(1);
  if (route.kind === 'register' && resources.has(register)) {
    // The resource owns its own path; as the configured root view, '/' shows its list.
    return route.path === '/' ? [<Route key={key} path="/" element={<Navigate to={originalPath} replace />} />] : [];
  }
  const element = PAGES[originalPath] ?? <ComingSoonPage route={route} />;
  const paths = route.kind === 'register' && route.path !== '/' ? [route.path, `${route.path}/*`] : [route.path];
  return paths.map((path) => <Route key={`${key}:${path}`} path={path} element={element} />);
}

export default function App({ resources = registerResources }: { resources?: ReactNode }) {
  const config = useAppConfig();
  // The session's one /ws client opens with the signed-in app; sign-out closes it (api/realtime.ts).
  useEffect(() => void sessionRealtime(), []);
  // An admin's settings change reaches every signed-in app (docs/tenancy.md "Settings").
  useLiveAppConfig();
  // Integrations defined live by admins (docs/integrations.md): menu entries and screens, updated on every change.
  const integrations = useIntegrationViews();

  const dataProvider = useMemo(createDataProvider, []);
  const provided = useMemo(() => resourceNames(resources), [resources]);
  const tableRoutes = useMemo(() => routesFor(config), [config]);
  const routes = useMemo(
    () => [...tableRoutes, ...integrationMenuRoutes(integrations ?? [], tableRoutes), ...integrationPageRoutes(integrations ?? [])],
    [tableRoutes, integrations],
  );

  // Integration routes are part of the route set (seed 000 §2 start-up step 4): wait for them.
  if (!integrations) return <LoadingScreen />;

  const extra = routes.slice(tableRoutes.length);
  return (
    <ShellRoutesContext.Provider value={routes}>
      <Admin
        dataProvider={dataProvider}
        authProvider={authProvider}
        i18nProvider={i18nProvider}
        layout={ShellLayout}
        notification={NotificationBridge}
        catchAll={NotFoundRedirect}
        loginPage={false}
        store={store}
        theme={adminTheme}
        title="Atendimento"
        disableTelemetry
      >
        <CustomRoutes>
          {tableRoutes.flatMap((route, index) => routeElements(route, APP_ROUTES[index]!.path, provided))}
          {integrationRouteElements(extra)}
        </CustomRoutes>
        {resources}
      </Admin>
    </ShellRoutesContext.Provider>
  );
}
