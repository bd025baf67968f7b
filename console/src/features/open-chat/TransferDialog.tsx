import { useEffect, useMemo, useState } from 'react';
import {
  Alert, Button, Checkbox, Chip, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel, List, ListItemButton, ListItemIcon, ListItemText, MenuItem, Switch, TextField,
} from '@mui/material';
import { foldText, messages as seedTexts, validateTransfer, type MoveQueuesInput, type TransferRoomInput, type TransferTargets } from '@atendimento/schemas';
import { useConsole } from '../../ConsoleContext';

const t = seedTexts.transfer;

export type TransferDialogInput = { kind: 'agents'; input: TransferRoomInput } | { kind: 'queues'; input: MoveQueuesInput };

/**
 * The transfer dialog and the queue-selection dialog (seed 001 §2 "Other dialogs", §4
 * "Transfer", §5, §6 "Transfer targets"): agents or queues to choose (offline agents and queues
 * without anyone online are shown but not selectable unless the tenant allows it), the
 * justification from `transferJustify`, an observation and, for agents, 'Permanecer no chat'.
 * It checks with the same `validateTransfer` the server runs; the server answers the rest.
 */
export function TransferDialog(props: {
  open: boolean;
  kind: 'agents' | 'queues';
  /** GET /api/rooms/:id/transferTargets; null while loading. */
  targets: TransferTargets | null;
  onCancel: () => void;
  onConfirm: (value: TransferDialogInput) => Promise<boolean> | boolean;
}) {
  const { appConfig } = useConsole();
  const [chosen, setChosen] = useState<string[]>([]);
  const [search, setSearch] = useState('');
  const [justify, setJustify] = useState('');
  const [obs, setObs] = useState('');
  const [remain, setRemain] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!props.open) return;
    setChosen([]);
    setSearch('');
    setJustify('');
    setObs('');
    setError(null);
  }, [props.open, props.kind]);
  useEffect(() => {
    if (props.targets) setRemain(props.targets.remainInChat);
  }, [props.targets]);

  const rows = useMemo(() => {
    const term = foldText(search.trim());
    const all = props.kind === 'agents'
      ? (props.targets?.agents ?? []).map((a) => ({
          id: a.id, name: a.displayName, selectable: a.selectable,
          // Offline and still selectable (enableAbsentTransfer): said in the detail; not selectable: the chip says it.
          detail: [a.depts.map((d) => d.displayName).join(', '), a.online || !a.selectable ? null : t.offline].filter(Boolean).join(' · '),
        }))
      : (props.targets?.queues ?? []).map((q) => ({ id: q.id, name: q.name, selectable: q.selectable, detail: q.onlineAgents > 0 ? `${q.onlineAgents} online` : q.selectable ? t.noOnline : '' }));
    // The seed's on-hold search filters from 2 characters; the same here.
    return term.length > 1 ? all.filter((r) => foldText(r.name).includes(term)) : all;
  }, [props.kind, props.targets, search]);

  const toggle = (id: string) => {
    setError(null);
    setChosen((c) => (c.includes(id) ? c.filter((x) => x !== id) : [...c, id]));
  };

  const confirm = async () => {
    const problem = validateTransfer(appConfig, { kind: props.kind, ids: chosen, justify: justify || null });
    setError(problem?.message ?? null);
    if (problem) return;
    const transferJustify = { justify: justify || null, obs: obs.trim() || null };
    setBusy(true);
    const ok = await props.onConfirm(
      props.kind === 'agents' ? { kind: 'agents', input: { agents: chosen, remainInChat: remain, transferJustify } } : { kind: 'queues', input: { queues: chosen, transferJustify } },
    );
    setBusy(false);
    if (ok) setChosen([]);
  };

  const justifies = props.targets?.justifies ?? appConfig.transferJustify ?? [];
  const title = props.kind === 'agents' ? t.title : t.queuesTitle;
  return (
    <Dialog open={props.open} onClose={props.onCancel} fullWidth maxWidth="sm" aria-labelledby="transfer-title" slotProps={{
      paper: { sx: { width: '100%', maxWidth: 500, mx: 1 } }
    }}>
      <DialogTitle id="transfer-title">{title}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 1.5, pt: '8px !important' }}>
        {error && <Alert severity="error">{error}</Alert>}
        <TextField size="small" label={t.search} value={search} onChange={(e) => setSearch(e.target.value)} />
        <List dense sx={{ maxHeight: 300, overflow: 'auto' }} aria-label={title}>
          {rows.map((r) => (
            <ListItemButton key={r.id} disabled={!r.selectable} onClick={() => toggle(r.id)} selected={chosen.includes(r.id)}>
              <ListItemIcon>
                <Checkbox edge="start" checked={chosen.includes(r.id)} tabIndex={-1} disableRipple slotProps={{
                  input: { 'aria-label': r.name }
                }} />
              </ListItemIcon>
              <ListItemText primary={r.name} secondary={r.detail || undefined} />
              {!r.selectable && <Chip size="small" label={props.kind === 'agents' ? t.offline : t.noOnline} />}
            </ListItemButton>
          ))}
        </List>
        {justifies.length > 0 && (
          <TextField select label={t.justify} value={justify} onChange={(e) => { setJustify(e.target.value); setError(null); }}>
            {justifies.map((j) => <MenuItem key={j} value={j}>{j}</MenuItem>)}
          </TextField>
        )}
        <TextField label={t.obs} value={obs} onChange={(e) => setObs(e.target.value)} multiline minRows={2} slotProps={{
          htmlInput: { maxLength: 2000 }
        }} />
        {props.kind === 'agents' && (
          <FormControlLabel control={<Switch checked={remain} onChange={(e) => setRemain(e.target.checked)} />} label={t.remainInChat} />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onCancel}>{t.cancel}</Button>
        <Button variant="contained" disabled={busy || !props.targets} onClick={() => void confirm()}>{t.confirm}</Button>
      </DialogActions>
    </Dialog>
  );
}
