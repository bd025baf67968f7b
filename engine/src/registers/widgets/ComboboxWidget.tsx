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
export function ComboboxWidget({ id, value, label, required, disabled, readonly, onChange, onBlur, options, rawErrors, hideLabel, schema }: WidgetProps) {
  // Only real entries: a list rjsf padded with empty items must not show an 'undefined' chip.
  const list = Array.isArray(value) ? value.filter((v) => v !== undefined && v !== null && v !== '').map(String) : [];
  const suggestions = (options.enumOptions ?? []).map((option) => String(option.value));
  const [input, setInput] = useState('');
  // rjsf hands an array widget its own errors only, not its items' ('CGC inválido' on CGC.0): an
  // entry that breaks the item's rule is refused as it is typed, with the item's message, instead
  // of a chip that later makes 'Salvar' do nothing without a word.
  const [refused, setRefused] = useState<string | null>(null);
  const itemProblem = itemRule(schema.items);
  return (
    <Autocomplete<string, true, false, true>
      id={id}
      multiple
      freeSolo
      options={suggestions}
      value={list}
      inputValue={input}
      disabled={disabled || readonly}
      onInputChange={(_, next) => {
        setInput(next);
        setRefused(null);
      }}
      onChange={(_, next, reason) => {
        const clean = [...new Set(next.map((entry) => entry.trim()).filter(Boolean))];
        const bad = reason === 'createOption' || reason === 'selectOption' ? clean.filter((entry) => !list.includes(entry)).map(itemProblem).find(Boolean) : null;
        if (bad) {
          setRefused(bad);
          // Keep what was typed in the box, to be corrected.
          setInput(next[next.length - 1] ?? '');
          return;
        }
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
          error={Boolean(rawErrors?.length) || refused !== null}
          helperText={refused ?? messages.validation.comboboxHint}
        />
      )}
    />
  );
}

/** The item schema's own rule (pattern, maxLength) as a check that answers its message. */
function itemRule(items: unknown): (entry: string) => string | null {
  const rule = (items && typeof items === 'object' && !Array.isArray(items) ? items : {}) as { pattern?: string; maxLength?: number; errorMessage?: unknown };
  const pattern = typeof rule.pattern === 'string' ? new RegExp(rule.pattern, 'u') : null;
  const message = typeof rule.errorMessage === 'string' ? rule.errorMessage : messages.validation.invalidValue;
  return (entry) => ((pattern && !pattern.test(entry)) || (typeof rule.maxLength === 'number' && [...entry].length > rule.maxLength) ? message : null);
}
