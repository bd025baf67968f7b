import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
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
    // What MUI's fixed primary AppBar draws, on a Paper: AppBar's module is not otherwise on the first screen (tests/bench B10b).
    <Paper
      component="header"
      square
      elevation={1}
      sx={{ position: 'fixed', top: 0, left: 'auto', right: 0, width: '100%', display: 'flex', flexDirection: 'column', boxSizing: 'border-box', flexShrink: 0, zIndex: (theme) => theme.zIndex.drawer + 1, bgcolor: 'primary.main', color: 'primary.contrastText' }}
    >
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
    </Paper>
  );
}
