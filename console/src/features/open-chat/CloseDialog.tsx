import { useState } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, TextField } from '@mui/material';
import { DEFAULT_CLOSE_RULES, calendarDay, hasTenantClaim, validateClose, messages as seedTexts, type CloseRoomInput } from '@atendimento/schemas';
import { useConsole } from '../../ConsoleContext';
import { texts } from '../../ui/texts';

/**
 * The closure dialog (seed 001 §4 "Closing"): a justification from the closure configuration,
 * an observation and a next-contact date (tenant claim hasNextContact), checked by the same
 * `validateClose` the server runs, with the tenant's "today"; the first problem shows.
 */
export function CloseDialog(props: { open: boolean; noMessage?: boolean; research?: 'nps' | 'csat'; onCancel: () => void; onConfirm: (input: CloseRoomInput) => Promise<boolean> | boolean }) {
  const { appConfig, now } = useConsole();
  const config = appConfig.closeJustify ?? DEFAULT_CLOSE_RULES;
  const hasNextContact = hasTenantClaim(appConfig, 'hasNextContact');
  const [justify, setJustify] = useState('');
  const [obs, setObs] = useState('');
  const [nextContact, setNextContact] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const validate = (): string | null =>
    validateClose(appConfig, { justify: justify || null, obs: obs || null, nextContact: hasNextContact ? nextContact : null }, calendarDay(now(), appConfig.timeZone))?.message ?? null;

  const confirm = async () => {
    const problem = validate();
    setError(problem);
    if (problem) return;
    setBusy(true);
    const input: CloseRoomInput = { closedBy: { justify: justify || null, obs: obs || null } };
    if (hasNextContact && nextContact) input.nextContact = nextContact;
    const ok = await props.onConfirm(input);
    setBusy(false);
    if (ok) {
      setJustify('');
      setObs('');
      setNextContact('');
    }
  };

  return (
    <Dialog open={props.open} onClose={props.onCancel} fullWidth maxWidth="sm" slotProps={{
      paper: { sx: { width: '100%', maxWidth: 500, mx: 1 } }
    }}>
      <DialogTitle>{props.research ? (props.research === 'nps' ? seedTexts.survey.titleNps : seedTexts.survey.titleCsat) : props.noMessage ? texts.closeDialog.titleNoMessage : texts.closeDialog.title}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important' }}>
        {error && <Alert severity="error">{error}</Alert>}
        {config.justifies.length > 0 && (
          <TextField select label={texts.closeDialog.justify} value={justify} onChange={(e) => { setJustify(e.target.value); setError(null); }}>
            {config.justifies.map((j) => <MenuItem key={j} value={j}>{j}</MenuItem>)}
          </TextField>
        )}
        <TextField label={texts.closeDialog.obs} value={obs} onChange={(e) => setObs(e.target.value)} multiline minRows={2} />
        {hasNextContact && (
          <TextField label={texts.closeDialog.nextContact} value={nextContact} onChange={(e) => setNextContact(e.target.value)} placeholder="DD/MM/AAAA" />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onCancel}>{texts.closeDialog.cancel}</Button>
        <Button variant="contained" color="error" disabled={busy} onClick={() => void confirm()}>{texts.closeDialog.confirm}</Button>
      </DialogActions>
    </Dialog>
  );
}
