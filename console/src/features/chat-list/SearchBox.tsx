import { useEffect, useRef, useState } from 'react';
import { Autocomplete, Box, Divider, FormControlLabel, IconButton, InputAdornment, Menu, Slider, Switch, TextField, Tooltip, Typography } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import FilterListIcon from '@mui/icons-material/FilterList';
import { hasTenantClaim, maySeeResearch, messages, type RoomSearchAnswer, type RoomSearchInput, type RoomTabId } from '@atendimento/schemas';
import { useConsole } from '../../ConsoleContext';
import { roomActions } from '../../store/consoleStores';
import { LIMITS } from '../../ui/constants';
import { normalizeSearch } from './searchTerm';
import { useLiveOptions, type LiveOption } from './useLiveOptions';
import { texts } from '../../ui/texts';

export const SEARCH_LIST_KEY = 'search';

export interface SearchFilters {
  text: string;
  nps: [number, number];
  dates: [string, string] | null;
  myContacts: boolean;
  agents: string[];
  departments: string[];
  tags: string[];
  channels: string[];
}

/** A multiple choice of a filter menu, by id. */
function MultiFilter({ label, options, value, onChange }: { label: string; options: LiveOption[]; value: string[]; onChange: (ids: string[]) => void }) {
  const chosen = value.map((id) => options.find((o) => o.id === id) ?? { id, label: id });
  return (
    <Autocomplete
      multiple
      size="small"
      options={options}
      value={chosen}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      getOptionLabel={(o) => o.label}
      onChange={(_, v) => onChange(v.map((o) => o.id))}
      renderInput={(params) => <TextField {...params} label={label} />}
      sx={{ mb: 1 }}
    />
  );
}

/**
 * Search box with its filter menu (seed 001 §2, §5): runs POST /api/mongodb/search 1 s after
 * the last change when the term is valid or a filter is set; otherwise clears the search.
 * Results go to the 'search' list; `onState` tells the panel whether a search is shown/running.
 */
export function SearchBox({ tab, onState }: { tab: RoomTabId | 'contacts'; onState: (state: { active: boolean; searching: boolean }) => void }) {
  const { api, stores, appConfig, user } = useConsole();
  // The NPS range only for who reads the answers (the server refuses it to the others).
  const showNps = maySeeResearch(user, 'nps');
  const npsMax = hasTenantClaim(appConfig, 'npsFive') ? 5 : 10;
  const npsMin = npsMax === 5 ? 1 : 0;
  const [filters, setFilters] = useState<SearchFilters>({ text: '', nps: [npsMin, npsMax], dates: null, myContacts: false, agents: [], departments: [], tags: [], channels: [] });
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const agentOptions = useLiveOptions('users', Boolean(anchor));
  const departmentOptions = useLiveOptions('departaments', Boolean(anchor));
  const tagOptions = useLiveOptions('tags', Boolean(anchor));
  const channelOptions = useLiveOptions('channels', Boolean(anchor));
  const term = normalizeSearch(filters.text);
  const onStateRef = useRef(onState);
  onStateRef.current = onState;
  const seq = useRef(0);

  useEffect(() => {
    const npsSet = filters.nps[0] !== npsMin || filters.nps[1] !== npsMax;
    const lists = filters.agents.length > 0 || filters.departments.length > 0 || filters.tags.length > 0 || filters.channels.length > 0;
    const wanted = !term.error && (term.text !== '' || npsSet || filters.dates !== null || filters.myContacts || lists);
    if (!wanted) {
      onStateRef.current({ active: false, searching: false });
      return;
    }
    const run = ++seq.current;
    const timer = setTimeout(async () => {
      onStateRef.current({ active: true, searching: true });
      const body: RoomSearchInput = {
        ...(tab !== 'contacts' ? { tab } : {}),
        ...(term.text ? { text: term.text } : {}),
        ...(npsSet ? { nps: filters.nps } : {}),
        ...(filters.dates ? { dates: filters.dates } : {}),
        ...(filters.myContacts ? { myContacts: true } : {}),
        ...(filters.agents.length ? { agents: filters.agents } : {}),
        ...(filters.departments.length ? { departments: filters.departments } : {}),
        ...(filters.tags.length ? { tags: filters.tags } : {}),
        ...(filters.channels.length ? { channels: filters.channels } : {}),
      };
      try {
        const res = await api.request<RoomSearchAnswer>('/api/mongodb/search', { method: 'POST', body });
        if (run !== seq.current) return;
        roomActions.setList(stores.rooms, SEARCH_LIST_KEY, res.body.rooms, { total: res.body.meta.count });
      } catch {
        if (run === seq.current) roomActions.setList(stores.rooms, SEARCH_LIST_KEY, []);
      }
      if (run === seq.current) onStateRef.current({ active: true, searching: false });
    }, LIMITS.searchDebounceMs);
    return () => clearTimeout(timer);
  }, [term.text, term.error, filters.nps, filters.dates, filters.myContacts, filters.agents, filters.departments, filters.tags, filters.channels, tab, npsMin, npsMax, api, stores]);

  return (
    <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.5 }}>
      <TextField
        size="small"
        fullWidth
        placeholder="Buscar"
        value={filters.text}
        onChange={(e) => setFilters((f) => ({ ...f, text: e.target.value }))}
        error={Boolean(term.error)}
        helperText={term.error ?? undefined}
        slotProps={{
          input: { startAdornment: <InputAdornment position="start"><SearchIcon fontSize="small" /></InputAdornment> },
          htmlInput: { 'aria-label': 'Buscar chats' }
        }} />
      <Tooltip title="Filtros">
        <IconButton aria-label="Filtros" onClick={(e) => setAnchor(e.currentTarget)}><FilterListIcon /></IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        <Box sx={{ px: 2, py: 1, width: 280 }}>
          {tab === 'chatsHistories' && (
            <Box sx={{ display: 'flex', gap: 1, mb: 1 }}>
              <TextField type="date" size="small" label="De" value={filters.dates?.[0] ?? ''} onChange={(e) => setFilters((f) => ({ ...f, dates: e.target.value ? [e.target.value, f.dates?.[1] ?? e.target.value] : null }))} slotProps={{
                inputLabel: { shrink: true }
              }} />
              <TextField type="date" size="small" label="Até" value={filters.dates?.[1] ?? ''} onChange={(e) => setFilters((f) => ({ ...f, dates: e.target.value ? [f.dates?.[0] ?? e.target.value, e.target.value] : null }))} slotProps={{
                inputLabel: { shrink: true }
              }} />
            </Box>
          )}
          <MultiFilter label={messages.dashboard.agents} options={agentOptions} value={filters.agents} onChange={(agents) => setFilters((f) => ({ ...f, agents }))} />
          <MultiFilter label={messages.dashboard.departments} options={departmentOptions} value={filters.departments} onChange={(departments) => setFilters((f) => ({ ...f, departments }))} />
          <MultiFilter label={texts.tags.title} options={tagOptions} value={filters.tags} onChange={(tags) => setFilters((f) => ({ ...f, tags }))} />
          <MultiFilter label={texts.filters.channels} options={channelOptions} value={filters.channels} onChange={(channels) => setFilters((f) => ({ ...f, channels }))} />
          {showNps && (
            <>
              <Typography variant="caption">NPS</Typography>
              <Slider
                value={filters.nps}
                min={npsMin}
                max={npsMax}
                step={1}
                marks
                valueLabelDisplay="auto"
                onChange={(_, v) => setFilters((f) => ({ ...f, nps: v as [number, number] }))}
                getAriaLabel={(i) => (i === 0 ? 'NPS mínimo' : 'NPS máximo')}
              />
            </>
          )}
          <Divider sx={{ my: 1 }} />
          <FormControlLabel control={<Switch checked={filters.myContacts} onChange={(e) => setFilters((f) => ({ ...f, myContacts: e.target.checked }))} />} label="Meus contatos" />
        </Box>
      </Menu>
    </Box>
  );
}
