import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { DASHBOARD_MAX_RANGE_DAYS, daysBetween, format, messages, normalizeRange, rangeAround } from '@atendimento/schemas';

const text = messages.dashboard;
const v = messages.validation;

/** What the dialog asks the server for (seed 002 §7 getExportData). */
export interface ExportRequest {
  period: [string, string];
  fileType: 'csv' | 'json';
  /** 'UTC' or the browser's zone name. */
  timezone: string;
  /** Minutes behind UTC (Date#getTimezoneOffset); 0 for UTC. */
  timezoneOffset: number;
  reference: 'createdAt' | 'nps' | 'csat';
}

export interface ExportDialogProps {
  open: boolean;
  email: string;
  today: string;
  askResearch: boolean;
  askResearchCsat: boolean;
  localZone?: string;
  onSubmit: (request: ExportRequest) => Promise<void>;
  onClose: () => void;
}

interface Draft {
  from: string;
  to: string;
  fileType: string;
  timezone: string;
  reference: string;
}

const EMPTY: Draft = { from: '', to: '', fileType: 'csv', timezone: 'UTC', reference: '' };

/**
 * 'Exportar dados' (seed 002 §4, §5, §7): period, file type (csv default), time zone (UTC
 * default, or the browser's), reference date (creation, and NPS/CSAT answer dates when those
 * surveys are on). Confirm validates with the seed's four messages, requests and closes;
 * cancel resets and closes. The file goes by e-mail ('O arquivo gerado será enviado...').
 */
export function ExportDialog({ open, email, today, askResearch, askResearchCsat, localZone = Intl.DateTimeFormat().resolvedOptions().timeZone, onSubmit, onClose }: ExportDialogProps) {
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<keyof Draft | 'period', string>>>({});
  const [busy, setBusy] = useState(false);
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));

  function cancel() {
    setDraft(EMPTY);
    setErrors({});
    onClose();
  }

  async function confirm() {
    const next: typeof errors = {};
    const range = draft.from && draft.to ? normalizeRange(draft.from, draft.to, today) : null;
    if (!range) next.period = v.exportPeriod;
    // A longer span is refused here, not shortened silently (the mail would hold less than asked for).
    else if (daysBetween(draft.from, draft.to) > DASHBOARD_MAX_RANGE_DAYS) next.period = v.exportPeriod90;
    if (draft.fileType !== 'csv' && draft.fileType !== 'json') next.fileType = v.exportFileType;
    if (!draft.timezone) next.timezone = v.exportTimezone;
    if (!draft.reference) next.reference = v.exportReferenceDate;
    setErrors(next);
    if (Object.keys(next).length || !range) return;
    setBusy(true);
    try {
      const utc = draft.timezone === 'UTC';
      await onSubmit({
        period: range,
        fileType: draft.fileType as 'csv' | 'json',
        timezone: draft.timezone,
        timezoneOffset: utc ? 0 : new Date().getTimezoneOffset(),
        reference: draft.reference as ExportRequest['reference'],
      });
      setDraft(EMPTY);
      onClose();
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onClose={cancel} maxWidth="sm" fullWidth>
      <DialogTitle>{text.exportTitle}</DialogTitle>
      <DialogContent>
        <Box sx={{ display: 'grid', gap: 2, pt: 1 }}>
          <Box sx={{ display: 'flex', gap: 2 }}>
            <TextField
              label={messages.registers.exportPeriodStart}
              type="date"
              value={draft.from}
              onChange={(e) => set({ from: e.target.value })}
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { ...rangeAround(draft.to, today), 'data-testid': 'export-from' } }}
              error={Boolean(errors.period)}
              fullWidth
            />
            <TextField
              label={messages.registers.exportPeriodEnd}
              type="date"
              value={draft.to}
              onChange={(e) => set({ to: e.target.value })}
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { ...rangeAround(draft.from, today), 'data-testid': 'export-to' } }}
              error={Boolean(errors.period)}
              helperText={errors.period}
              fullWidth
            />
          </Box>
          <TextField select label={text.exportFileType} value={draft.fileType} onChange={(e) => set({ fileType: e.target.value })} error={Boolean(errors.fileType)} helperText={errors.fileType}>
            <MenuItem value="csv">CSV</MenuItem>
            <MenuItem value="json">JSON</MenuItem>
          </TextField>
          <TextField select label={text.exportTimezone} value={draft.timezone} onChange={(e) => set({ timezone: e.target.value })} error={Boolean(errors.timezone)} helperText={errors.timezone}>
            <MenuItem value="UTC">UTC</MenuItem>
            <MenuItem value={localZone}>{localZone}</MenuItem>
          </TextField>
          <TextField select label={text.exportReference} value={draft.reference} onChange={(e) => set({ reference: e.target.value })} error={Boolean(errors.reference)} helperText={errors.reference} slotProps={{ htmlInput: { 'data-testid': 'export-reference' } }}>
            <MenuItem value="createdAt">{text.exportReferenceCreated}</MenuItem>
            {askResearch ? <MenuItem value="nps">{text.exportReferenceNps}</MenuItem> : null}
            {askResearchCsat ? <MenuItem value="csat">{text.exportReferenceCsat}</MenuItem> : null}
          </TextField>
          <Box sx={{ color: 'text.secondary', fontSize: 14 }}>{format(text.exportNotice, { email })}</Box>
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={cancel}>{text.exportCancel}</Button>
        <Button variant="contained" onClick={() => void confirm()} disabled={busy}>
          {text.exportConfirm}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
