import { useState } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import type { WidgetProps } from '@rjsf/utils';
import { messages } from '@atendimento/schemas';

/**
 * Free text entries kept as a list (salesmen codes, contexts): type and press Enter to insert
 * ('Pressione Enter para inserir'); suggestions come from the schema's enum when it has one.
 */
export function ComboboxWidget({ id, value, label, required, disabled, readonly, onChange, onBlur, options, rawErrors, hideLabel }: WidgetProps) {
  // Only real entries: a list rjsf padded with empty items must not show an 'undefined' chip.
  const list = Array.isArray(value) ? value.filter((v) => v !== undefined && v !== null && v !== '').map(String) : [];
  const suggestions = (options.enumOptions ?? []).map((option) => String(option.value));
  const [input, setInput] = useState('');
  return (
    <Autocomplete<string, true, false, true>
      id={id}
      multiple
      freeSolo
      options={suggestions}
      value={list}
      inputValue={input}
      disabled={disabled || readonly}
      onInputChange={(_, next) => setInput(next)}
      onChange={(_, next) => {
        const clean = [...new Set(next.map((entry) => entry.trim()).filter(Boolean))];
        onChange(clean.length ? clean : undefined);
      }}
      onBlur={() => onBlur(id, value)}
      renderValue={(items, getItemProps) =>
        items.map((option, index) => {
          const { key, ...itemProps } = getItemProps({ index });
          return <Chip key={key} size="small" label={option} {...itemProps} />;
        })
      }
      renderInput={(params) => (
        <TextField
          {...params}
          label={hideLabel ? undefined : label}
          required={required && list.length === 0}
          error={Boolean(rawErrors?.length)}
          helperText={messages.validation.comboboxHint}
        />
      )}
    />
  );
}
