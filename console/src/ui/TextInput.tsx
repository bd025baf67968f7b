import { useId, type ChangeEvent, type ReactNode } from 'react';
import FilledInput from '@mui/material/FilledInput';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import type { SxProps, Theme } from '@mui/material/styles';

export interface TextInputProps {
  label?: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  placeholder?: string;
  error?: boolean;
  helperText?: ReactNode;
  startAdornment?: ReactNode;
  /** Attributes of the <input> itself (aria-label, inputMode). */
  inputProps?: Record<string, unknown>;
  fullWidth?: boolean;
  sx?: SxProps<Theme>;
}

/**
 * The filled field of the list's first screen, built from TextField's own parts: TextField
 * also imports Select, Menu, Popover and NativeSelect for its `select` mode (~6 kB gzip) that
 * these fields never use. Same markup and theme defaults (MuiFormControl: filled, dense, small).
 */
export function TextInput({ label, value, onChange, placeholder, error, helperText, startAdornment, inputProps, fullWidth, sx }: TextInputProps) {
  const id = useId();
  const helperId = helperText ? `${id}-helper-text` : undefined;
  return (
    <FormControl variant="filled" size="small" error={error} fullWidth={fullWidth} sx={sx}>
      {label && <InputLabel htmlFor={id}>{label}</InputLabel>}
      <FilledInput id={id} value={value} onChange={onChange} placeholder={placeholder} startAdornment={startAdornment} inputProps={inputProps} aria-describedby={helperId} />
      {helperText && <FormHelperText id={helperId}>{helperText}</FormHelperText>}
    </FormControl>
  );
}
