import { useCallback, useEffect, useState } from 'react';
import { useParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { format, messages } from '@atendimento/schemas';
import { showToast } from '../../ui/toast';
import { CampaignPagination } from './CampaignPagination';
import { dateTime, defaultBackend, progressOf, saveText, type Campaign, type CampaignMessageRow, type CampaignsBackend } from './campaignsData';

const t = messages.campaigns;
const CARDS = ['sent', 'delivered', 'read', 'interacted', 'clicked', 'error'] as const;
const FILTERS = ['read', 'delivered', 'sent', 'error', 'notSent', 'interacted', 'clicked'] as const;
const FILTER_LABEL: Record<(typeof FILTERS)[number], string> = {
  read: t.statusRead, delivered: t.statusDelivered, sent: t.statusSent, error: t.error, notSent: t.statusNotSent, interacted: t.interacted, clicked: t.clicked,
};

/**
 * Campaign detail (/notifications/{id}; seed 000 §2 "Campaign detail", §4): metric cards and a
 * progress bar that move live (the `notifications` collection on /ws), the message table with
 * the seed's status texts, filters, export, and pause/unpause while the campaign is not
 * proccessed.
 */
export function CampaignDetailPage({ backend = defaultBackend }: { backend?: CampaignsBackend }) {
  const { id = '' } = useParams();
  const [campaign, setCampaign] = useState<Campaign | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [rows, setRows] = useState<CampaignMessageRow[]>([]);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(0);
  const [perPage, setPerPage] = useState(10);
  const [status, setStatus] = useState('');
  const [q, setQ] = useState('');
  const [busy, setBusy] = useState(false);

  const query = useCallback((extra: Record<string, string> = {}) => {
    const params = new URLSearchParams({ ...(status && { status }), ...(q.trim() && { q: q.trim() }), ...extra });
    return params.toString();
  }, [status, q]);

  const loadRows = useCallback(async () => {
    const { body } = await backend.request<{ data: CampaignMessageRow[]; meta: { total: number } }>(`/api/notifications/${id}/messages?${query({ limit: String(perPage), offset: String(page * perPage) })}`);
    setRows(body.data);
    setTotal(body.meta.total);
  }, [backend, id, page, perPage, query]);

  useEffect(() => {
    backend.request<{ data: Campaign }>(`/api/notifications/${id}`, { notify: false }).then(({ body }) => setCampaign(body.data), (e: Error) => setFailed(e.message));
  }, [backend, id]);

  // Counters (and the state) live; the table follows them, at most every 2 s while sending.
  useEffect(() => {
    const sub = backend.live.subscribe('notifications', { filter: { field: 'id', op: '==', value: id } });
    const off = sub.onUpdate((update) => {
      const record = update.records.find((r) => r.id === id) as unknown as Campaign | undefined;
      if (record) setCampaign(record);
    });
    return () => {
      off();
      sub.close();
    };
  }, [backend, id]);

  const done = campaign?.counters.done ?? 0;
  const statusKey = campaign ? `${campaign.counters.sent}:${campaign.counters.delivered}:${campaign.counters.read}:${campaign.counters.error}:${campaign.counters.interacted}` : '';
  useEffect(() => {
    if (!campaign) return;
    const timer = setTimeout(() => void loadRows().catch(() => {}), rows.length ? 500 : 0);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loadRows, Boolean(campaign), done, statusKey]);

  async function setPaused(paused: boolean) {
    if (!campaign) return;
    setBusy(true);
    try {
      // Seed 000 §7: the whole campaign without startDate and endDate; the server takes `paused`.
      const { startDate: _s, endDate: _e, counters: _c, ...rest } = campaign;
      const { body } = await backend.request<{ data: Campaign }>(`/api/notifications/${id}`, { method: 'PATCH', body: { ...rest, paused } });
      setCampaign(body.data);
    } catch {
      /* the API client toasted the server's message */
    } finally {
      setBusy(false);
    }
  }

  async function exportTable() {
    try {
      const { body } = await backend.request<string>(`/api/notifications/${id}/messages.csv?${query()}`);
      saveText(`campanha-${campaign?.name ?? id}.csv`, String(body));
      showToast(messages.table.exportRequested, 'success');
    } catch {
      /* toasted */
    }
  }

  if (failed) return <Alert severity="error" sx={{ m: 2 }}>{failed}</Alert>;
  if (!campaign) return <LinearProgress aria-label={messages.table.loading} />;
  const c = campaign.counters;
  const percent = progressOf(c);
  const state = campaign.proccessed ? t.proccessed : campaign.paused ? t.paused : t.sending;

  return (
    <Box sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="h6" component="h1">{campaign.name}</Typography>
        <Chip size="small" label={state} color={campaign.proccessed ? 'success' : campaign.paused ? 'warning' : 'info'} />
        <Typography variant="body2" color="text.secondary">{dateTime(campaign.lifeControl.createdAt)}</Typography>
        <Box sx={{ flex: 1 }} />
        {!campaign.proccessed && (campaign.paused
          ? <Button variant="contained" disabled={busy} onClick={() => void setPaused(false)}>{t.unpause}</Button>
          : <Button variant="outlined" color="warning" disabled={busy} onClick={() => void setPaused(true)}>{t.pause}</Button>)}
      </Box>
      {campaign.description && <Typography variant="body2">{campaign.description}</Typography>}
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(140px, 1fr))', gap: 1 }}>
        {CARDS.map((key) => (
          <Card key={key} variant="outlined" data-testid={`card-${key}`}>
            <CardContent sx={{ py: 1.5, '&:last-child': { pb: 1.5 } }}>
              <Typography variant="body2" color="text.secondary">{t[key]}</Typography>
              <Typography variant="h5" component="p" aria-label={t[key]}>{c[key]}</Typography>
            </CardContent>
          </Card>
        ))}
      </Box>
      <Box>
        <LinearProgress variant="determinate" value={percent} aria-label={t.colProgress} />
        <Typography variant="caption">{format(t.progress, { done: c.done, total: c.total })} ({percent}%)</Typography>
      </Box>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
        <TextField select size="small" label={t.filterStatus} value={status} onChange={(e) => (setStatus(e.target.value), setPage(0))} sx={{ minWidth: 160 }}>
          <MenuItem value="">{t.all}</MenuItem>
          {FILTERS.map((f) => <MenuItem key={f} value={f}>{FILTER_LABEL[f]}</MenuItem>)}
        </TextField>
        <TextField size="small" label={t.filterSearch} value={q} onChange={(e) => (setQ(e.target.value), setPage(0))} />
        <Box sx={{ flex: 1 }} />
        <Button onClick={() => void exportTable()}>{t.export}</Button>
      </Box>
      <Paper variant="outlined">
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{t.colDisplayName}</TableCell>
              <TableCell>{t.colChatId}</TableCell>
              <TableCell>{t.colStatus}</TableCell>
              <TableCell>{t.colAnswer}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.length === 0 && (
              <TableRow><TableCell colSpan={4}>{messages.table.empty}</TableCell></TableRow>
            )}
            {rows.map((m) => (
              <TableRow key={m.id}>
                <TableCell>{m.displayName ?? '—'}</TableCell>
                <TableCell>{m.chatId}</TableCell>
                <TableCell>{m.statusText}</TableCell>
                <TableCell>{m.answer ?? ''}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        <CampaignPagination total={total} page={page} perPage={perPage} onPage={setPage} onPerPage={setPerPage} />
      </Paper>
    </Box>
  );
}
