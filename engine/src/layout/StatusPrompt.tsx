import { useRef, useState } from 'react';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import { LazyDialog } from '@atendimento/console/LazyOverlay';
import { format, messages, type AppConfig, type User } from '@atendimento/schemas';
import { DEFAULT_STATUS, findStatus, presence, usePresenceStatus } from '../presence/presence';

/**
 * The sign-in prompt (seed 001 §4): entering with a known status other than online asks
 * whether to switch to ONLINE. Cancelar keeps the status; Atualizar (or choosing online in the
 * status bar) closes it.
 */
export function StatusPrompt({ user, config }: { user: User; config: Pick<AppConfig, 'statusList'> }) {
  const status = usePresenceStatus();
  // The first status known after sign-in decides once; later changes only close the prompt.
  const entry = useRef<string | null>(null);
  if (entry.current === null && status) entry.current = status;
  const asked = entry.current;
  const [dismissed, setDismissed] = useState(false);
  const known = findStatus(config.statusList, asked);
  const open = !dismissed && Boolean(known) && asked?.toLowerCase() !== DEFAULT_STATUS && status?.toLowerCase() !== DEFAULT_STATUS;
  return (
    <LazyDialog open={open} onClose={() => setDismissed(true)} maxWidth="xs">
      <DialogContent>
        <DialogContentText>{format(messages.presence.loginPrompt, { status: known?.text ?? asked ?? '' })}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => setDismissed(true)}>{messages.shell.cancel}</Button>
        <Button
          variant="contained"
          onClick={() => {
            setDismissed(true);
            void presence.choose(user.id, DEFAULT_STATUS).catch(() => undefined);
          }}
        >
          {messages.shell.update}
        </Button>
      </DialogActions>
    </LazyDialog>
  );
}
