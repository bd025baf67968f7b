import TextField from '@mui/material/TextField';
import type { WidgetProps } from '@rjsf/utils';

/** Digits typed → HH:MM with the colon put in ('0930' → '09:30'). */
function maskTime(text: string): string {
  const digits = text.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}:${digits.slice(2)}` : digits;
}

/**
 * HH:MM, 24 hours (inactiveTime, the weekday slots, contingency hours): a text box with the
 * colon put in, so any browser language shows the same thing; the schema pattern answers
 * 'Formato Invalido (23:59)' for 25:00 or 12:7.
 */
export function TimeWidget({ id, value, label, required, disabled, readonly, onChange, onBlur, onFocus, rawErrors, hideLabel, placeholder }: WidgetProps) {
  return (
    <TextField
      id={id}
      size="small"
      label={hideLabel ? undefined : label}
      required={required}
      value={typeof value === 'string' ? value : ''}
      disabled={disabled || readonly}
      placeholder={placeholder || 'HH:MM'}
      error={Boolean(rawErrors?.length)}
      onChange={(event) => {
        const next = maskTime(event.target.value);
        onChange(next === '' ? undefined : next);
      }}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { inputMode: 'numeric', maxLength: 5 } }}
      sx={{ minWidth: 130 }}
    />
  );
}
