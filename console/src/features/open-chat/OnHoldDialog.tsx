import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, List, ListItemButton, ListItemIcon, ListItemText, Radio, TextField } from '@mui/material';
import { messages as seedTexts } from '@atendimento/schemas';
import type { FixedMessage } from '../../model/chatApi';
import { texts } from '../../ui/texts';

/**
 * The on-hold dialog (seed 001 §2 "Other dialogs", §4 "On hold", §5): 'Chat em espera', a fixed
 * message to choose (the search filters from 2 characters), 'Cancelar' and 'Confirmar'. The
 * chosen message goes to the customer and the chat shows on hold until the agent sends anything.
 */
export function OnHoldDialog(props: { open: boolean; items: FixedMessage[]; onCancel: () => void; onConfirm: (message: string) => Promise<boolean> | boolean }) {
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!props.open) return;
    setSearch('');
    setChosen(null);
    setError(null);
  }, [props.open]);
  const shown = useMemo(() => {
    const term = search.trim().toLocaleLowerCase('pt-BR');
    const usable = props.items.filter((f) => f.message?.trim());
    return term.length > 1 ? usable.filter((f) => f.message.toLocaleLowerCase('pt-BR').includes(term) || (f.tag ?? '').toLocaleLowerCase('pt-BR').includes(term)) : usable;
  }, [props.items, search]);

  const confirm = async () => {
    const message = props.items.find((f) => f.id === chosen)?.message;
    if (!message) {
      setError(seedTexts.chatServer.onHoldMessageRequired);
      return;
    }
    setBusy(true);
    await props.onConfirm(message);
    setBusy(false);
  };

  return (
    <Dialog open={props.open} onClose={props.onCancel} fullWidth maxWidth="sm" aria-labelledby="on-hold-title" slotProps={{
      paper: { sx: { width: '100%', maxWidth: 500, mx: 1 } }
    }}>
      <DialogTitle id="on-hold-title">{seedTexts.chat.onHoldTitle}</DialogTitle>
      <DialogContent>
        {error && <Alert severity="error" sx={{ mb: 1 }}>{error}</Alert>}
        <TextField size="small" fullWidth label={texts.onHold.search} value={search} onChange={(e) => setSearch(e.target.value)} sx={{ mt: 1 }} />
        <List dense sx={{ maxHeight: 320, overflow: 'auto' }} aria-label={seedTexts.chat.onHoldTitle}>
          {shown.map((f) => (
            <ListItemButton key={f.id} selected={chosen === f.id} onClick={() => { setChosen(f.id); setError(null); }}>
              <ListItemIcon><Radio edge="start" checked={chosen === f.id} tabIndex={-1} disableRipple slotProps={{
                input: { 'aria-label': f.message }
              }} /></ListItemIcon>
              <ListItemText primary={f.message} secondary={f.tag ? `/${f.tag}` : undefined} />
            </ListItemButton>
          ))}
          {shown.length === 0 && <ListItemText sx={{ px: 2 }} secondary={seedTexts.chat.emptyList} />}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onCancel}>{texts.onHold.cancel}</Button>
        <Button variant="contained" disabled={busy} onClick={() => void confirm()}>{texts.onHold.confirm}</Button>
      </DialogActions>
    </Dialog>
  );
}
