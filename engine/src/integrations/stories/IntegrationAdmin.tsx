import { useState, type ReactNode } from 'react';
import { Admin, memoryStore, Resource, TestMemoryRouter } from 'react-admin';
import { INTEGRATION_MESSAGES, integrationRegister, objectSchemaOrNull, type IntegrationDefinition } from '@atendimento/schemas/integrations/index';
import { createDataProvider } from '../../admin/dataProvider';
import { i18nProvider } from '../../admin/i18nProvider';
import type { FakeCall, FakeRoutes } from '../../stories/fakeApi';
import { IntegrationCreatePage, IntegrationEditPage, IntegrationListPage, IntegrationShowPage } from '../IntegrationPages';
import { resetIntegrationViews, type IntegrationView } from '../integrationViews';

function BareLayout({ children }: { children: ReactNode }) {
  return <main style={{ padding: 16 }}>{children}</main>;
}

/** Stories and specs only: an integration as GET /api/integration-definitions would give it. */
export function storyIntegration(definition: IntegrationDefinition): IntegrationView {
  const register = integrationRegister(definition);
  const name = `integration/${definition.collection}`;
  return {
    id: definition.id,
    name: definition.name,
    register: definition.register,
    collection: definition.collection,
    order: Number(definition.order ?? 0),
    menu: definition.menu !== false,
    active: definition.active !== false,
    listTitle: definition.listTitle ?? null,
    listIcon: definition.listIcon ?? null,
    noItems: definition.noItems || INTEGRATION_MESSAGES.defaultNoItems,
    paramsSchema: objectSchemaOrNull(definition.vjsfSchemaParams),
    idField: definition.idField ?? null,
    documents: (Array.isArray(definition.callToAction) ? (definition.callToAction as { label?: string }[]) : []).map((cta, index) => ({ index, label: cta.label ?? `Documento ${index + 1}` })),
    view: { ...register, name, list: { ...register.list, name, live: name }, readOnly: false, lockedFields: [] },
  };
}

/**
 * Stories and specs only: the records API of one integration over an in-memory list, with
 * the server's upsert-by-idField and its 400 `fields` from `validate`.
 */
export function fakeIntegrationApi(views: IntegrationView[], rows: Record<string, unknown>[], validate: (body: Record<string, unknown>) => { field: string; message: string }[] = () => []): FakeRoutes {
  const routes: FakeRoutes = { 'GET /api/integration-definitions': { body: { data: views } } };
  for (const integration of views) {
    let data = rows.map((row) => ({ ...row }));
    const base = `/api/integration/${integration.collection}`;
    const idOf = (call: FakeCall) => decodeURIComponent(call.path.split('?')[0]!.slice(base.length + 1));
    routes[`GET ${base}`] = () => ({ body: data, headers: { 'Content-Range': `${integration.collection} 0-${Math.max(0, data.length - 1)}/${data.length}` } });
    routes[`POST ${base}`] = (call) => {
      const body = call.body as Record<string, unknown>;
      const fields = validate(body);
      if (fields.length) return { status: 400, body: { error: 'validation_failed', errorMessage: fields.map((f) => f.message).join('; '), fields } };
      const record = { ...body, id: String(integration.idField ? body[integration.idField] : `r${data.length + 1}`) };
      data = [...data.filter((r) => r.id !== record.id), record];
      return { status: 201, body: { meta: { ok: true }, data: record } };
    };
    routes[`GET ${base}/*`] = (call) => {
      const row = data.find((r) => r.id === idOf(call));
      return row ? { body: row } : { status: 404, body: { error: 'not_found', errorMessage: 'Registro não encontrado.' } };
    };
  }
  return routes;
}

/**
 * Stories and specs only: react-admin's <Admin> with the app's data provider mounting the
 * integrations' routes at `path` (wrap it in StoryShell for the session, toasts and fake API).
 */
export function IntegrationAdmin({ path, views }: { path: string; views: IntegrationView[] }) {
  const [dataProvider] = useState(() => {
    resetIntegrationViews();
    return createDataProvider();
  });
  const [store] = useState(() => memoryStore());
  return (
    <TestMemoryRouter initialEntries={[path]}>
      <Admin dataProvider={dataProvider} i18nProvider={i18nProvider} store={store} layout={BareLayout} disableTelemetry>
        {/* The app mounts these pages with integrationRouteElements (react-router's <Route>); under
            vitest react-admin loads another copy of react-router, so specs mount them as resources. */}
        {views.map((integration) => (
          <Resource
            key={integration.collection}
            name={integration.view.list.name}
            list={() => <IntegrationListPage register={integration.register} />}
            create={IntegrationCreatePage}
            edit={IntegrationEditPage}
            show={IntegrationShowPage}
          />
        ))}
      </Admin>
    </TestMemoryRouter>
  );
}
