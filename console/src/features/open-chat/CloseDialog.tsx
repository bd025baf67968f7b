import { useState } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, TextField } from '@mui/material';
import { hasTenantClaim, messages as seedTexts, type CloseRoomInput } from '@atendimento/schemas';
import { useConsole } from '../../ConsoleContext';
import { texts } from '../../ui/texts';

const DATE_RE = /^(\d{2})\/(\d{2})\/(\d{4})$/;

/** DD/MM/YYYY → Date (local midnight), or null when it is not a real date. */
export function parseBrDate(value: string): Date | null {
  const m = DATE_RE.exec(value.trim());
  if (!m) return null;
  const d = new Date(Number(m[3]), Number(m[2]) - 1, Number(m[1]));
  return d.getDate() === Number(m[1]) && d.getMonth() === Number(m[2]) - 1 ? d : null;
}

/**
 * The closure dialog (seed 001 §4 "Closing"): a justification from the closure configuration
 * (required unless reportOnly: 'Escolha uma justificativa de encerramento!'), an observation
 * checked by the configured rules (the first failing message shows), and a next-contact date
 * only with tenant claim hasNextContact, at most today + nextMaxDate days.
 */
export function CloseDialog(props: { open: boolean; noMessage?: boolean; onCancel: () => void; onConfirm: (input: CloseRoomInput) => Promise<boolean> | boolean }) {
  const { appConfig, now } = useConsole();
  const config = appConfig.closeJustify ?? { justifies: [], obsRules: [], reportOnly: false, nextMaxDate: 5000 };
  const hasNextContact = hasTenantClaim(appConfig, 'hasNextContact');
  const [justify, setJustify] = useState('');
  const [obs, setObs] = useState('');
  const [nextContact, setNextContact] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const validate = (): string | null => {
    if (!config.reportOnly && config.justifies.length > 0 && !justify) return seedTexts.chat.chooseCloseJustify;
    for (const rule of config.obsRules ?? []) {
      let ok = true;
      try {
        ok = new RegExp(rule.pattern).test(obs);
      } catch {
        ok = true; // A broken rule in the configuration must not block every closure.
      }
      if (!ok) return rule.message;
    }
    if (hasNextContact && nextContact) {
      const date = parseBrDate(nextContact);
      const today = new Date(now());
      today.setHours(0, 0, 0, 0);
      const max = new Date(today.getTime() + (config.nextMaxDate ?? 5000) * 86_400_000);
      if (!date || date < today || date > max) return seedTexts.chatServer.nextContactInvalid;
    }
    return null;
  };

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
    <Dialog open={props.open} onClose={props.onCancel} fullWidth maxWidth="sm" PaperProps={{ sx: { minWidth: 500 } }}>
      <DialogTitle>{props.noMessage ? texts.closeDialog.titleNoMessage : texts.closeDialog.title}</DialogTitle>
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
