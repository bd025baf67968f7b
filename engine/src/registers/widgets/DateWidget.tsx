import TextField from '@mui/material/TextField';
import type { WidgetProps } from '@rjsf/utils';

/** A calendar date (YYYY-MM-DD, schema format "date"). */
export function DateWidget({ id, value, label, required, disabled, readonly, onChange, onBlur, onFocus, rawErrors, hideLabel }: WidgetProps) {
  return (
    <TextField
      id={id}
      type="date"
      fullWidth
      label={hideLabel ? undefined : label}
      required={required}
      value={typeof value === 'string' ? value.slice(0, 10) : ''}
      disabled={disabled || readonly}
      error={Boolean(rawErrors?.length)}
      onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value)}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
      slotProps={{ inputLabel: { shrink: true } }}
    />
  );
}
