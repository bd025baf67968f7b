import { useEffect, useMemo, useState } from 'react';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import {
  calendarDay, DASHBOARD_NARROW_BELOW_PX, DEFAULT_DASHBOARD_FILTERS, format, isAdmin, messages,
  type DashboardFilters, type DashboardReport,
} from '@atendimento/schemas';
import { api } from '../../api/api';
import { useSessionUser } from '../../api/useSessionUser';
import { useAppConfig } from '../../boot/AppConfigContext';
import { showToast } from '../../ui/toast';
import { DashboardView } from './DashboardView';
import { ExportDialog, type ExportRequest } from './ExportDialog';
import { ExportProgress } from './ExportProgress';
import type { DashboardFlags } from './dashboardCharts';

/** The query of `GET /api/dashboard/reports` for a filter set. */
export function reportQuery(filters: DashboardFilters): string {
  const q = new URLSearchParams();
  if (filters.range) {
    q.set('from', filters.range[0]);
    q.set('to', filters.range[1]);
  } else q.set('days', String(filters.lastDays ?? 7));
  if (filters.departments.length) q.set('departments', filters.departments.join(','));
  else if (filters.agents.length) q.set('agents', filters.agents.join(','));
  return q.toString();
}

function useSmallLayout(): boolean {
  const read = () => (typeof window === 'undefined' ? false : window.innerWidth < DASHBOARD_NARROW_BELOW_PX);
  const [small, setSmall] = useState(read);
  useEffect(() => {
    const onResize = () => setSmall(read());
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return small;
}

/**
 * /dashboard (seed 002 §2): loads the period's reports from the server (pre-aggregated, scoped
 * to the caller's departments) whenever the period or the agent/department filter changes;
 * the other filters only re-draw. The export request goes in the background and the file
 * arrives by e-mail.
 */
export function DashboardPage() {
  const user = useSessionUser();
  const config = useAppConfig();
  const [filters, setFilters] = useState<DashboardFilters>({ ...DEFAULT_DASHBOARD_FILTERS });
  const [report, setReport] = useState<DashboardReport | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const [exportJob, setExportJob] = useState<string | null>(null);
  const small = useSmallLayout();
  const phone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const today = calendarDay(new Date(), config.timeZone);
  const query = reportQuery(filters);
  const claims = config.claims ?? {};
  const flags: DashboardFlags = useMemo(
    () => ({
      askResearch: Boolean(claims.askResearch),
      askResearchCsat: Boolean(claims.askResearchCsat),
      likertScale5: Boolean(claims.likertScale5),
      likertScale10: Boolean(claims.likertScale10),
      flowCharts: Boolean(claims.flowCharts),
      flowResultCharts: Boolean(claims.flowResultCharts),
      flowExpectedResult: Boolean(claims.flowExpectedResult),
      flowResultsPerFlow: Boolean(claims.flowResultsPerFlow),
    }),
    [claims.askResearch, claims.askResearchCsat, claims.likertScale5, claims.likertScale10, claims.flowCharts, claims.flowResultCharts, claims.flowExpectedResult, claims.flowResultsPerFlow],
  );

  useEffect(() => {
    const abort = new AbortController();
    setLoading(true);
    setError(null);
    api<{ data: DashboardReport }>(`/api/dashboard/reports?${query}`, { signal: abort.signal, notify: false })
      .then((body) => setReport(body.data))
      .catch((err: Error) => {
        if (!abort.signal.aborted) setError(err.message);
      })
      .finally(() => {
        if (!abort.signal.aborted) setLoading(false);
      });
    return () => abort.abort();
  }, [query]);

  async function requestExport(request: ExportRequest) {
    const body = await api<{ data: { id: string } }>('/api/dashboard/export', { method: 'POST', body: request });
    showToast(format(messages.dashboard.exportNotice, { email: user?.email ?? '' }), 'success');
    setExportJob(body.data.id);
  }

  const canExport = !claims.exportAdminOnly || (user ? isAdmin(user) : false);
  return (
    <>
      {exportJob && <ExportProgress key={exportJob} jobId={exportJob} email={user?.email ?? ''} onClose={() => setExportJob(null)} />}
      <DashboardView
        report={report}
        loading={loading}
        error={error}
        filters={filters}
        onFilters={setFilters}
        flags={flags}
        today={today}
        small={small}
        phone={phone}
        host={window.location.host}
        onExport={canExport ? () => setExporting(true) : null}
      />
      <ExportDialog
        open={exporting}
        email={user?.email ?? ''}
        today={today}
        askResearch={flags.askResearch}
        askResearchCsat={flags.askResearchCsat}
        onSubmit={requestExport}
        onClose={() => setExporting(false)}
      />
    </>
  );
}
