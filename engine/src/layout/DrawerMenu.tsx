import { useEffect, useRef, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import { styled } from '@mui/material/styles';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import ChevronLeft from '@mui/icons-material/ChevronLeft';
import Edit from '@mui/icons-material/Edit';
import Logout from '@mui/icons-material/Logout';
import Menu from '@mui/icons-material/Menu';
import NewReleases from '@mui/icons-material/NewReleases';
import NotificationsActive from '@mui/icons-material/NotificationsActive';
import People from '@mui/icons-material/People';
import PhoneForwarded from '@mui/icons-material/PhoneForwarded';
import { findRoute, hasTenantClaim, menuRoutes, messages, type AppConfig, type AppRoute, type User } from '@atendimento/schemas';
import { Hint } from '@atendimento/console/Hint';
import { LazyPart } from '@atendimento/console/LazyPart';
import { api } from '../api/api';
import { useLocation, useNavigate } from '../navigation/NavigationContext';
import { session } from '../api/session';
import { RouteIcon } from '../ui/RouteIcon';
import { showToast } from '../ui/toast';
import { UserAvatar } from '../ui/UserAvatar';
import { lazyNamed } from '@atendimento/console/lazyNamed';
import type { OnlineAgent } from './OnlineAgentsDialog';

/** MUI Divider's line (a thin rule in the theme's divider colour) without its module on the first screen (tests/bench B10b). */
const Rule = styled('hr')(({ theme }) => ({ margin: 0, flexShrink: 0, border: 0, borderBottom: `thin solid ${theme.palette.divider}` }));

// A chunk fetched on 'Agentes Online': its Dialog and list stay out of the first screen.
const OnlineAgentsDialog = lazyNamed(() => import('./OnlineAgentsDialog'), 'OnlineAgentsDialog');

/** The drawer re-collapses this long after an item is clicked (seed 000 §9: 2000 ms). */
const DRAWER_AUTO_COLLAPSE_MS = 2000;

/** Dispatched on every drawer click: the console clears its counters and stored search (seed 000 §2). */
export const MENU_ITEM_CLICK_EVENT = 'atendimento:menu-item-click';

function Item(props: { open: boolean; icon: ReactNode; label: string; route?: string; selected?: boolean; active?: boolean; onClick: () => void }) {
  const button = (
    <ListItemButton
      selected={props.selected}
      onClick={props.onClick}
      aria-label={props.label}
      aria-pressed={props.active}
      aria-current={props.selected ? 'page' : undefined}
      data-route={props.route}
      sx={{ minHeight: 42, px: 2.25 }}
    >
      <ListItemIcon sx={{ minWidth: 40, color: props.active ? 'secondary.main' : props.selected ? 'primary.main' : undefined }}>{props.icon}</ListItemIcon>
      <ListItemText primary={props.label} sx={{ opacity: props.open ? 1 : 0, whiteSpace: 'nowrap' }} />
    </ListItemButton>
  );
  return props.open ? (
    button
  ) : (
    <Hint title={props.label} placement="right">
      {button}
    </Hint>
  );
}

/**
 * The left drawer's content (seed 000 §2, 001 §2): the user block (photo or generated avatar,
 * name, edit → /profile, collapse toggle), the routes this user may open, then 'Sair',
 * 'Ativar Notificações', 'Agentes Online', 'Siga-me', 'Novidades' with the hideRightMenus,
 * allowFollowMe and logoutLast rules. Collapses 2 s after any click.
 */
export function DrawerMenu(props: {
  user: User;
  config: AppConfig;
  routes: readonly AppRoute[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onLogout: () => void;
  loadOnlineAgents: () => Promise<OnlineAgent[]>;
}) {
  const { user, config, open } = props;
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [agents, setAgents] = useState<OnlineAgent[] | null>(null);
  const [agentsOpen, setAgentsOpen] = useState(false);
  const collapseTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(collapseTimer.current), []);

  const current = findRoute(props.routes, pathname);
  const entries = menuRoutes(props.routes, user, config);
  const hideRight = hasTenantClaim(config, 'hideRightMenus');
  const followMeAllowed = hasTenantClaim(config, 'allowFollowMe') && Boolean(user.claims.allowFollowMe);
  const logoutLast = hasTenantClaim(config, 'logoutLast');

  function clicked(action: () => void) {
    window.dispatchEvent(new CustomEvent(MENU_ITEM_CLICK_EVENT));
    action();
    clearTimeout(collapseTimer.current);
    collapseTimer.current = setTimeout(() => props.onOpenChange(false), DRAWER_AUTO_COLLAPSE_MS);
  }

  async function enableNotifications() {
    try {
      if (typeof Notification === 'undefined') throw new Error('Notification API unavailable');
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') throw new Error(permission);
      showToast(messages.drawer.notificationsOn, 'success');
    } catch {
      showToast(messages.drawer.notificationsError, 'error');
    }
  }

  async function toggleFollowMe() {
    const next = !user.claims.followMe;
    const answer = await api<{ data: User }>('/api/profile', { method: 'PATCH', body: { followMe: next } }).catch(() => null);
    if (!answer) return;
    session.updateUser(answer.data);
    showToast(next ? messages.presence.followMeOn : messages.presence.followMeOff, 'success');
  }

  function openOnlineAgents() {
    setAgents(null);
    setAgentsOpen(true);
    props.loadOnlineAgents().then(setAgents, (error) => {
      console.warn('online agents failed', error);
      setAgents([]);
    });
  }

  const logout = <Item key="logout" open={open} icon={<Logout />} label={messages.drawer.logout} onClick={() => clicked(props.onLogout)} />;

  return (
    <Box component="nav" aria-label="Menu" sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 1.5, py: 1.5, minHeight: 64 }}>
        <UserAvatar user={user} size={open ? 44 : 36} />
        {open && (
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Typography variant="subtitle2" noWrap title={user.displayName}>
              {user.displayName}
            </Typography>
            <Typography variant="caption" color="text.secondary" noWrap component="p" title={user.email}>
              {user.email}
            </Typography>
          </Box>
        )}
        {open && (
          <Hint title={messages.shell.editProfile}>
            <IconButton size="small" aria-label={messages.shell.editProfile} onClick={() => clicked(() => navigate('/profile'))}>
              <Edit fontSize="small" />
            </IconButton>
          </Hint>
        )}
      </Box>
      <Box sx={{ px: 1.25 }}>
        <Hint title={open ? messages.shell.collapseMenu : messages.shell.expandMenu} placement="right">
          <IconButton aria-label={open ? messages.shell.collapseMenu : messages.shell.expandMenu} onClick={() => props.onOpenChange(!open)}>
            {open ? <ChevronLeft /> : <Menu />}
          </IconButton>
        </Hint>
      </Box>
      <Rule />
      <List dense disablePadding sx={{ flex: 1, overflowY: 'auto', overflowX: 'hidden' }}>
        {entries.map((route) => (
          <Item
            key={route.path}
            open={open}
            icon={<RouteIcon name={route.icon} />}
            label={route.name}
            route={route.path}
            selected={current?.path === route.path}
            onClick={() => clicked(() => navigate(route.path))}
          />
        ))}
        <Rule sx={{ my: 1 }} />
        {!logoutLast && logout}
        <Item open={open} icon={<NotificationsActive />} label={messages.drawer.enableNotifications} onClick={() => clicked(() => void enableNotifications())} />
        {!hideRight && <Item open={open} icon={<People />} label={messages.drawer.onlineAgents} onClick={() => clicked(openOnlineAgents)} />}
        {!hideRight && followMeAllowed && (
          <Item open={open} icon={<PhoneForwarded />} label={messages.drawer.followMe} active={Boolean(user.claims.followMe)} onClick={() => clicked(() => void toggleFollowMe())} />
        )}
        {!hideRight && <Item open={open} icon={<NewReleases />} label={messages.drawer.news} selected={pathname === '/novidades'} onClick={() => clicked(() => navigate('/novidades'))} />}
        {logoutLast && logout}
      </List>
      {agentsOpen && (
        <LazyPart>
          <OnlineAgentsDialog open onClose={() => setAgentsOpen(false)} agents={agents} config={config} />
        </LazyPart>
      )}
    </Box>
  );
}
