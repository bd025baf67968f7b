import { useState } from 'react';
import Button from '@mui/material/Button';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Sync from '@mui/icons-material/Sync';
import { isAdmin, messages, type AppConfig, type User } from '@atendimento/schemas';
import { LazyMenu } from '@atendimento/console/LazyOverlay';
import { api } from '../api/api';
import { findStatus, presence, statusOptions, usePresenceStatus } from '../presence/presence';
import { StatusIcon } from '../ui/StatusIcon';
import { showToast } from '../ui/toast';

/**
 * The status bar (seed 001 §2): the agent's status with its colour and icon, a menu to change
 * it, and for admins 'Sincronizar Templates'.
 */
export function StatusMenu({ user, config }: { user: User; config: Pick<AppConfig, 'statusList'> }) {
  const status = usePresenceStatus();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [syncing, setSyncing] = useState(false);
  const options = statusOptions(config.statusList);
  const selected = findStatus(options, status);

  async function syncTemplates() {
    setSyncing(true);
    try {
      await api('/api/cronjob/proccess/syncTemplates', { method: 'POST', notify: false });
      showToast(messages.chat.templatesSynced, 'success');
    } catch {
      showToast(messages.chat.templatesSyncFailed, 'error');
    } finally {
      setSyncing(false);
    }
  }

  return (
    <Stack direction="row" spacing={1} sx={{
      alignItems: "center"
    }}>
      {isAdmin(user) && (
        <Button color="inherit" size="small" startIcon={<Sync />} onClick={syncTemplates} disabled={syncing} sx={{ display: { xs: 'none', md: 'inline-flex' } }}>
          {messages.shell.syncTemplates}
        </Button>
      )}
      <Button
        color="inherit"
        size="small"
        aria-label={`${messages.shell.status}: ${status ?? ''}`}
        aria-haspopup="menu"
        onClick={(event) => setAnchor(event.currentTarget)}
        startIcon={<StatusIcon name={selected?.icon} sx={{ color: selected?.color ?? 'inherit', bgcolor: 'common.white', borderRadius: '50%' }} />}
        sx={{ textTransform: 'capitalize' }}
      >
        {status ?? '…'}
      </Button>
      <LazyMenu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {options.map((option) => (
          <MenuItem
            key={option.text}
            selected={option === selected}
            onClick={() => {
              setAnchor(null);
              void presence.choose(user.id, option.text).catch(() => undefined);
            }}
          >
            <ListItemIcon>
              <StatusIcon name={option.icon} sx={{ color: option.color }} />
            </ListItemIcon>
            <ListItemText sx={{ textTransform: 'capitalize' }}>{option.text}</ListItemText>
          </MenuItem>
        ))}
      </LazyMenu>
    </Stack>
  );
}
