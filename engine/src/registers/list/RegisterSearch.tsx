import { useEffect, useRef, useState } from 'react';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import SearchIcon from '@mui/icons-material/Search';
import { useListContext } from 'react-admin';
import { messages } from '@atendimento/schemas';
import { normaliseSearch, TABLE_SEARCH_MIN } from '@atendimento/schemas/registers/index';

/** Table search debounce (seed 000 §9: 500 ms). */
const SEARCH_DEBOUNCE_MS = 500;

/**
 * The table's search box (seed 000 §5): + / ( ) stripped, at least 2 letters
 * ('Favor informar pelo menos 2 letras'), debounced; sent as the list filter `q`, which the
 * server matches on the register's search fields.
 */
export function RegisterSearch({ debounceMs = SEARCH_DEBOUNCE_MS }: { debounceMs?: number }) {
  const { filterValues, setFilters } = useListContext();
  const [text, setText] = useState(() => (typeof filterValues.q === 'string' ? filterValues.q : ''));
  const latest = useRef({ filterValues, setFilters });
  latest.current = { filterValues, setFilters };
  const term = normaliseSearch(text);
  const tooShort = term.length > 0 && term.length < TABLE_SEARCH_MIN;

  useEffect(() => {
    if (tooShort) return;
    const timer = setTimeout(() => {
      const { filterValues: current, setFilters: set } = latest.current;
      if ((current.q ?? '') === term) return;
      const { q: _previous, ...rest } = current;
      set(term ? { ...rest, q: term } : rest, undefined, false);
    }, debounceMs);
    return () => clearTimeout(timer);
  }, [term, tooShort, debounceMs]);

  return (
    <TextField
      size="small"
      value={text}
      onChange={(event) => setText(event.target.value)}
      placeholder={messages.registers.search}
      error={tooShort}
      helperText={tooShort ? messages.validation.search2 : ' '}
      slotProps={{
        htmlInput: { 'aria-label': messages.registers.search },
        input: { startAdornment: <InputAdornment position="start"><SearchIcon fontSize="small" /></InputAdornment> },
      }}
      fullWidth
    />
  );
}
