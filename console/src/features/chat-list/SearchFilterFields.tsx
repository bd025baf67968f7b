import { Autocomplete, Box, Divider, FormControlLabel, Slider, Switch, TextField, Typography } from '@mui/material';
import { messages } from '@atendimento/schemas';
import { texts } from '../../ui/texts';
import type { SearchFilterFieldsProps } from './SearchBox';
import type { LiveOption } from './useLiveOptions';

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

/** The search's filter menu (seed 001 §2, §5): dates on 'Histórico', agents, departments, tags, channels, NPS, 'Meus contatos'. */
export function SearchFilterFields({ tab, filters, setFilters, options, nps }: SearchFilterFieldsProps) {
  return (
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
      <MultiFilter label={messages.dashboard.agents} options={options.agents} value={filters.agents} onChange={(agents) => setFilters((f) => ({ ...f, agents }))} />
      <MultiFilter label={messages.dashboard.departments} options={options.departments} value={filters.departments} onChange={(departments) => setFilters((f) => ({ ...f, departments }))} />
      <MultiFilter label={texts.tags.title} options={options.tags} value={filters.tags} onChange={(tags) => setFilters((f) => ({ ...f, tags }))} />
      <MultiFilter label={texts.filters.channels} options={options.channels} value={filters.channels} onChange={(channels) => setFilters((f) => ({ ...f, channels }))} />
      {nps && (
        <>
          <Typography variant="caption">NPS</Typography>
          <Slider
            value={filters.nps}
            min={nps.min}
            max={nps.max}
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
  );
}
