import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { messages } from '@atendimento/schemas';
import { ApiError, apiRequest } from '../../api/api';
import { showToast } from '../../ui/toast';
import { displayDate, storedDate } from '../widgets/DateWidget';

const DAY = 86_400_000;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type Field = 'start' | 'end' | 'type' | 'timezone' | 'recipient';

function maskDate(text: string): string {
  const digits = text.replace(/\D/g, '').slice(0, 8);
  return [digits.slice(0, 2), digits.slice(2, 4), digits.slice(4)].filter(Boolean).join('/');
}

const isDate = (value: string | undefined) => Boolean(value && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)));

/** The seed's checks (000 §5) before sending; the server checks the same again. */
function checkSubCollectionExport(input: { start: string; end: string; type: string; timezone: string; recipient: string }): Partial<Record<Field, string>> {
  const errors: Partial<Record<Field, string>> = {};
  const a = storedDate(input.start);
  const b = storedDate(input.end);
  if (!isDate(a) || !isDate(b)) {
    errors[!isDate(a) ? 'start' : 'end'] = messages.validation.exportPeriod90;
  } else if (Math.abs(Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY > 90) {
    errors.end = messages.validation.exportPeriod90;
  }
  if (input.type !== 'csv' && input.type !== 'json') errors.type = messages.validation.exportFileType;
  if (input.timezone !== 'utc' && input.timezone !== 'local') errors.timezone = messages.validation.exportTimezone;
  if (!EMAIL.test(input.recipient.trim())) errors.recipient = messages.validation.emailInvalid;
  return errors;
}

/**
 * 'Exportar histórico' (seed 000 §2 "Sub-collection export dialog: file type, timezone, date
 * range"; only with the tenant claim enableAgentStatusExporter): the agents' status history in
 * a period of at most 90 days, e-mailed as CSV or JSON ('Exportação solicitada!').
 */
export function SubCollectionExportDialog({ collection, open, defaultRecipient, onClose }: { collection: string; open: boolean; defaultRecipient: string; onClose: () => void }) {
  const today = new Date().toISOString().slice(0, 10);
  const [form, setForm] = useState({ start: displayDate(today), end: displayDate(today), type: 'csv', timezone: 'local', recipient: defaultRecipient });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [busy, setBusy] = useState(false);
  const set = (field: Field, value: string) => setForm((current) => ({ ...current, [field]: value }));

  async function send() {
    const found = checkSubCollectionExport(form);
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const { body } = await apiRequest<{ data?: { message?: string } }>(`/api/${collection}/extractSubCollection?subCollection=status`, {
        method: 'POST',
        body: {
          type: form.type,
          timezone: form.timezone,
          timezoneOffset: new Date().getTimezoneOffset(),
          period: `${storedDate(form.start)}~${storedDate(form.end)}`,
          recipient: form.recipient.trim(),
        },
        notify: false,
      });
      showToast(body?.data?.message ?? messages.table.exportRequested, 'success');
      onClose();
    } catch (error) {
      const fields = error instanceof ApiError ? error.fields : [];
      const byField: Partial<Record<Field, string>> = {};
      for (const f of fields) byField[f.field === 'period' ? 'end' : f.field === 'timezoneOffset' ? 'timezone' : (f.field as Field)] = f.message;
      if (fields.length) setErrors(byField);
      else showToast(error instanceof Error ? error.message : messages.table.exportFailed, 'error');
    } finally {
      setBusy(false);
    }
  }

  const text = (field: 'start' | 'end' | 'recipient', label: string, extra: object = {}) => (
    <TextField
      label={label}
      value={form[field]}
      onChange={(event) => set(field, field === 'recipient' ? event.target.value : maskDate(event.target.value))}
      error={Boolean(errors[field])}
      helperText={errors[field] ?? ' '}
      fullWidth
      size="small"
      slotProps={{ inputLabel: { shrink: true } }}
      {...extra}
    />
  );

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{messages.registers.subCollectionTitle}</DialogTitle>
      <DialogContent>
        <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 2, pt: 1 }}>
          {text('start', messages.registers.exportPeriodStart, { placeholder: 'DD/MM/AAAA' })}
          {text('end', messages.registers.exportPeriodEnd, { placeholder: 'DD/MM/AAAA' })}
          <TextField select label={messages.registers.exportFileTypeLabel} value={form.type} onChange={(event) => set('type', event.target.value)} error={Boolean(errors.type)} helperText={errors.type ?? ' '} size="small">
            <MenuItem value="csv">CSV</MenuItem>
            <MenuItem value="json">JSON</MenuItem>
          </TextField>
          <TextField select label={messages.registers.exportTimezoneLabel} value={form.timezone} onChange={(event) => set('timezone', event.target.value)} error={Boolean(errors.timezone)} helperText={errors.timezone ?? ' '} size="small">
            <MenuItem value="local">{messages.registers.exportTimezoneLocal}</MenuItem>
            <MenuItem value="utc">{messages.registers.exportTimezoneUtc}</MenuItem>
          </TextField>
          <Box sx={{ gridColumn: '1 / -1' }}>{text('recipient', messages.registers.exportRecipient, { type: 'email' })}</Box>
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {messages.registers.cancel}
        </Button>
        <Button variant="contained" onClick={() => void send()} disabled={busy}>
          {messages.registers.exportSend}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
