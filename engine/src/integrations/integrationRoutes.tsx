import { type ComponentType, type LazyExoticComponent, type ReactElement } from 'react';
import { Route } from 'react-router';
import type { AppRoute } from '@atendimento/schemas';
import { lazyNamed } from '@atendimento/console/lazyNamed';
import type { IntegrationView } from './integrationViews';

type Pages = typeof import('./IntegrationPages');
// The generated list and form (and with them @rjsf and ajv) load on the first integration route, not with the console.
const loadPages = () => import('./IntegrationPages');
const page = <P extends object = object>(name: keyof Pages) => lazyNamed(loadPages, name) as LazyExoticComponent<ComponentType<P>>;
const IntegrationListPage = page<{ register: string }>('IntegrationListPage');
const IntegrationCreatePage = page('IntegrationCreatePage');
const IntegrationEditPage = page('IntegrationEditPage');
const IntegrationShowPage = page('IntegrationShowPage');

/**
 * The drawer entries of the menu integrations (seed 000 §2 "/{register}", start-up step 4):
 * active, flagged for the menu, in `order`, skipping a path the route table already uses.
 * The server already left out what this user may not see (seed 000 §6), so the browser's
 * guard lets any signed-in user open them; the API stays the protection.
 */
export function integrationMenuRoutes(views: readonly IntegrationView[], taken: readonly AppRoute[]): AppRoute[] {
  const used = new Set(taken.map((route) => route.path));
  return views
    .filter((view) => view.active && view.menu && !used.has(`/${view.register}`))
    .map((view) => ({
      path: `/${view.register}`,
      name: view.listTitle || view.name,
      icon: view.listIcon || 'ListAlt',
      access: 'user' as const,
      kind: 'register' as const,
      inMenu: true,
    }));
}

/**
 * Routes not in the menu for the record pages (/integration/{collection}/create, /:id,
 * /:id/show): they give the toolbar the integration's title; the guard lets any signed-in user in.
 */
export function integrationPageRoutes(views: readonly IntegrationView[]): AppRoute[] {
  return views.flatMap((view) =>
    ['create', ':id', ':id/show'].map((tail) => ({
      path: `/integration/${view.collection}/${tail}`,
      name: view.listTitle || view.name,
      icon: view.listIcon || 'ListAlt',
      access: 'user' as const,
      kind: 'page' as const,
      inMenu: false,
    })),
  );
}

/** The <Route>s of the integrations: each menu route's list, and the record pages under /integration/{collection}. */
export function integrationRouteElements(menu: readonly AppRoute[]): ReactElement[] {
  return [
    ...menu.filter((route) => route.kind === 'register').map((route) => <Route key={route.path} path={route.path} element={<IntegrationListPage register={route.path.slice(1)} />} />),
    <Route key="integration:create" path="/integration/:collection/create" element={<IntegrationCreatePage />} />,
    <Route key="integration:show" path="/integration/:collection/:id/show" element={<IntegrationShowPage />} />,
    <Route key="integration:edit" path="/integration/:collection/:id" element={<IntegrationEditPage />} />,
  ];
}
