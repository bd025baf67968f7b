import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { findRoute, guardRedirect, matchPattern, SCREEN_TABLE, withRootView, type AppConfig } from '@atendimento/schemas';
import { session } from './api/session';
import { loadApp } from './appLoader';
import { useAppConfig } from './boot/AppConfigContext';
import { lazyNamed } from '@atendimento/console/lazyNamed';
import { LoadingScreen } from './ui/LoadingScreen';
import { Navigate, useLocation, useNavigate } from './navigation/NavigationContext';
import { Toaster } from './ui/Toaster';
import { theme } from './ui/theme';

// Public screens are small lazy chunks; none of them pulls in react-admin.
const LoginPage = lazyNamed(() => import('./public/LoginPage'), 'LoginPage');
const RegisterPage = lazyNamed(() => import('./public/RegisterPage'), 'RegisterPage');
const FinishSignUpPage = lazyNamed(() => import('./public/FinishSignUpPage'), 'FinishSignUpPage');
const MessagePage = lazyNamed(() => import('./public/MessagePage'), 'MessagePage');
const PublicChatPage = lazyNamed(() => import('./public/PublicChatPage'), 'PublicChatPage');
const App = lazy(loadApp);

/** A public route: no chrome; the guard still applies its tenant claim (/register needs publicRegister). */
function PublicRoute({ children }: { children: ReactNode }) {
  const config = useAppConfig();
  const { pathname } = useLocation();
  const redirect = guardRedirect(withRootView(SCREEN_TABLE, config), pathname, null, config);
  if (redirect) return <Navigate to={redirect} replace />;
  return <Suspense fallback={<LoadingScreen />}>{children}</Suspense>;
}

/**
 * Every non-public path needs a session: restore it from the refresh cookie, else go to
 * /login without downloading the app.
 */
function RequireSession({ children }: { children: ReactNode }) {
  const [state, setState] = useState<'checking' | 'in' | 'out'>(() => (session.user ? 'in' : 'checking'));
  useEffect(() => {
    if (state !== 'checking') return;
    let live = true;
    void session.restore().then((user) => live && setState(user ? 'in' : 'out'));
    return () => {
      live = false;
    };
  }, [state]);
  if (state === 'checking') return <LoadingScreen />;
  if (state === 'out') return <Navigate to="/login" replace />;
  return <Suspense fallback={<LoadingScreen />}>{children}</Suspense>;
}

/** When the session ends (sign-out, expiry, revoked elsewhere) a private screen goes to /login. */
function SessionWatcher() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const config = useAppConfig();
  useEffect(
    () =>
      session.subscribe((user) => {
        const route = findRoute(withRootView(SCREEN_TABLE, config), window.location.pathname);
        if (!user && route?.access !== 'public') navigate('/login', { replace: true });
      }),
    [navigate, config],
  );
  void pathname;
  return null;
}

/** The public screens (no chrome), by path pattern. */
const PUBLIC_SCREENS: [pattern: string, screen: (params: Record<string, string>) => ReactNode][] = [
  ['/login', () => <LoginPage />],
  ['/register', () => <RegisterPage />],
  ['/finishSignUp', () => <FinishSignUpPage />],
  ['/linkexpirado', () => <MessagePage kind="linkExpired" />],
  ['/404', () => <MessagePage kind="notFound" />],
  ['/chat/:id', ({ id }) => <PublicChatPage id={id!} />],
];

/** The screen of the current path: a public screen, or the signed-in app. */
function ShellRoutes() {
  const { pathname } = useLocation();
  for (const [pattern, screen] of PUBLIC_SCREENS) {
    // Any case, as react-router's routes matched them.
    const params = matchPattern(pattern, pathname, { ignoreCase: true });
    if (params) return <PublicRoute>{screen(params)}</PublicRoute>;
  }
  return <RequireSession><App /></RequireSession>;
}

/** The app's routes: public screens without chrome, everything else inside the signed-in app. */
export function Shell({ config }: { config: AppConfig }) {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <SessionWatcher />
      <Toaster position={config.toastNotification?.position} />
      <ShellRoutes />
    </ThemeProvider>
  );
}
