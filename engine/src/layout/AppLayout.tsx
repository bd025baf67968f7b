import { Suspense, useEffect, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { LazyDrawer } from '@atendimento/console/LazyOverlay';
import { findRoute, guardRedirect, type AppConfig, type User } from '@atendimento/schemas';
import { Navigate, useLocation } from '../navigation/NavigationContext';
import { presence } from '../presence/presence';
import { ErrorBoundary } from '../ui/ErrorBoundary';
import { LoadingScreen } from '../ui/LoadingScreen';
import { AppToolbar } from './AppToolbar';
import { DemoBanner } from './DemoBanner';
import { DrawerMenu } from './DrawerMenu';
import { FooterCredit } from './FooterCredit';
import type { OnlineAgent } from './OnlineAgentsDialog';
import { useShellRoutes } from './ShellRoutesContext';
import { StatusPrompt } from './StatusPrompt';

const DRAWER_WIDTH = 248;
const DRAWER_CLOSED_WIDTH = 64;

/**
 * The signed-in chrome (seed 000 §2, 001 §2): toolbar with the status bar, the left drawer
 * (starts collapsed), the demo banner, the footer credit and the sign-in status prompt. It is
 * also the route guard: a screen the user may not open redirects to / (or /login), and a
 * user who must change the password stays on /profile.
 */
export function AppLayout(props: {
  user: User;
  config: AppConfig;
  children: ReactNode;
  onLogout: () => void;
  loadOnlineAgents: () => Promise<OnlineAgent[]>;
  /** Starts the presence heartbeat (off in stories). */
  heartbeat?: boolean;
}) {
  const { user, config } = props;
  const routes = useShellRoutes();
  const { pathname } = useLocation();
  const xs = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'), { noSsr: true });
  // Starts collapsed (seed 000 §2).
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (props.heartbeat === false) return;
    return presence.start(user);
    // One heartbeat per signed-in user, not per profile edit.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [user.id, props.heartbeat]);

  const route = findRoute(routes, pathname);
  const redirect = user.updatePass && pathname !== '/profile' ? '/profile' : guardRedirect(routes, pathname, user, config);
  const width = open ? DRAWER_WIDTH : DRAWER_CLOSED_WIDTH;
  const menu = <DrawerMenu user={user} config={config} routes={routes} open={open || xs} onOpenChange={setOpen} onLogout={props.onLogout} loadOnlineAgents={props.loadOnlineAgents} />;

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh', bgcolor: 'background.default' }}>
      <AppToolbar route={route} user={user} config={config} onMenuClick={() => setOpen(true)} />
      {xs ? (
        <LazyDrawer variant="temporary" open={open} onClose={() => setOpen(false)} slotProps={{ paper: { sx: { width: DRAWER_WIDTH, pt: 6 } } }}>
          {menu}
        </LazyDrawer>
      ) : (
        // What MUI's permanent Drawer draws (a docked box and a fixed paper), without the
        // Modal and Slide its module imports for the temporary variant (tests/bench B10b).
        <Box sx={{ width, flexShrink: 0 }}>
          <Paper
            square
            elevation={0}
            sx={{ position: 'fixed', top: 0, left: 0, height: '100%', display: 'flex', flexDirection: 'column', overflowY: 'auto', overflowX: 'hidden', zIndex: 'drawer', borderRight: 1, borderColor: 'divider', width, pt: 6, transition: (theme) => theme.transitions.create('width') }}
          >
            {menu}
          </Paper>
        </Box>
      )}
      <Box component="main" sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', pt: 6 }}>
        <DemoBanner show={Boolean(config.demoDatabase)} />
        <Box sx={{ flex: 1, display: 'flex', flexDirection: 'column', p: { xs: 1, sm: 2 } }}>
          {redirect ? (
            <Navigate to={redirect} replace />
          ) : (
            <ErrorBoundary resetKey={pathname}>
              <Suspense fallback={<LoadingScreen fullPage={false} />}>{props.children}</Suspense>
            </ErrorBoundary>
          )}
        </Box>
        <FooterCredit footer={config.footer} />
      </Box>
      <StatusPrompt user={user} config={config} />
    </Box>
  );
}
