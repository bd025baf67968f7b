import type { ReactElement } from 'react';
import { Resource } from 'react-admin';
import { REGISTERS } from '@atendimento/schemas/registers/catalog';
import { RegisterCreatePage, RegisterEditPage, RegisterListPage, RegisterShowPage } from './RegisterPages';

/** The screens every register gets from its definition (docs/registers.md). */
export const registerScreens = {
  list: RegisterListPage,
  create: RegisterCreatePage,
  edit: RegisterEditPage,
  show: RegisterShowPage,
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
