import { useEffect, useMemo, useState } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import type { WidgetProps } from '@rjsf/utils';
import { messages } from '@atendimento/schemas';
import { AUTOCOMPLETE_DEBOUNCE_MS, AUTOCOMPLETE_MIN, lookup, type LookupOption } from './lookup';

const ids = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : typeof value === 'string' && value ? [value] : []);

/**
 * Picks records of another register (`ui:options.resource`) by typing at least 3 letters
 * ('Digite para buscar (min. 3)'); a list field keeps several ids as chips. Titles of the saved
 * ids are looked up once so the chips read as names, not ids.
 */
export function AutocompleteWidget({ id, value, label, required, disabled, readonly, onChange, onBlur, options, schema, rawErrors, hideLabel }: WidgetProps) {
  const resource = String(options.resource ?? '');
  const multiple = schema.type === 'array';
  const debounce = typeof options.debounce === 'number' ? options.debounce : AUTOCOMPLETE_DEBOUNCE_MS;
  const selected = ids(value);
  const [known, setKnown] = useState<Record<string, LookupOption>>({});
  const [input, setInput] = useState('');
  const [found, setFound] = useState<LookupOption[]>([]);
  const [loading, setLoading] = useState(false);

  const missing = selected.filter((key) => !known[key]).join(',');
  useEffect(() => {
    if (!missing || !resource) return;
    const controller = new AbortController();
    lookup(resource, { ids: missing.split(',') }, controller.signal)
      .then((options) => setKnown((prev) => ({ ...prev, ...Object.fromEntries(options.map((o) => [o.id, o])) })))
      .catch(() => undefined);
    return () => controller.abort();
  }, [missing, resource]);

  const text = input.trim();
  useEffect(() => {
    if (text.length < AUTOCOMPLETE_MIN || !resource) {
      setFound([]);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setLoading(true);
      lookup(resource, { q: text }, controller.signal)
        .then((options) => {
          setFound(options);
          setKnown((prev) => ({ ...prev, ...Object.fromEntries(options.map((o) => [o.id, o])) }));
        })
        .catch(() => setFound([]))
        .finally(() => setLoading(false));
    }, debounce);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text, resource, debounce]);

  const current = useMemo(() => selected.map((key) => known[key] ?? { id: key, label: key }), [selected, known]);
  const noOptionsText = text.length < AUTOCOMPLETE_MIN ? messages.validation.autocompleteHint : messages.table.noRecords;

  return (
    <Autocomplete<LookupOption, boolean>
      id={id}
      multiple={multiple}
      options={found}
      value={multiple ? current : (current[0] ?? null)}
      filterOptions={(all) => all}
      getOptionLabel={(option) => option.label}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      loading={loading}
      loadingText={messages.table.loading}
      noOptionsText={noOptionsText}
      disabled={disabled || readonly}
      inputValue={input}
      onInputChange={(_, next, reason) => reason !== 'reset' && setInput(next)}
      onChange={(_, next) => {
        setInput('');
        if (Array.isArray(next)) onChange(next.length ? next.map((o) => o.id) : undefined);
        else onChange(next ? next.id : undefined);
      }}
      onBlur={() => onBlur(id, value)}
      renderValue={
        multiple
          ? (items, getItemProps) =>
              (items as LookupOption[]).map((option, index) => {
                return <Chip key={option.id} size="small" label={option.label} {...getItemProps({ index })} />;
              })
          : undefined
      }
      renderInput={(params) => (
        <TextField
          {...params}
          label={hideLabel ? undefined : label}
          required={required && selected.length === 0}
          error={Boolean(rawErrors?.length)}
          helperText={text.length > 0 && text.length < AUTOCOMPLETE_MIN ? messages.validation.autocompleteHint : undefined}
          placeholder={selected.length === 0 ? messages.validation.autocompleteHint : undefined}
        />
      )}
    />
  );
}
