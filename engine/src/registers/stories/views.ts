import { REGISTERS } from '@atendimento/schemas/registers/catalog';
import type { RegisterDefinition } from '@atendimento/schemas/registers/index';
import type { FakeRoutes } from '../../stories/fakeApi';
import type { RegisterView } from '../definitions';
import { storyUser } from '../../stories/fixtures';
import { fakeRegister } from './fakeRegister';

/**
 * Stories and specs only: a register's view as the server would send it to an admin (or, with
 * `admin: false`, to a user holding the permission), from the bundled definition folders.
 */
export function storyView(name: string, options: { admin?: boolean; readOnly?: boolean } = {}): RegisterView {
  const definition = REGISTERS.get(name);
  if (!definition) throw new Error(`storyView: no register "${name}" in schemas/registers.`);
  return viewOf(definition, options);
}

export function viewOf(definition: RegisterDefinition, { admin = true, readOnly = false }: { admin?: boolean; readOnly?: boolean } = {}): RegisterView {
  return {
    ...definition,
    readOnly,
    lockedFields: [...new Set([...definition.list.serverFields, ...(admin ? [] : definition.list.adminFields)])],
  };
}

/** The fake GET /api/registers/definitions answering these views. */
export function definitionsRoute(...views: RegisterView[]): FakeRoutes {
  return { 'GET /api/registers/definitions': { body: { data: views } } };
}

/**
 * The story shell of an admin on the contacts list over `contacts` (a fake register), plus
 * the story's own routes (`api`, which win over the register's).
 */
export function contactsAdminShell(contacts: Array<Record<string, unknown> & { id: string }>, api: FakeRoutes = {}, validate?: Parameters<typeof fakeRegister>[2]) {
  return {
    path: '/contacts',
    pattern: '/*',
    user: storyUser({ claims: { admin: true } }),
    api: { ...definitionsRoute(storyView('contacts')), ...fakeRegister('contacts', contacts, validate), ...api },
  };
}
