import { Suspense, useState, type ReactNode } from 'react';
import { Admin, memoryStore, TestMemoryRouter } from 'react-admin';
import { createDataProvider } from '../../admin/dataProvider';
import { i18nProvider } from '../../admin/i18nProvider';
import { registerResources } from '../index';
import { resetRegisterViews } from '../definitions';
import { resetFakeRegisters } from './fakeRegister';
import { liveRefresh } from '../list/useLiveRefresh';

// No realtime hub behind the fake API.
liveRefresh.enabled = false;

function BareLayout({ children }: { children: ReactNode }) {
  // The register screens are a lazy chunk, as in the app.
  return <main style={{ padding: 16 }}><Suspense fallback={null}>{children}</Suspense></main>;
}

/**
 * Stories and specs only: react-admin's <Admin> with the app's data provider and pt-BR
 * messages, mounting the generic screens of `names` at `path` (wrap it in StoryShell for the
 * session, toasts and the fake API).
 */
export function RegisterAdmin({ names, path = `/${names[0]}` }: { names: string[]; path?: string }) {
  const [dataProvider] = useState(() => {
    // Each story asks the fake API for the definitions again.
    resetRegisterViews();
    resetFakeRegisters();
    return createDataProvider();
  });
  const [store] = useState(() => memoryStore());
  return (
    // react-admin's own memory router: its routing hooks are the ones the screens use.
    <TestMemoryRouter initialEntries={[path]}>
      <Admin dataProvider={dataProvider} i18nProvider={i18nProvider} store={store} layout={BareLayout} disableTelemetry>
        {registerResources(names)}
      </Admin>
    </TestMemoryRouter>
  );
}
