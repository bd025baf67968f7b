/// <reference types="vite/client" />
import type { AppConfig } from './domain';
import { routeMeta } from './registers/route-meta';
import { routeTable, withRootView, type AppRoute } from './routes';

// Only list.json: the drawer and the guard need no schema, and the console's first screen builds
// this table (the registers' schemas load with the register screens, registers/catalog.ts).
const lists = import.meta.glob('../registers/*/list.json', { eager: true, import: 'default' }) as Record<string, Record<string, unknown>>;

/**
 * The browser's route table (Vite builds, vitest, Storybook): the screens of ./routes and a row
 * per bundled register folder, from its list.json, in the order of the register catalog (by
 * name). Not in the package index, which Node servers import: they build theirs with
 * `routeTable` from the folders they read from disk.
 */
export const APP_ROUTES: readonly AppRoute[] = routeTable(
  Object.entries(lists)
    .map(([file, list]) => routeMeta(/registers\/([^/]+)\/list\.json$/.exec(file)![1]!, list))
    .sort((a, b) => a.name.localeCompare(b.name)),
);

/** This tenant's table: APP_ROUTES with a configured root view at '/' (same indexes). */
export function routesFor(config: Pick<AppConfig, 'rootView'> | null | undefined): AppRoute[] {
  return withRootView(APP_ROUTES, config);
}
