import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import { format, messages } from '@atendimento/schemas';
import { showToast } from '../../ui/toast';
import { CampaignUploadDialog } from './CampaignUploadDialog';
import { CampaignPagination } from './CampaignPagination';
import { dateTime, defaultBackend, progressOf, saveText, type Campaign, type CampaignsBackend } from './campaignsData';

const t = messages.campaigns;

/**
 * Campaigns (/notifications; seed 000 §2): 'Mostrar Notificações Externas' (off: only
 * campaign=true), newest first, the new button disabled (campaigns come from a CSV upload:
 * 'Enviar CSV'), the static CSV template, progress per campaign moving live. A row opens
 * /notifications/{id}.
 */
export function CampaignsPage({ backend = defaultBackend }: { backend?: CampaignsBackend }) {
  const navigate = useNavigate();
  const [external, setExternal] = useState(false);
  const [rows, setRows] = useState<Campaign[] | null>(null);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(0);
  const [perPage, setPerPage] = useState(10);
  const [uploading, setUploading] = useState(false);

  const load = useCallback(async () => {
    const { body } = await backend.request<{ data: Campaign[]; meta: { total: number } }>(`/api/notifications?external=${external}&limit=${perPage}&offset=${page * perPage}`);
    setRows(body.data);
    setTotal(body.meta.total);
  }, [backend, external, page, perPage]);

  useEffect(() => void load().catch(() => setRows([])), [load]);

  // Live: the shown campaigns' counters and states, and new campaigns on the first page.
  useEffect(() => {
    const sub = backend.live.subscribe('notifications', { limit: 20 });
    const off = sub.onUpdate((update) => {
      if (update.kind !== 'changes') return;
      const changed = [...(update.frame.modified ?? []), ...(update.frame.added ?? [])] as unknown as Campaign[];
      setRows((current) => {
        if (!current) return current;
        const byId = new Map(changed.map((c) => [c.id, c]));
        const fresh = changed.filter((c) => !current.some((r) => r.id === c.id));
        if (fresh.length) void load().catch(() => {});
        return current.map((r) => byId.get(r.id) ?? r);
      });
    });
    return () => {
      off();
      sub.close();
    };
  }, [backend, load]);

  async function template() {
    try {
      const { body } = await backend.request<string>('/api/notifications/csvTemplate');
      saveText('modelo-campanha.csv', String(body));
    } catch {
      /* toasted */
    }
  }

  return (
    <Box sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <FormControlLabel control={<Switch checked={external} onChange={(e) => (setExternal(e.target.checked), setPage(0))} />} label={t.showExternal} />
        <Box sx={{ flex: 1 }} />
        <Tooltip title={t.newDisabled}>
          <span><Button disabled>Novo</Button></span>
        </Tooltip>
        <Button onClick={() => void template()}>{t.csvTemplate}</Button>
        <Button variant="contained" onClick={() => setUploading(true)}>{t.upload}</Button>
      </Box>
      {!rows ? <LinearProgress aria-label={messages.table.loading} /> : (
        <Paper variant="outlined">
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{t.colName}</TableCell>
                <TableCell>{t.colCreatedAt}</TableCell>
                <TableCell>{t.colStatus}</TableCell>
                <TableCell sx={{ width: 240 }}>{t.colProgress}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.length === 0 && <TableRow><TableCell colSpan={4}>{messages.table.empty}</TableCell></TableRow>}
              {rows.map((c) => (
                <TableRow key={c.id} hover sx={{ cursor: 'pointer' }} onClick={() => navigate(`/notifications/${c.id}`)}>
                  <TableCell>{c.name}</TableCell>
                  <TableCell>{dateTime(c.lifeControl.createdAt)}</TableCell>
                  <TableCell><Chip size="small" label={c.proccessed ? t.proccessed : c.paused ? t.paused : t.sending} /></TableCell>
                  <TableCell>
                    <LinearProgress variant="determinate" value={progressOf(c.counters)} aria-label={`${t.colProgress} ${c.name}`} />
                    <Box component="span" sx={{ fontSize: 12 }}>{format(t.progress, { done: c.counters.done, total: c.counters.total })}</Box>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <CampaignPagination total={total} page={page} perPage={perPage} onPage={setPage} onPerPage={setPerPage} />
        </Paper>
      )}
      <CampaignUploadDialog
        open={uploading} backend={backend} onClose={() => setUploading(false)}
        onCreated={(campaign) => {
          setUploading(false);
          showToast(t.created, 'success');
          navigate(`/notifications/${campaign.id}`);
        }}
      />
    </Box>
  );
}
