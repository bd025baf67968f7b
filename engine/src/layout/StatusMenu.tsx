import { useState } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Sync from '@mui/icons-material/Sync';
import { isAdmin, messages, type AppConfig, type User } from '@atendimento/schemas';
import { openedLazily } from '@atendimento/console/LazyOverlay';
import { api } from '../api/api';
import { findStatus, presence, statusOptions, usePresenceStatus } from '../presence/presence';
import { StatusIcon } from '../ui/StatusIcon';
import { showToast } from '../ui/toast';
import type { StatusOptionsMenuProps } from './StatusOptionsMenu';

// The menu (MUI's Menu, Popover, MenuItem) loads when it first opens, not with the first screen (tests/bench B10b).
const StatusOptionsMenu = openedLazily<StatusOptionsMenuProps>(() => import('./StatusOptionsMenu').then((m) => ({ default: m.StatusOptionsMenu })));

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
      <StatusOptionsMenu
        open={Boolean(anchor)}
        anchor={anchor}
        options={options}
        selected={selected}
        onClose={() => setAnchor(null)}
        onChoose={(option) => {
          setAnchor(null);
          void presence.choose(user.id, option.text).catch(() => undefined);
        }}
      />
    </Stack>
  );
}
