import type { AppRoute } from '@atendimento/schemas';
import type { IntegrationView } from './integrationViews';

// The <Route> elements of these routes are in integrationRouteElements.tsx: react-router stays
// out of the signed-in app's first chunk (it loads with react-admin).

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
