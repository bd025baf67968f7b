import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogTitle from '@mui/material/DialogTitle';
import { messages } from '@atendimento/schemas';

/** 'Tem certeza que quer deletar o item?' with Cancelar / DELETAR (seed 000 §4), for one row or many. */
export function ConfirmDeleteDialog({ open, busy, onCancel, onConfirm }: { open: boolean; busy?: boolean; onCancel: () => void; onConfirm: () => void }) {
  return (
    <Dialog open={open} onClose={onCancel} aria-labelledby="confirm-delete-title">
      <DialogTitle id="confirm-delete-title">{messages.table.confirmDelete}</DialogTitle>
      <DialogActions>
        <Button onClick={onCancel} disabled={busy}>
          {messages.table.cancel}
        </Button>
        <Button color="error" variant="contained" onClick={onConfirm} disabled={busy}>
          {messages.table.delete}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
