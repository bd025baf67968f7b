import { Suspense, useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { Box, CircularProgress, IconButton, InputAdornment } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import FilterListIcon from '@mui/icons-material/FilterList';
import { hasTenantClaim, maySeeResearch, type RoomSearchAnswer, type RoomSearchInput, type RoomTabId } from '@atendimento/schemas';
import { useConsole } from '../../ConsoleContext';
import { roomActions } from '../../store/consoleStores';
import { LIMITS } from '../../ui/constants';
import { Hint } from '../../ui/Hint';
import { LazyMenu } from '../../ui/LazyOverlay';
import { TextInput } from '../../ui/TextInput';
import { normalizeSearch } from './searchTerm';
import { useLiveOptions, type LiveOption } from './useLiveOptions';
import { lazyNamed } from '../../ui/lazyNamed';

// The filter menu's fields (autocompletes, the NPS slider) load on the first 'Filtros': they are
// most of Material UI's weight in the console's first screen (docs/bench.md B10b).
const SearchFilterFields = lazyNamed(() => import('./SearchFilterFields'), 'SearchFilterFields');

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

/** What the filter menu's fields take (SearchFilterFields.tsx). */
export interface SearchFilterFieldsProps {
  tab: RoomTabId | 'contacts';
  filters: SearchFilters;
  setFilters: Dispatch<SetStateAction<SearchFilters>>;
  options: Record<'agents' | 'departments' | 'tags' | 'channels', LiveOption[]>;
  /** The NPS range, for who reads the answers; null hides it. */
  nps: { min: number; max: number } | null;
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
  const activeFilters = [filters.nps[0] !== npsMin || filters.nps[1] !== npsMax, filters.dates !== null, filters.myContacts, filters.agents.length > 0, filters.departments.length > 0, filters.tags.length > 0, filters.channels.length > 0].filter(Boolean).length;
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
      <TextInput
        fullWidth
        placeholder="Buscar"
        value={filters.text}
        onChange={(e) => setFilters((f) => ({ ...f, text: e.target.value }))}
        error={Boolean(term.error)}
        helperText={term.error ?? undefined}
        startAdornment={<InputAdornment position="start"><SearchIcon fontSize="small" /></InputAdornment>}
        inputProps={{ 'aria-label': 'Buscar chats' }}
      />
      <Hint title={activeFilters ? `Filtros (${activeFilters} ${activeFilters === 1 ? 'ativo' : 'ativos'})` : 'Filtros'}>
        {/* A filter left on narrows the list: the button says how many, so a short list is not a mystery. */}
        <IconButton aria-label="Filtros" aria-describedby={activeFilters ? 'chat-filters-active' : undefined} color={activeFilters ? 'primary' : 'default'} onClick={(e) => setAnchor(e.currentTarget)} sx={{ position: 'relative' }}>
          <FilterListIcon />
          {activeFilters > 0 && (
            <Box component="span" id="chat-filters-active" data-active-filters={activeFilters} sx={{ position: 'absolute', top: 2, right: 2, minWidth: 16, height: 16, px: 0.5, borderRadius: 8, bgcolor: 'primary.main', color: 'primary.contrastText', fontSize: 10, lineHeight: '16px', textAlign: 'center' }}>
              {activeFilters}
            </Box>
          )}
        </IconButton>
      </Hint>
      <LazyMenu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        <Suspense fallback={<Box sx={{ px: 2, py: 1, width: 280, display: 'flex', justifyContent: 'center' }}><CircularProgress size={24} /></Box>}>
          {anchor && (
            <SearchFilterFields
              tab={tab}
              filters={filters}
              setFilters={setFilters}
              options={{ agents: agentOptions, departments: departmentOptions, tags: tagOptions, channels: channelOptions }}
              nps={showNps ? { min: npsMin, max: npsMax } : null}
            />
          )}
        </Suspense>
      </LazyMenu>
    </Box>
  );
}
