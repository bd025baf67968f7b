import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import MenuIcon from '@mui/icons-material/Menu';
import { messages, type AppConfig, type AppRoute, type User } from '@atendimento/schemas';
import { RouteIcon } from '../ui/RouteIcon';
import { StatusMenu } from './StatusMenu';

/** The top bar (seed 000 §2 "Toolbar"): the current route's icon and name, and the status bar. */
export function AppToolbar(props: { route: Pick<AppRoute, 'icon' | 'name'> | undefined; user: User; config: AppConfig; onMenuClick?: () => void }) {
  return (
    <AppBar position="fixed" color="primary" elevation={1} sx={{ zIndex: (theme) => theme.zIndex.drawer + 1 }}>
      <Toolbar variant="dense" sx={{ gap: 1.5 }}>
        {props.onMenuClick && (
          <IconButton color="inherit" edge="start" aria-label={messages.shell.expandMenu} onClick={props.onMenuClick} sx={{ display: { sm: 'none' } }}>
            <MenuIcon />
          </IconButton>
        )}
        {props.route && <RouteIcon name={props.route.icon} aria-hidden />}
        <Typography variant="h6" component="h1" noWrap sx={{ flex: 1, fontSize: '1.1rem' }}>
          {props.route?.name ?? ''}
        </Typography>
        <Box>
          <StatusMenu user={props.user} config={props.config} />
        </Box>
      </Toolbar>
    </AppBar>
  );
}
