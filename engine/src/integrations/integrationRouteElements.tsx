import { type ComponentType, type LazyExoticComponent, type ReactElement } from 'react';
import { Route } from 'react-router';
import type { AppRoute } from '@atendimento/schemas';
import { lazyNamed } from '@atendimento/console/lazyNamed';

type Pages = typeof import('./IntegrationPages');
// The generated list and form (and with them @rjsf and ajv) load on the first integration route, not with the console.
const loadPages = () => import('./IntegrationPages');
const page = <P extends object = object>(name: keyof Pages) => lazyNamed(loadPages, name) as LazyExoticComponent<ComponentType<P>>;
const IntegrationListPage = page<{ register: string }>('IntegrationListPage');
const IntegrationCreatePage = page('IntegrationCreatePage');
const IntegrationEditPage = page('IntegrationEditPage');
const IntegrationShowPage = page('IntegrationShowPage');

/** The <Route>s of the integrations: each menu route's list, and the record pages under /integration/{collection}. */
export function integrationRouteElements(menu: readonly AppRoute[]): ReactElement[] {
  return [
    ...menu.filter((route) => route.kind === 'register').map((route) => <Route key={route.path} path={route.path} element={<IntegrationListPage register={route.path.slice(1)} />} />),
    <Route key="integration:create" path="/integration/:collection/create" element={<IntegrationCreatePage />} />,
    <Route key="integration:show" path="/integration/:collection/:id/show" element={<IntegrationShowPage />} />,
    <Route key="integration:edit" path="/integration/:collection/:id" element={<IntegrationEditPage />} />,
  ];
}
