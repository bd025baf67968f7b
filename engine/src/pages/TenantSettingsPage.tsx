import { Fragment, useCallback, useEffect, useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { messages, type SettingsAuditEntry } from '@atendimento/schemas';
import type { RegisterListMeta, RegisterSchema, RegisterUiSchema } from '@atendimento/schemas/registers/index';
import { apiRequest } from '../api/api';
import { RegisterForm } from '../registers/form/RegisterForm';
import type { RegisterView } from '../registers/definitions';
import { showToast } from '../ui/toast';

const t = messages.tenantSettings;

interface SettingsAnswer {
  data: Record<string, unknown>;
  schema: RegisterSchema;
  uiSchema: RegisterUiSchema;
  validatorUrl?: string;
}

/**
 * The UI schema with every list's entries titled from the schema's `items.title` and numbered
 * ('Justificativa 1', 'Status 2'): rjsf's own label is the list's title with a dash
 * ('Justificativas de encerramento-1'). A function as `items` is rjsf's per-entry UI schema;
 * the server's UI schema is JSON, so the numbering is added here.
 */
export function withNumberedItems(schema: RegisterSchema, uiSchema: RegisterUiSchema): RegisterUiSchema {
  const out: RegisterUiSchema = { ...uiSchema };
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    const ui = (uiSchema[key] ?? {}) as RegisterUiSchema;
    const title = property.items?.title;
    if (property.type === 'object') out[key] = withNumberedItems(property, ui);
    else if (property.type === 'array' && typeof title === 'string') {
      const itemUi = (ui.items ?? {}) as RegisterUiSchema;
      out[key] = { ...ui, items: (_item: unknown, index: number) => ({ ...itemUi, 'ui:title': `${title} ${index + 1}` }) };
    }
  }
  return out;
}

const show = (value: unknown) => (value === null || value === undefined || value === '' ? '—' : Array.isArray(value) ? value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join(', ') || '—' : typeof value === 'boolean' ? (value ? 'sim' : 'não') : String(value));

const valueCell = { overflowWrap: 'anywhere', minWidth: 120 } as const;

/** The audit list: who changed which setting, when, from what to what. */
export function SettingsAuditList({ entries }: { entries: SettingsAuditEntry[] }) {
  if (entries.length === 0) return <Alert severity="info">{t.auditEmpty}</Alert>;
  // A list's before/after is one long line ('{"text":"Online","color":"#4caf50"}, ...'): it
  // breaks anywhere, the field's path after its dots, and what is still too wide for a phone
  // scrolls in the table's own box instead of widening the page.
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={t.auditTitle} sx={{ '& td': { verticalAlign: 'top' } }}>
        <TableHead>
          <TableRow>
            <TableCell>{t.auditWhen}</TableCell>
            <TableCell>{t.auditWho}</TableCell>
            <TableCell>{t.auditField}</TableCell>
            <TableCell>{t.auditBefore}</TableCell>
            <TableCell>{t.auditAfter}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {entries.flatMap((entry) =>
            entry.changes.map((change, i) => (
              <TableRow key={`${entry.id}:${change.field}`}>
                <TableCell>{i === 0 ? new Date(entry.at).toLocaleString('pt-BR') : ''}</TableCell>
                <TableCell>{i === 0 ? entry.userName : ''}</TableCell>
                <TableCell>{change.field.split('.').map((part, p) => (p === 0 ? part : <Fragment key={p}>.<wbr />{part}</Fragment>))}</TableCell>
                <TableCell sx={valueCell}>{show(change.before)}</TableCell>
                <TableCell sx={valueCell}>{show(change.after)}</TableCell>
              </TableRow>
            )),
          )}
        </TableBody>
      </Table>
    </Box>
  );
}

/**
 * The tenant settings screen (docs/tenancy.md "Settings"): the form is generated from the
 * settings JSON Schema by the engine's rjsf form (the registers' widgets and validator), the
 * server validates with the same schema, and a save applies live to every signed-in user.
 * Below it, the audit list.
 */
export function TenantSettingsPage() {
  const [answer, setAnswer] = useState<SettingsAnswer | null>(null);
  const [audit, setAudit] = useState<SettingsAuditEntry[]>([]);
  const [version, setVersion] = useState(0);
  const load = useCallback(async () => {
    const [settings, log] = await Promise.all([
      apiRequest<SettingsAnswer>('/api/tenant-settings'),
      apiRequest<{ data: SettingsAuditEntry[] }>('/api/tenant-settings/audit'),
    ]);
    setAnswer(settings.body);
    setAudit(log.body.data);
    setVersion((v) => v + 1);
  }, []);
  useEffect(() => void load(), [load]);

  const view = useMemo<RegisterView | null>(() => answer && {
    name: 'tenantSettings',
    schema: answer.schema,
    uiSchema: withNumberedItems(answer.schema, answer.uiSchema),
    list: { serverFields: [], adminFields: [], fieldClaims: {}, writeOnlyFields: [] } as unknown as RegisterListMeta,
    readOnly: false,
    lockedFields: [],
    ...(answer.validatorUrl && { validatorUrl: answer.validatorUrl }),
  }, [answer]);

  async function save(body: Record<string, unknown>) {
    await apiRequest('/api/tenant-settings', { method: 'PUT', body, notify: false });
    showToast(t.saved, 'success');
    await load();
  }

  return (
    // Centred by its auto margins, the card takes its content's width, at least its widest
    // line's (the audit list): capped at the screen's, it no longer runs off a phone.
    <Paper sx={{ p: { xs: 2, sm: 3 }, maxWidth: 'min(1000px, 100%)', mx: 'auto', mt: 2 }}>
      <Typography variant="h5" component="h2" gutterBottom>{t.title}</Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>{t.intro}</Typography>
      {view && answer && <RegisterForm key={version} view={view} mode="edit" record={{ id: 'settings', ...answer.data }} onSave={save} />}
      <Typography variant="h6" component="h3" sx={{ mt: 4, mb: 1 }}>{t.auditTitle}</Typography>
      <SettingsAuditList entries={audit} />
    </Paper>
  );
}
