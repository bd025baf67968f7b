import { Children, isValidElement, Suspense, useMemo, type ReactElement, type ReactNode } from 'react';
import { Navigate, Route } from 'react-router';
import deepmerge from '@mui/utils/deepmerge';
import { ptBR } from '@mui/material/locale';
import { Admin, CustomRoutes, defaultLightTheme, localStorageStore } from 'react-admin';
import type { AppRoute } from '@atendimento/schemas';
import { APP_ROUTES } from '@atendimento/schemas/app-routes';
import { session } from './api/session';
import { authProvider } from './admin/authProvider';
import { createDataProvider } from './admin/dataProvider';
import { i18nProvider } from './admin/i18nProvider';
import { integrationRouteElements } from './integrations/integrationRouteElements';
import { RouterBridge } from './navigation/RouterBridge';
import { NotificationBridge } from './admin/NotificationBridge';
import { registerResources as buildRegisterResources } from './registers';
import { ComingSoonPage } from './pages/ComingSoonPage';
import { NewsPage } from './pages/NewsPage';
import { SummariesPage } from './pages/SummariesPage';
import { lazyNamed } from '@atendimento/console/lazyNamed';
import { LoadingScreen } from './ui/LoadingScreen';
import { themeOptions } from './ui/theme';

/**
 * The admin side of the signed-in app (docs/engine.md "How it boots", step 3): react-admin's
 * <Admin> (history mode, base /, its react-router fed by the app's navigation through
 * RouterBridge) inside our layout, with pt-BR messages, the session-backed authProvider and
 * the simple-rest dataProvider on /api. It is its own lazy chunk, loaded on
 * the first screen that is not the console or the profile, so '/' never downloads react-admin.
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
const ApiPage = lazyNamed(() => import('./pages/ApiPage'), 'ApiPage');

// The settings screen (docs/tenancy.md "Settings"): admin only.
const TenantSettingsPage = lazyNamed(() => import('./pages/TenantSettingsPage'), 'TenantSettingsPage');
// The channels screen (docs/channels.md): admin only, its own chunk too.
const ChannelsPage = lazyNamed(() => import('./pages/ChannelsPage'), 'ChannelsPage');
const CampaignsPage = lazyNamed(() => import('./pages/campaigns/CampaignsPage'), 'CampaignsPage');
const CampaignDetailPage = lazyNamed(() => import('./pages/campaigns/CampaignDetailPage'), 'CampaignDetailPage');
// The dashboard (docs/reports.md) carries victory: its own chunk, loaded by those who open it.
const DashboardPage = lazyNamed(() => import('./pages/dashboard/DashboardPage'), 'DashboardPage');

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

// MUI's own texts (pagination, autocomplete's 'Abrir'/'Limpar', alerts' 'Fechar') in pt-BR.
const adminTheme = deepmerge(deepmerge(defaultLightTheme, themeOptions), ptBR);
const store = localStorageStore('1', 'atendimento');
// react-admin's useLogout resets its store; sign-out now happens in our chrome (SignedInApp), so reset it here.
session.onSignOut(() => store.reset());

/** The chrome (AppLayout) is drawn by SignedInApp around <Admin>, so react-admin's own layout is a pass-through. */
function PassThroughLayout({ children }: { children: ReactNode }) {
  return <>{children}</>;
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
  // The console and the profile are drawn by SignedInApp without <Admin>.
  if (route.kind === 'public' || route.kind === 'service' || originalPath === '/profile') return [];
  const register = originalPath.slice(1);
  if (route.kind === 'register' && resources.has(register)) {
    // The resource owns its own path; as the configured root view, '/' shows its list.
    return route.path === '/' ? [<Route key={key} path="/" element={<Navigate to={originalPath} replace />} />] : [];
  }
  const element = PAGES[originalPath] ?? <ComingSoonPage route={route} />;
  const paths = route.kind === 'register' && route.path !== '/' ? [route.path, `${route.path}/*`] : [route.path];
  return paths.map((path) => <Route key={`${key}:${path}`} path={path} element={element} />);
}

/**
 * `tableRoutes` are the route table's rows for this configuration (routesFor), `routes` the same
 * plus the integration routes (drawer entries and pages) after them.
 */
export default function AdminApp({
  tableRoutes,
  routes,
  resources = registerResources,
}: {
  tableRoutes: readonly AppRoute[];
  routes: readonly AppRoute[];
  resources?: ReactNode;
}) {
  const dataProvider = useMemo(createDataProvider, []);
  const provided = useMemo(() => resourceNames(resources), [resources]);
  const extra = routes.slice(tableRoutes.length);
  return (
    <RouterBridge>
      <Admin
        dataProvider={dataProvider}
        authProvider={authProvider}
        i18nProvider={i18nProvider}
        layout={PassThroughLayout}
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
    </RouterBridge>
  );
}
