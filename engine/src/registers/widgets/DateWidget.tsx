import { useEffect, useState } from 'react';
import TextField from '@mui/material/TextField';
import type { WidgetProps } from '@rjsf/utils';

/** YYYY-MM-DD → DD/MM/AAAA as typed; anything else is shown as it is. */
export function displayDate(value: unknown): string {
  if (typeof value !== 'string') return '';
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  return iso ? `${iso[3]}/${iso[2]}/${iso[1]}` : value;
}

/** What was typed → the stored value: a complete DD/MM/AAAA becomes YYYY-MM-DD; a partial text stays text (and fails the schema's format). */
export function storedDate(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const typed = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(trimmed);
  return typed ? `${typed[3]}-${typed[2]}-${typed[1]}` : trimmed;
}

/** Digits typed → DD/MM/AAAA with the slashes put in. */
function maskDate(text: string): string {
  const digits = text.replace(/\D/g, '').slice(0, 8);
  return [digits.slice(0, 2), digits.slice(2, 4), digits.slice(4)].filter(Boolean).join('/');
}

/**
 * A calendar date (schema format "date", stored YYYY-MM-DD) typed as DD/MM/AAAA (seed 000 §9
 * date display). A text box, not the browser's date input, whose format follows the browser's
 * language (mm/dd/yyyy in an English Chrome).
 */
export function DateWidget({ id, value, label, required, disabled, readonly, onChange, onBlur, onFocus, rawErrors, hideLabel }: WidgetProps) {
  const [text, setText] = useState(() => displayDate(value));
  // A value set from outside (duplicate, reset) replaces what is in the box.
  useEffect(() => {
    if (storedDate(text) !== value) setText(displayDate(value));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value]);
  return (
    <TextField
      id={id}
      fullWidth
      label={hideLabel ? undefined : label}
      required={required}
      value={text}
      placeholder="DD/MM/AAAA"
      disabled={disabled || readonly}
      error={Boolean(rawErrors?.length)}
      onChange={(event) => {
        const next = maskDate(event.target.value);
        setText(next);
        onChange(storedDate(next));
      }}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { inputMode: 'numeric', maxLength: 10 } }}
    />
  );
}
