import { useEffect, useState } from 'react';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { format, messages } from '@atendimento/schemas';
import { useConsole } from '../../ConsoleContext';

/** What the report buttons need of GET /api/integration-definitions (the caller's integrations). */
export interface ReportIntegration {
  collection: string;
  name: string;
  listTitle: string | null;
  report?: boolean;
  view: {
    schema?: { properties?: Record<string, { title?: string }> };
    list: { titleField: string; columns?: { field: string; label?: string }[] };
  };
}

/** Rows per page of the report table. */
export const REPORT_PAGE = 10;

const cell = (value: unknown) => (value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));
const titleOf = (integration: ReportIntegration) => integration.listTitle || integration.name;

/**
 * The contact drawer's report buttons (seed 001): one "Rel. {title}" per integration flagged
 * `report` that the caller may use (the server filters GET /api/integration-definitions).
 */
export function IntegrationReports() {
  const { api } = useConsole();
  const [reports, setReports] = useState<ReportIntegration[]>([]);
  const [open, setOpen] = useState<ReportIntegration | null>(null);
  useEffect(() => {
    let live = true;
    api
      .request<{ data: ReportIntegration[] }>('/api/integration-definitions', { notify: false })
      .then(({ body }) => live && setReports(Array.isArray(body?.data) ? body.data.filter((i) => i.report === true) : []))
      .catch(() => live && setReports([]));
    return () => {
      live = false;
    };
  }, [api]);
  if (reports.length === 0) return null;
  return (
    <Box sx={{ mt: 1, display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
      {reports.map((integration) => (
        <Button key={integration.collection} size="small" variant="outlined" onClick={() => setOpen(integration)}>
          {format(messages.contact.report, { title: titleOf(integration) })}
        </Button>
      ))}
      {open && <IntegrationReportDialog integration={open} onClose={() => setOpen(null)} />}
    </Box>
  );
}

/**
 * A report integration's records in a table: GET /api/integration/{collection} with the search
 * box as `filter={"q":…}` and pages by `range` (one row more than a page tells whether a next
 * page exists: the console's API gives bodies, not the Content-Range total), and 'Fechar'.
 */
function IntegrationReportDialog({ integration, onClose }: { integration: ReportIntegration; onClose: () => void }) {
  const { api } = useConsole();
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(0);
  const [rows, setRows] = useState<Record<string, unknown>[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const properties = integration.view.schema?.properties ?? {};
  const listed = integration.view.list.columns?.length ? integration.view.list.columns : [{ field: integration.view.list.titleField }];
  const columns = listed.map((c) => ({ field: c.field, label: c.label ?? properties[c.field]?.title ?? c.field }));

  // Only a changed search goes back to the first page: a timer armed on open (search '' = query '')
  // would reset a 'Próxima' clicked within its 300 ms.
  useEffect(() => {
    if (search.trim() === query) return;
    const timer = setTimeout(() => {
      setQuery(search.trim());
      setPage(0);
    }, 300);
    return () => clearTimeout(timer);
  }, [search, query]);

  useEffect(() => {
    let live = true;
    setRows(null);
    setError(null);
    const params = new URLSearchParams({ range: JSON.stringify([page * REPORT_PAGE, page * REPORT_PAGE + REPORT_PAGE]) });
    if (query) params.set('filter', JSON.stringify({ q: query }));
    api
      .request<Record<string, unknown>[]>(`/api/integration/${encodeURIComponent(integration.collection)}?${params}`, { notify: false })
      .then(({ body }) => live && setRows(Array.isArray(body) ? body : []))
      .catch((e: Error) => {
        if (!live) return;
        setError(e.message || messages.table.erpSearchFailed);
        setRows([]);
      });
    return () => {
      live = false;
    };
  }, [api, integration.collection, page, query]);

  const title = format(messages.contact.report, { title: titleOf(integration) });
  const shownRows = rows?.slice(0, REPORT_PAGE) ?? [];
  const hasNext = (rows?.length ?? 0) > REPORT_PAGE;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="integration-report-title">
      <DialogTitle id="integration-report-title">{title}</DialogTitle>
      <DialogContent>
        <TextField size="small" fullWidth label={messages.registers.search} value={search} onChange={(e) => setSearch(e.target.value)} sx={{ mt: 1, mb: 1 }} />
        {rows === null && <Typography color="text.secondary">{messages.table.loading}</Typography>}
        {error && <Typography color="error">{error}</Typography>}
        {rows !== null && !error && shownRows.length === 0 && <Typography color="text.secondary">{messages.table.noRecords}</Typography>}
        {shownRows.length > 0 && (
          <Table size="small">
            <TableHead>
              <TableRow>
                {columns.map((c) => (
                  <TableCell key={c.field}>{c.label}</TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {shownRows.map((row, index) => (
                <TableRow key={cell(row.id) || index}>
                  {columns.map((c) => (
                    <TableCell key={c.field}>{cell(row[c.field])}</TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </DialogContent>
      <DialogActions>
        <Button disabled={page === 0} onClick={() => setPage((p) => p - 1)}>
          {messages.registers.previous}
        </Button>
        <Typography variant="body2" aria-live="polite">
          {page + 1}
        </Typography>
        <Button disabled={!hasNext} onClick={() => setPage((p) => p + 1)}>
          {messages.registers.next}
        </Button>
        <Box sx={{ flex: 1 }} />
        <Button onClick={onClose}>{messages.registers.close}</Button>
      </DialogActions>
    </Dialog>
  );
}
