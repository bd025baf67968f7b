import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { messages, type AppRoute } from '@atendimento/schemas';
import { RouteIcon } from '../ui/RouteIcon';

/**
 * Placeholder for a screen whose issue has not landed yet (a register, the dashboard...). It
 * sits behind the same guard as the real screen.
 */
export function ComingSoonPage({ route }: { route: Pick<AppRoute, 'name' | 'icon'> }) {
  return (
    <Paper sx={{ p: 4, textAlign: 'center', maxWidth: 560, mx: 'auto', mt: 4 }}>
      <RouteIcon name={route.icon} color="primary" sx={{ fontSize: 48 }} />
      <Typography variant="h5" component="h2" sx={{ mt: 1 }}>
        {route.name}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        {messages.shell.comingSoonTitle}: {messages.shell.comingSoonText}
      </Typography>
    </Paper>
  );
}
