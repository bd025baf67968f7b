import { useEffect, useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { format, messages } from '@atendimento/schemas';
import { compareTemplates } from '@atendimento/schemas/chat/whatsapp';
import { CAMPAIGN_CSV_SEPARATOR, templateParamCount } from '@atendimento/schemas/campaigns';
import { ApiError } from '../../api/api';
import { saveText, type Campaign, type CampaignPreview, type CampaignsBackend } from './campaignsData';

const t = messages.campaigns;
/** The preview shows the first rows as they will be sent (the server answers up to 20). */
const SAMPLES_SHOWN = 5;

/** The file's text (FileReader: also where Blob.text is missing). */
function readText(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });
}

interface TemplateOption {
  channelId: string;
  name: string;
  language: string;
  params: number;
  text: string;
}

const FIELDS = ['name', 'tag', 'defaultReply', 'description', 'startDate', 'endDate', 'startAt', 'endAt'] as const;
const LABELS: Record<(typeof FIELDS)[number], string> = {
  name: 'Nome', tag: 'Etiqueta', defaultReply: 'Resposta padrão', description: 'Descrição', startDate: 'Data inicial (AAAA-MM-DD)', endDate: 'Data final (AAAA-MM-DD)', startAt: 'Hora inicial (HH:MM)', endAt: 'Hora final (HH:MM)',
};

/**
 * New campaign by CSV upload (seed 000 §2: the new button is disabled, campaigns come from a
 * file; docs/campaigns.md): name, channel, an approved template with a CSV column for each
 * parameter, reply, tag, window; 'Pré-visualização' checks every row on the server and shows
 * the valid count and the rejected rows (downloadable with their reasons). A file with rejected
 * rows is created only after the user ticks 'Criar campanha só com as linhas válidas'.
 */
export function CampaignUploadDialog({ open, onClose, onCreated, backend }: { open: boolean; onClose(): void; onCreated(campaign: Campaign): void; backend: CampaignsBackend }) {
  const [channels, setChannels] = useState<{ id: string; label: string }[]>([]);
  const [flows, setFlows] = useState<{ id: string; name: string }[]>([]);
  const [flow, setFlow] = useState('');
  const [templates, setTemplates] = useState<TemplateOption[]>([]);
  const [values, setValues] = useState<Record<string, string>>({});
  const [channelId, setChannelId] = useState('');
  const [template, setTemplate] = useState('');
  const [params, setParams] = useState<string[]>([]);
  const [file, setFile] = useState<File | null>(null);
  const [columns, setColumns] = useState<string[]>([]);
  const [comercialTime, setComercialTime] = useState(false);
  const [weekEnd, setWeekEnd] = useState(true);
  const [preview, setPreview] = useState<CampaignPreview | null>(null);
  const [confirmValid, setConfirmValid] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    void (async () => {
      const { body } = await backend.request<{ data: { channels: { id: string; displayName: string }[]; templates: { channelId: string; name: string; language: string; components: unknown[] }[]; flows?: { id: string; name: string }[] } }>('/api/notifications/options', { notify: false })
        .catch(() => ({ body: { data: { channels: [], templates: [], flows: [] } } }));
      setFlows(body.data.flows ?? []);
      setTemplates(body.data.templates.map((tpl) => {
        const text = (tpl.components as { type?: string; text?: string }[]).find((c) => c.type === 'BODY')?.text ?? '';
        return { channelId: tpl.channelId, name: tpl.name, language: tpl.language, params: templateParamCount(tpl.components), text };
      }));
      setChannels(body.data.channels.map((c) => ({ id: c.id, label: c.displayName })));
    })();
  }, [open, backend]);

  const offered = useMemo(() => templates.filter((o) => o.channelId === channelId).sort(compareTemplates), [templates, channelId]);
  const chosen = offered.find((o) => `${o.name}|${o.language}` === template) ?? null;
  useEffect(() => setParams((p) => Array.from({ length: chosen?.params ?? 0 }, (_, i) => p[i] ?? '')), [chosen?.params]);

  async function chooseFile(next: File | null) {
    setFile(next);
    setPreview(null);
    setConfirmValid(false);
    const head = next ? (await readText(next.slice(0, 64 * 1024))).split(/\r?\n/)[0] ?? '' : '';
    // A spreadsheet (.xlsx is a zip: 'PK…') or any binary read as text: said at once, not offered
    // as a column named 'PK\x03\x04' until the preview refuses it.
    const binary = head.startsWith('PK') || /[\u0000-\u0008\uFFFD]/.test(head);
    setFieldErrors(({ file: _previous, ...rest }) => (binary ? { ...rest, file: t.fileUnreadable } : rest));
    setColumns(binary ? [] : head.replace(/^\uFEFF/, '').split(CAMPAIGN_CSV_SEPARATOR).map((c) => c.trim()).filter(Boolean));
  }

  function form(withConfirm: boolean): FormData {
    const body = new FormData();
    for (const key of FIELDS) if (values[key]?.trim()) body.set(key, values[key]!.trim());
    body.set('channelId', channelId);
    if (flow) body.set('flow', flow);
    if (chosen) body.set('template', JSON.stringify({ name: chosen.name, language: chosen.language, params }));
    body.set('comercialTime', String(comercialTime));
    body.set('weekEnd', String(weekEnd));
    if (withConfirm) body.set('confirmValid', 'true');
    if (file) body.set('file', file, file.name);
    return body;
  }

  function failed(e: unknown) {
    if (e instanceof ApiError) {
      setError(e.message);
      // 'template.params.N' belongs to the parameter's own field; any other path to its top field.
      setFieldErrors(Object.fromEntries(e.fields.map((f) => [/^template\.params\.\d+$/.test(f.field) ? f.field : f.field.split('.')[0]!, f.message])));
      const data = (e.body as { data?: CampaignPreview })?.data;
      if (data && typeof data.validCount === 'number') setPreview(data);
    } else setError(String(e));
  }

  async function run(kind: 'preview' | 'create') {
    setBusy(true);
    setError(null);
    setFieldErrors({});
    try {
      if (kind === 'preview') {
        const { body } = await backend.request<{ data: CampaignPreview }>('/api/notifications/preview', { method: 'POST', body: form(false), notify: false });
        setPreview(body.data);
      } else {
        const { body } = await backend.request<{ data: Campaign }>('/api/notifications', { method: 'POST', body: form(confirmValid), notify: false });
        onCreated(body.data);
      }
    } catch (e) {
      failed(e);
    } finally {
      setBusy(false);
    }
  }

  const set = (key: string) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: e.target.value }));
  const mustConfirm = Boolean(preview && preview.rejectedCount > 0);

  return (
    <Dialog open={open} onClose={onClose} maxWidth="md" fullWidth aria-labelledby="campaign-upload-title">
      <DialogTitle id="campaign-upload-title">{t.upload}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 1.5, pt: '8px !important' }}>
        <TextField label={LABELS.name} value={values.name ?? ''} onChange={set('name')} required size="small" error={Boolean(fieldErrors.name)} helperText={fieldErrors.name} />
        <TextField select label="Canal" value={channelId} onChange={(e) => (setChannelId(e.target.value), setTemplate(''))} required size="small" error={Boolean(fieldErrors.channelId)} helperText={fieldErrors.channelId}>
          {channels.map((c) => <MenuItem key={c.id} value={c.id}>{c.label}</MenuItem>)}
        </TextField>
        <TextField select label="Template" value={template} onChange={(e) => setTemplate(e.target.value)} required size="small" disabled={!channelId} error={Boolean(fieldErrors.template)} helperText={fieldErrors.template ?? chosen?.text}>
          {offered.map((o) => <MenuItem key={`${o.name}|${o.language}`} value={`${o.name}|${o.language}`}>{`${o.name} (${o.language})`}</MenuItem>)}
        </TextField>
        <Button variant="outlined" component="label">
          {file ? file.name : 'Arquivo CSV'}
          <input hidden type="file" accept=".csv,text/csv" aria-label="Arquivo CSV" onChange={(e) => void chooseFile(e.target.files?.[0] ?? null)} />
        </Button>
        {fieldErrors.file && <Typography color="error" variant="caption">{fieldErrors.file}</Typography>}
        {params.map((value, i) => (
          <TextField key={i} select size="small" label={`Parâmetro {{${i + 1}}}`} value={value} onChange={(e) => setParams((p) => p.map((x, j) => (j === i ? e.target.value : x)))} error={Boolean(fieldErrors[`template.params.${i}`])} helperText={fieldErrors[`template.params.${i}`]}>
            {columns.map((c) => <MenuItem key={c} value={c}>{c}</MenuItem>)}
          </TextField>
        ))}
        <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 1 }}>
          {(['tag', 'defaultReply', 'startDate', 'endDate', 'startAt', 'endAt'] as const).map((key) => (
            <TextField key={key} size="small" label={LABELS[key]} value={values[key] ?? ''} onChange={set(key)} error={Boolean(fieldErrors[key])} helperText={fieldErrors[key]} />
          ))}
        </Box>
        {flows.length > 0 && (
          <TextField select size="small" label="Fluxo" value={flow} onChange={(e) => setFlow(e.target.value)} error={Boolean(fieldErrors.flow)} helperText={fieldErrors.flow ?? 'Quem responder vai para o bot com este fluxo.'}>
            <MenuItem value="">Nenhum</MenuItem>
            {flows.map((f) => <MenuItem key={f.id} value={f.id}>{f.name}</MenuItem>)}
          </TextField>
        )}
        <TextField size="small" label={LABELS.description} value={values.description ?? ''} onChange={set('description')} multiline />
        <Box>
          <FormControlLabel control={<Switch checked={comercialTime} onChange={(e) => setComercialTime(e.target.checked)} />} label="Horário comercial" />
          <FormControlLabel control={<Switch checked={weekEnd} onChange={(e) => setWeekEnd(e.target.checked)} />} label="Enviar no fim de semana" />
        </Box>
        {error && <Alert severity="error">{error}</Alert>}
        {preview && (
          <Box data-testid="campaign-preview">
            <Typography variant="subtitle1">{t.preview}</Typography>
            <Typography>{preview.validCount === 1 ? t.validRow : format(t.validRows, { n: preview.validCount })}</Typography>
            <Typography color={preview.rejectedCount ? 'error' : 'text.secondary'}>{preview.rejectedCount === 1 ? t.rejectedRow : format(t.rejectedRows, { n: preview.rejectedCount })}</Typography>
            {preview.sample.length > 0 && (
              <Table size="small" aria-label={t.samples}>
                <caption style={{ captionSide: 'top', textAlign: 'left', padding: '8px 0 4px' }}>{t.samples}</caption>
                <TableHead><TableRow><TableCell>Linha</TableCell><TableCell>{t.colChatId}</TableCell><TableCell>{t.colDisplayName}</TableCell><TableCell>Mensagem</TableCell></TableRow></TableHead>
                <TableBody>
                  {preview.sample.slice(0, SAMPLES_SHOWN).map((r) => (
                    <TableRow key={r.line}><TableCell>{r.line}</TableCell><TableCell>{r.chatId}</TableCell><TableCell>{r.displayName ?? ''}</TableCell><TableCell sx={{ whiteSpace: 'pre-wrap' }}>{r.text}</TableCell></TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
            {preview.rejected.length > 0 && (
              <Table size="small" aria-label={t.rejectedRows.replace('{n} ', '')}>
                <TableHead><TableRow><TableCell>Linha</TableCell><TableCell>{t.colChatId}</TableCell><TableCell>{t.colDisplayName}</TableCell><TableCell>Motivo</TableCell></TableRow></TableHead>
                <TableBody>
                  {preview.rejected.map((r) => (
                    <TableRow key={r.line}><TableCell>{r.line}</TableCell><TableCell>{r.chatId}</TableCell><TableCell>{r.displayName}</TableCell><TableCell>{r.reason}</TableCell></TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
            {preview.rejectedCsv && <Button size="small" onClick={() => saveText('linhas-rejeitadas.csv', preview.rejectedCsv!)}>{t.downloadRejected}</Button>}
            {mustConfirm && <FormControlLabel control={<Checkbox checked={confirmValid} onChange={(e) => setConfirmValid(e.target.checked)} />} label={t.confirmValid} />}
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{messages.table.cancel}</Button>
        <Button disabled={busy || !file} onClick={() => void run('preview')}>{t.preview}</Button>
        <Button variant="contained" disabled={busy || !file || !preview || preview.validCount === 0 || (mustConfirm && !confirmValid)} onClick={() => void run('create')}>{t.create}</Button>
      </DialogActions>
    </Dialog>
  );
}
