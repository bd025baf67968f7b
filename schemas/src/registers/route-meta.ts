import type { RouteAccess } from '../access';
import type { RegisterListMeta } from './types';

// Apart from definition.ts: the browser's route table (on the console's first screen) needs only
// this, and a bundler never splits a module, so importing definition.ts would carry the whole
// parser into the first screen (tests/bench B10b).

/** What the route table needs of a register (its drawer row and guard). */
export type RegisterRouteFields = Pick<RegisterListMeta, 'name' | 'route' | 'label' | 'icon' | 'access' | 'permission' | 'claim' | 'menu' | 'menuOrder'>;

/**
 * A register's route fields from its list.json alone, with their defaults: parseDefinition
 * completes the rest, and the browser's route table (app-routes.ts) reads only list.json, so
 * the console's first screen does not carry every register's schema.
 */
export function routeMeta(folder: string, list: Record<string, unknown>): RegisterRouteFields {
  const name = typeof list.name === 'string' ? list.name : folder;
  return {
    name,
    label: typeof list.label === 'string' ? list.label : name,
    icon: typeof list.icon === 'string' ? list.icon : 'ListAlt',
    route: typeof list.route === 'string' ? list.route : `/${name}`,
    menu: list.menu !== false,
    ...(typeof list.menuOrder === 'number' && { menuOrder: list.menuOrder }),
    access: (list.access ?? 'admin-or-permission') as RouteAccess,
    ...(typeof list.permission === 'string' && { permission: list.permission }),
    ...(typeof list.claim === 'string' && { claim: list.claim }),
  };
}
