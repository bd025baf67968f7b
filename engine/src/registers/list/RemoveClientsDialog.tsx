import { useEffect, useState } from 'react';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import { messages } from '@atendimento/schemas';
import { apiRequest } from '../../api/api';
import { showToast } from '../../ui/toast';
import { lookup } from '../widgets/lookup';

/**
 * 'Remover clientes' of a contact's row (seed 000 §2 row actions): ticks the linked clients to
 * unlink, then PATCH /contacts/{id}/removeClients (the server remembers them in removedClients).
 * Client names come from the clients lookup; an id it does not know is shown as it is.
 */
export function RemoveClientsDialog({ collection, id, clients, open, onClose, onDone }: { collection: string; id: string; clients: string[]; open: boolean; onClose: () => void; onDone: () => void }) {
  const [labels, setLabels] = useState<Record<string, string>>({});
  const [chosen, setChosen] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const key = clients.join(',');
  useEffect(() => {
    if (!open || clients.length === 0) return;
    setChosen([]);
    const controller = new AbortController();
    lookup('clients', { ids: clients }, controller.signal).then(
      (options) => setLabels(Object.fromEntries(options.map((o) => [o.id, o.label]))),
      () => undefined,
    );
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, key]);

  async function remove() {
    setBusy(true);
    try {
      const { body } = await apiRequest<{ message?: string }>(`/api/${collection}/${encodeURIComponent(id)}/removeClients`, { method: 'PATCH', body: { clients: chosen } });
      showToast(body?.message ?? messages.registers.removeClientsDone, 'success');
      onDone();
      onClose();
    } catch {
      // apiRequest toasted the server's message.
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>{messages.registers.removeClientsTitle}</DialogTitle>
      <DialogContent>
        <FormGroup>
          {clients.map((client) => (
            <FormControlLabel
              key={client}
              label={labels[client] ?? client}
              control={
                <Checkbox
                  checked={chosen.includes(client)}
                  onChange={(event) => setChosen((current) => (event.target.checked ? [...current, client] : current.filter((c) => c !== client)))}
                />
              }
            />
          ))}
        </FormGroup>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {messages.registers.cancel}
        </Button>
        <Button color="error" variant="contained" disabled={busy || chosen.length === 0} onClick={() => void remove()}>
          {messages.registers.removeClientsConfirm}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
