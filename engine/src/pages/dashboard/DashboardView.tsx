import { useMemo } from 'react';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import {
  DASHBOARD_LAST_DAYS, DEFAULT_DASHBOARD_FILTERS, addDays, format, messages, normalizeRange, periodOf,
  type DashboardFilters, type DashboardReport,
} from '@atendimento/schemas';
import { ChartCard, type Download } from './ChartCard';
import { buildCharts, buildKpis, isEmptyReport, type DashboardFlags } from './dashboardCharts';

const text = messages.dashboard;

export interface DashboardViewProps {
  report: DashboardReport | null;
  loading: boolean;
  error: string | null;
  filters: DashboardFilters;
  onFilters: (next: DashboardFilters) => void;
  flags: DashboardFlags;
  /** Local 'YYYY-MM-DD' today (the picker ends yesterday). */
  today: string;
  /** Window narrower than 2400 px (seed 002 §2). */
  small: boolean;
  /**
   * A phone (below MUI's `sm`, 600 px): one chart per row with its legend on top, whatever the
   * columns and legend chosen (kept for wider screens, so their selects are hidden), and the
   * filter bar scrolls away instead of covering half the screen.
   */
  phone?: boolean;
  host: string;
  /** Null hides the export button (exportAdminOnly for a non-admin). */
  onExport: (() => void) | null;
  download?: Download;
}

type Option = { id: string; label: string };

function MultiFilter({ label, options, value, onChange, testId }: { label: string; options: Option[]; value: string[]; onChange: (ids: string[]) => void; testId: string }) {
  const selected = options.filter((o) => value.includes(o.id));
  return (
    <Autocomplete
      multiple
      size="small"
      sx={{ minWidth: 220, maxWidth: 360 }}
      options={options}
      value={selected}
      limitTags={3}
      getLimitTagsText={(more) => format(text.moreChips, { n: more })}
      disableCloseOnSelect
      isOptionEqualToValue={(a, b) => a.id === b.id}
      onChange={(_e, next) => onChange(next.map((o) => o.id))}
      renderValue={(items, getItemProps) => items.map((o, index) => <Chip size="small" label={o.label} {...getItemProps({ index })} key={o.id} />)}
      renderInput={(params) => <TextField {...params} label={label} slotProps={{
        ...params.slotProps,
        htmlInput: { ...params.slotProps.htmlInput, 'data-testid': testId }
      }} />}
    />
  );
}

/**
 * The dashboard screen (seed 002 §2, §4, §9): the fixed filter bar (scrolling on a phone), the
 * KPI row and the grid of charts. Filters: last 7/15/30/60/90 days or a range (≤ 90 days, ending yesterday,
 * reordered if swapped), agents or departments (mutually exclusive), columns 1–4, monthly,
 * bar/line, legend top/right, average, clear filters, export.
 */
export function DashboardView({ report, loading, error, filters, onFilters, flags, today, small, phone = false, host, onExport, download }: DashboardViewProps) {
  const set = (patch: Partial<DashboardFilters>) => onFilters({ ...filters, ...patch });
  const period = report ? { from: report.from, to: report.to } : periodOf(filters, today);
  const charts = useMemo(() => (report ? buildCharts(report, filters, flags) : []), [report, filters, flags]);
  // Agents and departments are exclusive (seed 002 §4): agents chosen means per-agent figures.
  const byAgents = filters.agents.length > 0 && filters.departments.length === 0;
  const kpis = useMemo(() => (report ? buildKpis(report, flags, byAgents) : []), [report, flags, byAgents]);
  const yesterday = addDays(today, -1);
  const agents = (report?.agents ?? []).map((a) => ({ id: a.id, label: a.displayName }));
  const departments = (report?.departments ?? []).map((d) => ({ id: d.id, label: d.displayName }));
  const chartHeight = small ? 280 : 380;
  const columns = phone ? 1 : filters.columns;
  // At the right the legend takes 150 px of a ~330 px phone card: the bars got ~90 px.
  const legend = phone ? 'top' : filters.legend;

  function setRange(from: string, to: string) {
    if (!from || !to) return;
    const range = normalizeRange(from, to, today);
    if (range) set({ range, lastDays: null });
  }

  return (
    <Box sx={{ p: { xs: 0, sm: 2 }, display: 'flex', flexDirection: 'column', gap: 2 }} data-layout={small ? 'small' : 'wide'}>
      <Paper sx={{ p: 1.5, display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center', position: phone ? 'static' : 'sticky', top: 0, zIndex: 2 }} elevation={2} role="toolbar" aria-label={text.title}>
        <TextField
          select
          size="small"
          label={text.period}
          value={filters.lastDays ?? 'range'}
          onChange={(e) => (e.target.value === 'range' ? set({ lastDays: null, range: [addDays(yesterday, -6), yesterday] }) : set({ lastDays: Number(e.target.value), range: null }))}
          sx={{ width: 190 }}
          slotProps={{ htmlInput: { 'data-testid': 'filter-period' } }}
        >
          {DASHBOARD_LAST_DAYS.map((n) => (
            <MenuItem key={n} value={n}>
              {format(text.lastDays, { n })}
            </MenuItem>
          ))}
          <MenuItem value="range">{text.range}</MenuItem>
        </TextField>
        {filters.range ? (
          <>
            <TextField size="small" type="date" label="De" value={filters.range[0]} onChange={(e) => setRange(e.target.value, filters.range![1])} slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: yesterday, 'data-testid': 'range-from' } }} />
            <TextField size="small" type="date" label="Até" value={filters.range[1]} onChange={(e) => setRange(filters.range![0], e.target.value)} slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: yesterday, 'data-testid': 'range-to' } }} />
          </>
        ) : null}
        <MultiFilter label={text.agents} options={agents} value={filters.agents} onChange={(ids) => set({ agents: ids, departments: [] })} testId="filter-agents" />
        <MultiFilter label={text.departments} options={departments} value={filters.departments} onChange={(ids) => set({ departments: ids, agents: [] })} testId="filter-departments" />
        {phone ? null : (
          <TextField select size="small" label={text.columns} value={filters.columns} onChange={(e) => set({ columns: Number(e.target.value) as DashboardFilters['columns'] })} sx={{ width: 100, flex: '0 0 auto' }}>
            {[1, 2, 3, 4].map((n) => (
              <MenuItem key={n} value={n}>
                {n}
              </MenuItem>
            ))}
          </TextField>
        )}
        <FormControlLabel control={<Switch checked={filters.monthly} onChange={(e) => set({ monthly: e.target.checked })} />} label={text.monthly} />
        <FormControlLabel control={<Switch checked={filters.average} onChange={(e) => set({ average: e.target.checked })} />} label={text.average} />
        <ToggleButtonGroup size="small" exclusive value={filters.chartType} onChange={(_e, v) => v && set({ chartType: v })} aria-label={text.chartType}>
          <ToggleButton value="bar">{text.bar}</ToggleButton>
          <ToggleButton value="line">{text.line}</ToggleButton>
        </ToggleButtonGroup>
        {phone ? null : (
          <ToggleButtonGroup size="small" exclusive value={filters.legend} onChange={(_e, v) => v && set({ legend: v })} aria-label={text.legend}>
            <ToggleButton value="top">{text.legendTop}</ToggleButton>
            <ToggleButton value="right">{text.legendRight}</ToggleButton>
          </ToggleButtonGroup>
        )}
        <Button onClick={() => onFilters({ ...DEFAULT_DASHBOARD_FILTERS })}>{text.clearFilters}</Button>
        {onExport ? (
          <Button variant="contained" onClick={onExport}>
            {text.exportData}
          </Button>
        ) : null}
      </Paper>

      {error ? <Alert severity="error">{`${text.failed} ${error}`}</Alert> : null}
      {loading ? (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, p: 2 }} role="status">
          <CircularProgress size={22} />
          <Typography>{text.loading}</Typography>
        </Box>
      ) : null}

      {report ? (
        <>
          <Box sx={{ display: 'grid', gridTemplateColumns: `repeat(auto-fit, minmax(${small ? 150 : 200}px, 1fr))`, gap: 1.5 }} aria-label="KPIs">
            {kpis.map((k) => (
              <Paper key={k.id} variant="outlined" sx={{ p: 1.5 }} data-kpi={k.id}>
                <Typography variant="body2" color="text.secondary">
                  {k.label}
                </Typography>
                <Typography variant="h5" component="p" sx={{ fontWeight: 700 }} data-kpi-value={k.id}>
                  {k.value}
                </Typography>
                {k.breakdown ? (
                  <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mt: 0.5 }}>
                    {k.breakdown.map((b) => (
                      <Box key={b.label} component="span" sx={{ color: b.color, fontSize: 12, fontWeight: 600 }} data-color={b.color}>
                        {`${b.label}: ${b.count}`}
                      </Box>
                    ))}
                  </Box>
                ) : null}
              </Paper>
            ))}
          </Box>
          {isEmptyReport(report) && !loading ? <Alert severity="info">{text.empty}</Alert> : null}
          <Box sx={{ display: 'grid', gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`, gap: 1.5 }} data-columns={columns}>
            {charts.map((chart) => (
              <ChartCard key={chart.id} chart={chart} chartType={filters.chartType} legend={legend} height={chartHeight} period={period} host={host} download={download} />
            ))}
          </Box>
        </>
      ) : null}
    </Box>
  );
}
