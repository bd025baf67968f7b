import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import type { WidgetProps } from '@rjsf/utils';

/**
 * A colour as #RRGGBBAA (tags default to #1976D2FF, seed 000 §9): the browser's picker sets the
 * RGB part and keeps the alpha; the text box takes any value the schema accepts.
 */
export function ColorWidget({ id, value, label, required, disabled, readonly, onChange, onBlur, onFocus, rawErrors, hideLabel }: WidgetProps) {
  const text = typeof value === 'string' ? value : '';
  const rgb = /^#[0-9a-fA-F]{6}/.test(text) ? text.slice(0, 7) : '#000000';
  const alpha = /^#[0-9a-fA-F]{8}$/.test(text) ? text.slice(7) : 'FF';
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
      <input
        aria-label={`${label} (seletor)`}
        type="color"
        value={rgb}
        disabled={disabled || readonly}
        onChange={(event) => onChange(`${event.target.value.toUpperCase()}${alpha}`)}
        style={{ width: 48, height: 40, border: 'none', background: 'none', padding: 0 }}
      />
      <TextField
        id={id}
        fullWidth
        label={hideLabel ? undefined : label}
        required={required}
        value={text}
        disabled={disabled || readonly}
        error={Boolean(rawErrors?.length)}
        onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value)}
        onBlur={() => onBlur(id, value)}
        onFocus={() => onFocus(id, value)}
      />
    </Box>
  );
}
