import TextField from '@mui/material/TextField';
import type { WidgetProps } from '@rjsf/utils';

/** HH:MM (inactiveTime, the weekday slots): a time input; the schema pattern gives 'Formato Invalido (23:59)'. */
export function TimeWidget({ id, value, label, required, disabled, readonly, onChange, onBlur, onFocus, rawErrors, hideLabel, placeholder }: WidgetProps) {
  return (
    <TextField
      id={id}
      type="time"
      size="small"
      label={hideLabel ? undefined : label}
      required={required}
      value={value ?? ''}
      disabled={disabled || readonly}
      placeholder={placeholder}
      error={Boolean(rawErrors?.length)}
      onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value)}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 60 } }}
      sx={{ minWidth: 130 }}
    />
  );
}
