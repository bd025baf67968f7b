import Avatar from '@mui/material/Avatar';
import Badge from '@mui/material/Badge';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { messages, type AppConfig } from '@atendimento/schemas';
import { findStatus } from '../presence/presence';
import { UserAvatar } from '../ui/UserAvatar';

/** One row of 'Agentes Online'. */
export interface OnlineAgent {
  id: string;
  displayName: string;
  email: string;
  photoUrl: string | null;
  status: string | null;
}

/** 'Agentes Online' (seed 000 §2 drawer action): who is online now, with each one's status. `agents` null = loading. */
export function OnlineAgentsDialog(props: { open: boolean; onClose: () => void; agents: OnlineAgent[] | null; config: Pick<AppConfig, 'statusList'> }) {
  const { agents } = props;
  return (
    <Dialog open={props.open} onClose={props.onClose} fullWidth maxWidth="xs">
      <DialogTitle>{messages.drawer.onlineAgents}</DialogTitle>
      <DialogContent dividers>
        {agents === null ? (
          <CircularProgress aria-label={messages.shell.loading} sx={{ display: 'block', mx: 'auto' }} />
        ) : agents.length === 0 ? (
          <Typography color="text.secondary">{messages.shell.noOnlineAgents}</Typography>
        ) : (
          <List dense>
            {agents.map((agent) => {
              const status = findStatus(props.config.statusList, agent.status);
              return (
                <ListItem key={agent.id} disableGutters>
                  <ListItemAvatar>
                    <Badge
                      overlap="circular"
                      variant="dot"
                      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
                      sx={{ '& .MuiBadge-badge': { bgcolor: status?.color ?? '#01b882' } }}
                    >
                      {agent.email ? <UserAvatar user={agent} size={36} /> : <Avatar>{agent.displayName[0]}</Avatar>}
                    </Badge>
                  </ListItemAvatar>
                  <ListItemText primary={agent.displayName} secondary={agent.status} slotProps={{
                    secondary: { sx: { textTransform: 'capitalize' } }
                  }} />
                </ListItem>
              );
            })}
          </List>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>{messages.shell.close}</Button>
      </DialogActions>
    </Dialog>
  );
}
