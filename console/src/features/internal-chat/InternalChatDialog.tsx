import { useEffect, useState } from 'react';
import { Alert, Button, Checkbox, Dialog, DialogActions, DialogContent, DialogTitle, List, ListItemButton, ListItemIcon, ListItemText, TextField } from '@mui/material';
import { messages as seedTexts } from '@atendimento/schemas';
import type { DirectoryAgent } from './useAgentDirectory';

const t = seedTexts.internalChat;

/**
 * The agents dialog of internal chats (seed 001 §2 "agents dialog for internal chats", §5):
 * start a chat with one or more agents ('Escolha agentes para conversar!' when none is chosen;
 * the group-name field only with more than one), or add agents to an open one.
 */
export function InternalChatDialog(props: {
  open: boolean;
  mode: 'start' | 'add';
  agents: DirectoryAgent[];
  /** Agents already in the chat (add mode): not offered. */
  exclude?: string[];
  onCancel: () => void;
  onConfirm: (agentIds: string[], groupName: string | null) => Promise<boolean> | boolean;
}) {
  const [chosen, setChosen] = useState<string[]>([]);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!props.open) return;
    setChosen([]);
    setName('');
    setError(null);
  }, [props.open]);
  const offered = props.agents.filter((a) => !(props.exclude ?? []).includes(a.id));
  const toggle = (id: string) => {
    setError(null);
    setChosen((c) => (c.includes(id) ? c.filter((x) => x !== id) : [...c, id]));
  };
  const confirm = async () => {
    if (chosen.length === 0) {
      setError(seedTexts.chat.chooseInternalAgents);
      return;
    }
    await props.onConfirm(chosen, props.mode === 'start' && chosen.length > 1 ? name.trim() || null : null);
  };
  return (
    <Dialog open={props.open} onClose={props.onCancel} fullWidth maxWidth="xs" aria-labelledby="internal-chat-title">
      <DialogTitle id="internal-chat-title">{props.mode === 'start' ? t.newChat : t.addAgents}</DialogTitle>
      <DialogContent>
        {error && <Alert severity="warning" sx={{ mb: 1 }}>{error}</Alert>}
        <List dense sx={{ maxHeight: 320, overflow: 'auto' }} aria-label="Agentes">
          {offered.map((a) => (
            <ListItemButton key={a.id} onClick={() => toggle(a.id)} selected={chosen.includes(a.id)}>
              <ListItemIcon><Checkbox edge="start" checked={chosen.includes(a.id)} tabIndex={-1} disableRipple slotProps={{
                input: { 'aria-label': a.displayName }
              }} /></ListItemIcon>
              <ListItemText primary={a.displayName} secondary={a.online ? 'Online' : undefined} />
            </ListItemButton>
          ))}
        </List>
        {props.mode === 'start' && chosen.length > 1 && (
          <TextField label={t.groupName} fullWidth size="small" value={name} onChange={(e) => setName(e.target.value)} sx={{ mt: 1 }} slotProps={{
            htmlInput: { maxLength: 200 }
          }} />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onCancel}>{seedTexts.mail.cancel}</Button>
        <Button variant="contained" onClick={() => void confirm()}>{props.mode === 'start' ? t.start : t.addAgents}</Button>
      </DialogActions>
    </Dialog>
  );
}
