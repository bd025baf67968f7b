import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Switch from '@mui/material/Switch';
import type { WidgetProps } from '@rjsf/utils';

/** A boolean as an on/off switch ('Ativo', the block switches). */
export function SwitchWidget({ id, value, label, disabled, readonly, onChange, onBlur, onFocus, options, schema }: WidgetProps) {
  const inline = Boolean(options.inline);
  return (
    <>
      <FormControlLabel
        sx={inline ? { mr: 1 } : undefined}
        control={
          <Switch
            id={id}
            checked={Boolean(value)}
            disabled={disabled || readonly}
            onChange={(_, checked) => onChange(checked)}
            onBlur={() => onBlur(id, value)}
            onFocus={() => onFocus(id, value)}
          />
        }
        label={label || schema.title || ''}
      />
      {typeof options.lockedHint === 'string' && <FormHelperText>{options.lockedHint}</FormHelperText>}
    </>
  );
}
