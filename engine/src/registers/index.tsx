import { type ComponentType, type LazyExoticComponent, type ReactElement } from 'react';
import { Resource } from 'react-admin';
import { REGISTERS } from '@atendimento/schemas/registers/catalog';
import { lazyNamed } from '@atendimento/console/lazyNamed';

type Pages = typeof import('./RegisterPages');
/**
 * One chunk for the register screens, loaded on the first register route: the console at '/'
 * must not download @rjsf, ajv and the widgets it never shows (B10, docs/bench.md).
 */
const loadPages = () => import('./RegisterPages');
const screen = (name: keyof Pages) => lazyNamed(loadPages, name) as LazyExoticComponent<ComponentType>;

/** The screens every register gets from its definition (docs/registers.md). */
const registerScreens = {
  list: screen('RegisterListPage'),
  create: screen('RegisterCreatePage'),
  edit: screen('RegisterEditPage'),
  show: screen('RegisterShowPage'),
} as const;

/**
 * One react-admin <Resource> per register folder of schemas/registers: /{name} (list),
 * /{name}/create, /{name}/:id (edit), /{name}/:id/show. The route table guards them and draws
 * the drawer; the screens ask the server which registers this user may use and with which
 * schema (GET /api/registers/definitions), so the server stays the authority.
 */
export function registerResources(names: Iterable<string> = REGISTERS.keys()): ReactElement[] {
  return [...names].map((name) => <Resource key={name} name={name} {...registerScreens} />);
}
