import { useCallback, useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ContentCopy from '@mui/icons-material/ContentCopy';
import Edit from '@mui/icons-material/Edit';
import {
  CHANNEL_CLAIM_LABELS, channelInfo, format, messages, setSettingAt, settingAt, WEBHOOK_SECRET_FIELDS,
  type ChannelAdminView, type ChannelSettingsForm,
} from '@atendimento/schemas';
import { apiRequest, ApiError } from '../api/api';
import { useLiveRefresh } from '../registers/list/useLiveRefresh';
import { showToast } from '../ui/toast';

const t = messages.channelAdmin;

export interface ChannelTypeOption {
  type: string;
  label: string;
  form: ChannelSettingsForm;
}

interface ChannelsAnswer {
  data: ChannelAdminView[];
  types: ChannelTypeOption[];
  departments: { id: string; displayName: string }[];
}

async function copyText(value: string) {
  try {
    await navigator.clipboard.writeText(value);
    showToast(t.copied, 'success');
  } catch {
    showToast(messages.table.copyFailed, 'error');
  }
}

function CopyField({ label, value, helperText, multiline }: { label: string; value: string; helperText?: string; multiline?: boolean }) {
  return (
    <TextField
      label={label}
      value={value}
      helperText={helperText}
      fullWidth
      multiline={multiline}
      slotProps={{
        inputLabel: { shrink: true },
        input: {
          readOnly: true,
          endAdornment: (
            <InputAdornment position="end">
              <IconButton aria-label={`${t.copy} ${label}`} onClick={() => void copyText(value)} edge="end">
                <ContentCopy />
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

/** What the widget will look like with the settings being typed (docs/webchat.md). */
export function WebchatPreview({ title, welcome, color }: { title: string; welcome: string; color: string }) {
  return (
    <Box aria-label={t.preview} role="figure" sx={{ border: 1, borderColor: 'divider', borderRadius: 2, width: 280, overflow: 'hidden', bgcolor: 'background.paper' }}>
      <Box sx={{ bgcolor: color, color: '#fff', px: 2, py: 1, fontWeight: 600 }} data-testid="webchat-preview-title">
        {title || messages.webchat.title}
      </Box>
      <Box sx={{ p: 2, minHeight: 80 }}>
        <Box sx={{ bgcolor: 'grey.100', borderRadius: 1, p: 1, display: 'inline-block' }} data-testid="webchat-preview-welcome">
          {welcome || messages.webchat.welcome}
        </Box>
      </Box>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', p: 1 }}>
        <Box sx={{ bgcolor: color, width: 44, height: 44, borderRadius: '50%' }} aria-label={messages.webchat.open} />
      </Box>
    </Box>
  );
}

interface Draft {
  type: string;
  displayName: string;
  departmentId: string;
  color: string;
  menuOrder: string;
  hide: boolean;
  active: boolean;
  claims: Record<string, boolean>;
  settings: Record<string, unknown>;
  webchat: { title: string; welcome: string; color: string; origins: string };
}

function draftOf(channel: ChannelAdminView | null, types: ChannelTypeOption[]): Draft {
  const type = channel?.type ?? types[0]?.type ?? '';
  const settings: Record<string, unknown> = {};
  for (const field of types.find((x) => x.type === type)?.form.fields ?? []) {
    if (field.secret) continue;
    const value = channel ? settingAt(channel.settings, field.path) : field.default;
    if (value !== undefined) setSettingAt(settings, field.path, value);
  }
  return {
    type,
    displayName: channel?.displayName ?? '',
    departmentId: channel?.departmentId ?? '',
    color: channel?.color ?? '#25D366',
    menuOrder: String(channel?.menuOrder ?? 0),
    hide: channel?.hide ?? false,
    active: channel?.active ?? true,
    claims: { ...(channel?.claims ?? {}) } as Record<string, boolean>,
    settings,
    webchat: {
      title: channel?.webchat?.title ?? '',
      welcome: channel?.webchat?.welcome ?? '',
      color: channel?.webchat?.color ?? channel?.color ?? '#1976D2',
      origins: (channel?.webchat?.allowedOrigins ?? []).join('\n'),
    },
  };
}

/**
 * One channel's form: the common part, the provider's settings (secrets write-only: the
 * input stays empty and says whether a value is stored), then, once saved, the webhook URL,
 * 'Testar conexão' and, for the web chat, the snippet with a live preview.
 */
export function ChannelDialog({ channel, types, departments, onClose, onSaved }: {
  channel: ChannelAdminView | null;
  types: ChannelTypeOption[];
  departments: { id: string; displayName: string }[];
  onClose: () => void;
  onSaved: (saved: ChannelAdminView) => void;
}) {
  const [current, setCurrent] = useState<ChannelAdminView | null>(channel);
  const [draft, setDraft] = useState<Draft>(() => draftOf(channel, types));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [testResult, setTestResult] = useState<{ ok: boolean; message: string } | null>(null);
  const form = types.find((x) => x.type === draft.type)?.form;
  const isWebchat = channelInfo(draft.type)?.adapter === 'webchat';
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const setSetting = (path: string, value: unknown) => setDraft((d) => {
    const settings = structuredClone(d.settings);
    setSettingAt(settings, path, value);
    return { ...d, settings };
  });

  async function save() {
    setBusy(true);
    setErrors({});
    setTestResult(null);
    const body = {
      ...(!current && { type: draft.type }),
      displayName: draft.displayName,
      departmentId: draft.departmentId || null,
      color: draft.color || null,
      menuOrder: Number(draft.menuOrder),
      hide: draft.hide,
      active: draft.active,
      claims: draft.claims,
      ...(form && form.fields.length > 0 && { settings: draft.settings }),
      ...(isWebchat && {
        webchat: {
          ...(draft.webchat.title && { title: draft.webchat.title }),
          ...(draft.webchat.welcome && { welcome: draft.webchat.welcome }),
          color: draft.webchat.color,
          allowedOrigins: draft.webchat.origins.split('\n').map((o) => o.trim()).filter(Boolean),
        },
      }),
    };
    try {
      const { body: answer } = await apiRequest<{ data: ChannelAdminView }>(current ? `/api/admin/channels/${encodeURIComponent(current.id)}` : '/api/admin/channels', {
        method: current ? 'PUT' : 'POST', body, notify: false,
      });
      setCurrent(answer.data);
      // Typed secrets are stored now: the inputs go back to empty ("Definido").
      setDraft(draftOf(answer.data, types));
      showToast(t.saved, 'success');
      onSaved(answer.data);
    } catch (error) {
      if (error instanceof ApiError && error.fields.length) setErrors(Object.fromEntries(error.fields.map((f) => [f.field, f.message])));
      else showToast(error instanceof Error ? error.message : messages.errors.internal, 'error');
    } finally {
      setBusy(false);
    }
  }

  async function test() {
    if (!current) return;
    setBusy(true);
    try {
      const { body } = await apiRequest<{ data: { ok: boolean; message: string } }>(`/api/admin/channels/${encodeURIComponent(current.id)}/test`, { method: 'POST', notify: false });
      setTestResult(body.data);
    } catch (error) {
      setTestResult({ ok: false, message: error instanceof Error ? error.message : messages.errors.internal });
    } finally {
      setBusy(false);
    }
  }

  const err = (field: string) => (errors[field] ? { error: true, helperText: errors[field] } : {});

  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth aria-labelledby="channel-dialog-title">
      <DialogTitle id="channel-dialog-title">{current ? t.editChannel : t.newChannel}</DialogTitle>
      <DialogContent>
        <Box component="form" noValidate sx={{ display: 'grid', gap: 2, pt: 1, gridTemplateColumns: { sm: '1fr 1fr' } }} onSubmit={(e) => { e.preventDefault(); void save(); }}>
          <TextField select label={t.type} value={draft.type} disabled={Boolean(current)} onChange={(e) => setDraft({ ...draftOf(null, types.filter((x) => x.type === e.target.value)), displayName: draft.displayName, departmentId: draft.departmentId })} {...err('type')}>
            {types.map((x) => <MenuItem key={x.type} value={x.type}>{x.label}</MenuItem>)}
            {current && !types.some((x) => x.type === current.type) && <MenuItem value={current.type}>{current.type}</MenuItem>}
          </TextField>
          <TextField label={t.displayName} value={draft.displayName} required onChange={(e) => set({ displayName: e.target.value })} {...err('displayName')} />
          <TextField select label={t.department} value={draft.departmentId} onChange={(e) => set({ departmentId: e.target.value })} {...err('departmentId')}>
            <MenuItem value="">{t.noDepartment}</MenuItem>
            {departments.map((d) => <MenuItem key={d.id} value={d.id}>{d.displayName}</MenuItem>)}
          </TextField>
          <Box sx={{ display: 'flex', gap: 2 }}>
            <TextField label={t.color} type="color" value={draft.color} onChange={(e) => set({ color: e.target.value })} sx={{ width: 120 }} {...err('color')} />
            <TextField label={t.menuOrder} type="number" value={draft.menuOrder} onChange={(e) => set({ menuOrder: e.target.value })} sx={{ flex: 1 }} {...err('menuOrder')} />
          </Box>
          <Box sx={{ gridColumn: '1 / -1', display: 'flex', flexWrap: 'wrap', gap: 1 }}>
            <FormControlLabel control={<Switch checked={draft.active} onChange={(e) => set({ active: e.target.checked })} />} label={t.active} />
            <FormControlLabel control={<Switch checked={draft.hide} onChange={(e) => set({ hide: e.target.checked })} />} label={t.hide} />
            {(Object.keys(CHANNEL_CLAIM_LABELS) as (keyof typeof CHANNEL_CLAIM_LABELS)[]).map((claim) => (
              <FormControlLabel key={claim} control={<Switch checked={Boolean(draft.claims[claim])} onChange={(e) => set({ claims: { ...draft.claims, [claim]: e.target.checked } })} />} label={CHANNEL_CLAIM_LABELS[claim]} />
            ))}
          </Box>

          {form && form.fields.length > 0 && (
            <Typography variant="subtitle1" sx={{ gridColumn: '1 / -1' }}>{t.providerSection}</Typography>
          )}
          {form?.fields.map((field) => {
            const id = `setting-${field.path}`;
            if (field.kind === 'boolean') {
              return <FormControlLabel key={id} control={<Switch checked={Boolean(settingAt(draft.settings, field.path))} onChange={(e) => setSetting(field.path, e.target.checked)} />} label={field.label} />;
            }
            const isSet = current?.secretsSet[field.path];
            const typed = settingAt(draft.settings, field.path);
            // Replacing a webhook secret: the old value keeps verifying deliveries for 24 h (server's SECRET_GRACE_MS).
            const rotating = isSet && WEBHOOK_SECRET_FIELDS.includes(field.path) && typeof typed === 'string' && typed !== '';
            const helper = errors[`settings.${field.path}`] ?? (rotating ? t.secretRotated : field.secret ? (isSet ? t.secretSet : t.secretUnset) : field.help);
            return (
              <TextField
                key={id}
                id={id}
                label={field.label}
                type={field.secret ? 'password' : field.kind === 'number' ? 'number' : 'text'}
                autoComplete={field.secret ? 'new-password' : 'off'}
                value={String(settingAt(draft.settings, field.path) ?? '')}
                required={field.required && !(field.secret && isSet)}
                error={Boolean(errors[`settings.${field.path}`])}
                helperText={helper}
                onChange={(e) => setSetting(field.path, e.target.value)}
              />
            );
          })}

          {isWebchat && (
            <>
              <Typography variant="subtitle1" sx={{ gridColumn: '1 / -1' }}>{t.webchatSection}</Typography>
              <TextField label={t.webchatTitle} value={draft.webchat.title} onChange={(e) => set({ webchat: { ...draft.webchat, title: e.target.value } })} {...err('webchat.title')} />
              <TextField label={t.webchatColor} type="color" value={draft.webchat.color} onChange={(e) => set({ webchat: { ...draft.webchat, color: e.target.value } })} {...err('webchat.color')} />
              <TextField label={t.webchatWelcome} value={draft.webchat.welcome} multiline onChange={(e) => set({ webchat: { ...draft.webchat, welcome: e.target.value } })} {...err('webchat.welcome')} />
              <TextField label={t.webchatOrigins} value={draft.webchat.origins} multiline minRows={2} onChange={(e) => set({ webchat: { ...draft.webchat, origins: e.target.value } })} {...err('webchat.allowedOrigins.0')} />
              <Box sx={{ gridColumn: '1 / -1' }}>
                <Typography variant="caption" component="div" gutterBottom>{t.preview}</Typography>
                <WebchatPreview title={draft.webchat.title || draft.displayName} welcome={draft.webchat.welcome} color={draft.webchat.color} />
              </Box>
            </>
          )}

          {current?.webhookUrl && (
            <Box sx={{ gridColumn: '1 / -1', display: 'grid', gap: 2 }}>
              <CopyField label={t.webhookUrl} value={current.webhookUrl} helperText={current.webhookUrl.includes('{segredo}') ? t.webhookSecretHint : t.webhookHelp} />
            </Box>
          )}
          {current?.snippet && (
            <Box sx={{ gridColumn: '1 / -1' }}>
              <CopyField label={t.snippet} value={current.snippet} multiline />
            </Box>
          )}
          {testResult && (
            <Alert severity={testResult.ok ? 'success' : 'error'} sx={{ gridColumn: '1 / -1' }} role="status">
              {testResult.message}
            </Alert>
          )}
          <button type="submit" hidden />
        </Box>
      </DialogContent>
      <DialogActions>
        {current && <Button onClick={() => void test()} disabled={busy}>{busy ? t.testing : t.testConnection}</Button>}
        <Box sx={{ flex: 1 }} />
        <Button onClick={onClose}>{t.cancel}</Button>
        <Button variant="contained" onClick={() => void save()} disabled={busy}>{t.save}</Button>
      </DialogActions>
    </Dialog>
  );
}

/** On a phone the list keeps name, type and the edit button; department and menu order are in the dialog. */
const wideOnly = { display: { xs: 'none', sm: 'table-cell' } } as const;

/**
 * The channels screen (docs/channels.md "The channels screen"): every channel of the tenant
 * with its type, department and state; 'Novo canal' and edit open ChannelDialog. The list is
 * refetched when the `channels` live collection changes (another admin, another tab).
 */
export function ChannelsPage({ live = true }: { live?: boolean }) {
  const [answer, setAnswer] = useState<ChannelsAnswer | null>(null);
  const [editing, setEditing] = useState<ChannelAdminView | 'new' | null>(null);
  const load = useCallback(async () => {
    const { body } = await apiRequest<ChannelsAnswer>('/api/admin/channels');
    setAnswer(body);
  }, []);
  useEffect(() => void load(), [load]);
  useLiveRefresh({ collection: 'channels', sort: { field: 'menuOrder', order: 'ASC' }, page: 1, perPage: 500, refetch: () => void load(), enabled: live });

  const departmentName = (id: string | null) => answer?.departments.find((d) => d.id === id)?.displayName ?? '—';
  const typeLabel = (type: string) => answer?.types.find((x) => x.type === type)?.label ?? channelInfo(type)?.label ?? type;

  return (
    // Centred by its auto margins, the card takes the table's width: capped at the screen's, it
    // no longer pushes 'Novo canal' and the edit buttons off a phone (the table scrolls in its box).
    <Paper sx={{ p: { xs: 2, sm: 3 }, maxWidth: 'min(1100px, 100%)', mx: 'auto', mt: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1, mb: 2 }}>
        <Typography variant="h5" component="h2" sx={{ flex: 1 }}>{t.title}</Typography>
        <Button variant="contained" onClick={() => setEditing('new')} disabled={!answer}>{t.newChannel}</Button>
      </Box>
      {answer && answer.data.length === 0 && <Alert severity="info">{t.empty}</Alert>}
      {answer && answer.data.length > 0 && (
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label={t.title}>
            <TableHead>
              <TableRow>
                <TableCell>{t.displayName}</TableCell>
                <TableCell>{t.type}</TableCell>
                <TableCell sx={wideOnly}>{t.department}</TableCell>
                <TableCell sx={wideOnly}>{t.menuOrder}</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {answer.data.map((channel) => (
                <TableRow key={channel.id} hover>
                  <TableCell>
                    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                      <Box sx={{ width: 12, height: 12, flexShrink: 0, borderRadius: '50%', bgcolor: channel.color ?? 'grey.400' }} />
                      {channel.displayName}
                      {!channel.active && <Chip size="small" label={t.disabled} />}
                      {channel.hide && <Chip size="small" label={t.hidden} />}
                    </Box>
                  </TableCell>
                  <TableCell>{typeLabel(channel.type)}</TableCell>
                  <TableCell sx={wideOnly}>{departmentName(channel.departmentId)}</TableCell>
                  <TableCell sx={wideOnly}>{channel.menuOrder}</TableCell>
                  <TableCell align="right">
                    <IconButton aria-label={format('{action} {name}', { action: t.editChannel, name: channel.displayName })} onClick={() => setEditing(channel)}>
                      <Edit />
                    </IconButton>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
      {editing && answer && (
        <ChannelDialog
          channel={editing === 'new' ? null : editing}
          types={answer.types}
          departments={answer.departments}
          onClose={() => setEditing(null)}
          onSaved={() => void load()}
        />
      )}
    </Paper>
  );
}
