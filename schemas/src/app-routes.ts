import type { AppConfig } from './domain';
import { REGISTERS } from './registers/catalog';
import { routeTable, withRootView, type AppRoute } from './routes';

/**
 * The browser's route table (Vite builds, vitest, Storybook): the screens of ./routes and a row
 * per bundled register folder, from its list.json. Not in the package index, which Node
 * servers import: they build theirs with `routeTable` from the folders they read from disk.
 */
export const APP_ROUTES: readonly AppRoute[] = routeTable([...REGISTERS.values()].map((definition) => definition.list));

/** This tenant's table: APP_ROUTES with a configured root view at '/' (same indexes). */
export function routesFor(config: Pick<AppConfig, 'rootView'> | null | undefined): AppRoute[] {
  return withRootView(APP_ROUTES, config);
}
