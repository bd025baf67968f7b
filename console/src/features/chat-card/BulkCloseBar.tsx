import { useState } from 'react';
import { Box, Button, DialogActions, DialogContent, DialogTitle, IconButton, List, ListItem, ListItemText, Typography } from '@mui/material';
import DeleteIcon from '@mui/icons-material/Close';
import { messages, type MassCloseAnswer } from '@atendimento/schemas';
import { useConsole } from '../../ConsoleContext';
import type { Room } from '../../model/chat';
import { formatPhone } from '../../ui/format';
import { chatIdLabel } from './ChatCard';
import { LazyDialog } from '../../ui/LazyOverlay';
import { usePhoneFormats } from '../../ui/phoneFormats';

/**
 * Bar for selected chats (seed 001 §2 "Bulk action bar"): 'Encerrar' opens a dialog listing
 * them (name, phone or e-mail, remove) with Cancelar and confirm → POST /api/rooms/massClose.
 */
export function BulkCloseBar({ rooms, onRemove, onDone, onCancel }: { rooms: Room[]; onRemove: (room: Room) => void; onDone: () => void; onCancel: () => void }) {
  usePhoneFormats();
  const { api, notify } = useConsole();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  if (rooms.length === 0) return null;

  async function confirm() {
    setBusy(true);
    try {
      const { body } = await api.request<MassCloseAnswer>('/api/rooms/massClose', { method: 'POST', body: { chatIds: rooms.map((r) => r.id), closedBy: { justify: messages.chat.massCloseNote } }, notify: false });
      notify(body.meta?.message ?? messages.chat.chatsClosed, 'success');
      setOpen(false);
      onDone();
    } catch (e) {
      notify((e as Error).message, 'error');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 1.5, py: 1, bgcolor: '#e3f2fd', borderTop: '1px solid #bbdefb' }} role="toolbar" aria-label="Ações em massa">
      <Typography variant="body2" sx={{ flex: 1 }}>{rooms.length} selecionado(s)</Typography>
      <Button size="small" onClick={onCancel}>Cancelar</Button>
      <Button size="small" variant="contained" color="error" onClick={() => setOpen(true)}>Encerrar</Button>
      <LazyDialog open={open} onClose={() => setOpen(false)} maxWidth="sm" fullWidth slotProps={{
        paper: { sx: { width: '100%', maxWidth: 500, mx: 1 } }
      }}>
        <DialogTitle>Encerrar chats</DialogTitle>
        <DialogContent>
          <List dense>
            {rooms.map((r) => (
              <ListItem key={r.id} secondaryAction={<IconButton edge="end" aria-label={`Remover ${r.author?.displayName ?? r.id}`} onClick={() => onRemove(r)}><DeleteIcon /></IconButton>}>
                <ListItemText primary={r.author?.displayName ?? r.id} secondary={formatPhone(chatIdLabel(r))} />
              </ListItem>
            ))}
          </List>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>Cancelar</Button>
          <Button variant="contained" color="error" onClick={confirm} disabled={busy || rooms.length === 0}>Encerrar</Button>
        </DialogActions>
      </LazyDialog>
    </Box>
  );
}
